/// What `watch` has to write that standard output has not taken yet, and who writes it: the decisions of
/// ``WatchOutput``, pure (no I/O, no lock), so that they are tested without a pipe.
///
/// A line is written at once by the thread that saw the change (the rtnetlink thread), with no hop to another
/// thread, while standard output takes everything. When it does not (a full pipe, a reader that stalls), what is
/// left goes to the output's writer thread, and the lines that follow wait here in order: the thread that sees the
/// kernel's changes never waits for a reader, so the textfile and the monitors stay current whatever standard output
/// does.
///
/// Bounded: once more than ``limit`` bytes wait, a line replaces the newest waiting line of its key (a namespace, or
/// `nil` for `watch`'s one path) instead of queueing behind it, as changes coalesce when netstatus itself falls
/// behind: a reader that falls behind gets each namespace's latest state, not every state in between. A namespace's
/// last line (`deleted`) never replaces another; over the limit it takes the namespace's waiting lines with it,
/// and goes itself too if the reader was never told of the namespace, so that namespaces that come and go while the
/// reader stalls cost nothing.
struct WatchOutputBacklog: Sendable {
  /// A line and what it says.
  struct Line: Equatable, Sendable {
    /// Its namespace (`watch --all-netns`), or `nil`.
    var key: String?
    /// The line's bytes, newline included.
    var bytes: [UInt8]
    /// Whether it is its key's last line (`deleted`), which ends what the reader hears of the key.
    var isLast: Bool = false
  }

  /// Who is writing, if anyone.
  enum Writer: Equatable, Sendable {
    /// Nobody: the next line is written at once by its caller.
    case none
    /// A caller, writing its line without waiting.
    case caller
    /// The writer thread, which writes ``pending`` and the waiting lines, waiting for room.
    case thread
  }

  /// What a caller does with its line.
  enum Submission: Equatable, Sendable {
    /// Write it now, without waiting (then ``callerWrote(remainder:)``).
    case writeNow
    /// Nothing: it waits for the writer thread.
    case queued
    /// Nothing: standard output is done with (the reader went, a write failed, netstatus is stopping).
    case ended
  }

  /// The most bytes that wait before lines replace those of their key.
  let limit: Int
  private(set) var writer = Writer.none
  /// The rest of a line a caller started and could not finish, for the writer thread to write first.
  private(set) var pending: [UInt8]?
  /// The lines waiting, oldest first.
  private(set) var waiting: [Line] = []
  /// The bytes of ``waiting``.
  private(set) var waitingBytes = 0
  /// The keys the reader has heard of (a line of theirs written or started), until their last line.
  private(set) var told: Set<String> = []
  /// Whether standard output is done with: nothing more is written.
  private(set) var ended = false

  init(limit: Int) {
    self.limit = limit
  }

  /// Whether ``submit(_:)`` would have its caller write the line now (its bytes are then not kept).
  var takesLineNow: Bool { !ended && writer == .none && waiting.isEmpty }

  /// A caller has a line: written by it now, when nobody writes and nothing waits; else it waits.
  mutating func submit(_ line: Line) -> Submission {
    if ended { return .ended }
    if takesLineNow {
      writer = .caller
      heard(line)
      return .writeNow
    }
    enqueue(line)
    return .queued
  }

  /// The caller wrote its line, all of it (`remainder` empty) or not (the rest waits for room). Returns whether
  /// the writer thread must be woken: it now has something to write.
  mutating func callerWrote(remainder: [UInt8]) -> Bool {
    precondition(writer == .caller, "only the caller that was told to write reports")
    if ended { return false }
    if !remainder.isEmpty { pending = remainder }
    writer = pending == nil && waiting.isEmpty ? .none : .thread
    return writer == .thread
  }

  /// What the writer thread writes next (``pending``, then the oldest waiting line), or `nil` when there is nothing:
  /// then nobody writes, and the next caller writes its line itself. Only while the thread is the writer.
  mutating func nextForThread() -> [UInt8]? {
    guard writer == .thread, !ended else { return nil }
    if let pending {
      self.pending = nil
      return pending
    }
    guard !waiting.isEmpty else {
      writer = .none
      return nil
    }
    let line = waiting.removeFirst()
    waitingBytes -= line.bytes.count
    heard(line)
    return line.bytes
  }

  /// Standard output is done with: what waits is dropped, and every later line too.
  mutating func end() {
    ended = true
    pending = nil
    waiting = []
    waitingBytes = 0
    writer = .none
  }

  /// The key of a line written or started is known to the reader, until its last line.
  private mutating func heard(_ line: Line) {
    guard let key = line.key else { return }
    if line.isLast { told.remove(key) } else { told.insert(key) }
  }

  private mutating func enqueue(_ line: Line) {
    if waitingBytes + line.bytes.count > limit {
      if line.isLast {
        // Its namespace's waiting lines say nothing now that it is gone; unheard of, it goes unsaid.
        drop { $0.key == line.key }
        if let key = line.key, !told.contains(key) { return }
      } else if let index = waiting.lastIndex(where: { $0.key == line.key && !$0.isLast }) {
        waitingBytes -= waiting[index].bytes.count
        waiting.remove(at: index)
      }
    }
    waiting.append(line)
    waitingBytes += line.bytes.count
  }

  private mutating func drop(where matches: (Line) -> Bool) {
    waiting.removeAll { line in
      guard matches(line) else { return false }
      waitingBytes -= line.bytes.count
      return true
    }
  }
}
