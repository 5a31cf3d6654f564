import Testing

@testable import NetStatusCLI

/// Who writes `watch`'s lines and what waits (`Sources/NetStatusCLI/WatchOutputBacklog.swift`), without a pipe: the
/// caller writes while standard output keeps up; what it does not take goes to the writer thread, and what comes
/// meanwhile waits, bounded, each namespace's newest state replacing its older one once too much waits.
@Suite("watch output backlog")
struct WatchOutputBacklogTests {
  typealias Backlog = WatchOutputBacklog

  static func line(_ key: String?, _ text: String, last: Bool = false) -> Backlog.Line {
    Backlog.Line(key: key, bytes: Array((text + "\n").utf8), isLast: last)
  }

  static func submit(_ backlog: inout Backlog, _ line: Backlog.Line) -> Backlog.Submission { backlog.submit(line) }
  static func wrote(_ backlog: inout Backlog, _ remainder: [UInt8]) -> Bool {
    backlog.callerWrote(remainder: remainder)
  }

  /// What the writer thread writes until nothing is left, as text.
  static func drain(_ backlog: inout Backlog) -> [String] {
    var written: [String] = []
    while let bytes = backlog.nextForThread() { written.append(String(decoding: bytes, as: UTF8.self)) }
    return written
  }

  @Test("a reader that keeps up: every caller writes its own line, nothing waits")
  func keepingUp() {
    var backlog = Backlog(limit: 100)
    for text in ["a", "b", "c"] {
      #expect(Self.submit(&backlog, Self.line(nil, text)) == .writeNow)
      #expect(!Self.wrote(&backlog, []), "no thread to wake")
      #expect(backlog.writer == .none)
    }
  }

  @Test("a full pipe: the rest of the line goes to the thread, later lines wait in order, then callers again")
  func fullPipe() {
    var backlog = Backlog(limit: 100)
    #expect(Self.submit(&backlog, Self.line(nil, "first")) == .writeNow)
    #expect(Self.wrote(&backlog, Array("rst\n".utf8)), "the thread is woken")
    #expect(backlog.writer == .thread)
    #expect(Self.submit(&backlog, Self.line(nil, "second")) == .queued)
    #expect(Self.submit(&backlog, Self.line(nil, "third")) == .queued)
    #expect(Self.drain(&backlog) == ["rst\n", "second\n", "third\n"])
    #expect(backlog.writer == .none)
    #expect(Self.submit(&backlog, Self.line(nil, "fourth")) == .writeNow, "nothing waits: the caller writes again")
  }

  @Test("lines that come while a caller writes wait, and the caller hands them to the thread")
  func whileACallerWrites() {
    var backlog = Backlog(limit: 100)
    #expect(Self.submit(&backlog, Self.line("a", "1")) == .writeNow)
    #expect(Self.submit(&backlog, Self.line("b", "2")) == .queued)
    #expect(Self.wrote(&backlog, []), "what waits needs the thread")
    #expect(Self.drain(&backlog) == ["2\n"])
  }

  @Test("over the limit, a key's newest line replaces its waiting one and goes last; other keys keep theirs")
  func coalescing() {
    var backlog = Backlog(limit: 12)
    #expect(Self.submit(&backlog, Self.line("a", "a0")) == .writeNow)
    _ = backlog.callerWrote(remainder: Array("0\n".utf8))
    for text in ["a1", "b1", "a2", "b2", "a3", "c1", "a4"] {
      _ = backlog.submit(Self.line(String(text.prefix(1)), text))
    }
    let written = Self.drain(&backlog)
    #expect(written.first == "0\n")
    #expect(written.last == "a4\n", "the newest state is never dropped: \(written)")
    #expect(written.contains("c1\n") && written.contains("b2\n"), "every key keeps its newest: \(written)")
    #expect(
      !written.contains("a2\n") && !written.contains("a3\n"),
      "states of a that came over the limit gave way: \(written)")
    #expect(written.reduce(0) { $0 + $1.utf8.count } <= 2 + 12 + "a4\n".utf8.count)
  }

  @Test("a deleted namespace the reader never heard of costs nothing over the limit; one it heard of is said")
  func lastLines() {
    var backlog = Backlog(limit: 8)
    #expect(Self.submit(&backlog, Self.line("old", "old")) == .writeNow)
    _ = backlog.callerWrote(remainder: Array("d\n".utf8))
    _ = backlog.submit(Self.line("x", "x-on"))
    _ = backlog.submit(Self.line("old", "old-off"))
    // x comes and goes while the reader stalls: over the limit, its lines and its end go unsaid.
    _ = backlog.submit(Self.line("x", "x-gone", last: true))
    // old was heard of: its waiting line goes, its end is said.
    _ = backlog.submit(Self.line("old", "old-gone", last: true))
    #expect(Self.drain(&backlog) == ["d\n", "old-gone\n"])
    #expect(backlog.told.isEmpty)
  }

  @Test("under the limit nothing is dropped, a deleted namespace's lines included")
  func underTheLimit() {
    var backlog = Backlog(limit: 1000)
    _ = backlog.submit(Self.line("x", "x0"))
    _ = backlog.callerWrote(remainder: Array("0\n".utf8))
    for line in [Self.line("x", "x1"), Self.line("y", "y1"), Self.line("x", "x-gone", last: true)] {
      #expect(Self.submit(&backlog, line) == .queued)
    }
    #expect(Self.drain(&backlog) == ["0\n", "x1\n", "y1\n", "x-gone\n"])
  }

  @Test("once ended, nothing waits and nothing is written")
  func ended() {
    var backlog = Backlog(limit: 100)
    _ = backlog.submit(Self.line(nil, "a"))
    _ = backlog.callerWrote(remainder: Array("a\n".utf8))
    _ = backlog.submit(Self.line(nil, "b"))
    backlog.end()
    let next = backlog.nextForThread()
    #expect(next == nil)
    #expect(Self.submit(&backlog, Self.line(nil, "c")) == .ended)
    #expect(backlog.waiting.isEmpty && backlog.waitingBytes == 0)
  }
}

/// When the `--textfile` writer writes (`Sources/NetStatusCLI/TextfileSchedule.swift`).
@Suite("textfile schedule")
struct TextfileScheduleTests {
  @Test("the first write at once; a change once the last write is a gap old; a refresh at the interval")
  func steps() {
    let schedule = TextfileSchedule(minimumGap: .milliseconds(100), refreshInterval: .seconds(60))
    let start = ContinuousClock.now
    #expect(schedule.step(changed: false, lastWrite: nil, now: start) == .write)
    #expect(
      schedule.step(changed: true, lastWrite: start, now: start + .milliseconds(20))
        == .wait(until: start + .milliseconds(100)))
    #expect(schedule.step(changed: true, lastWrite: start, now: start + .milliseconds(100)) == .write)
    #expect(
      schedule.step(changed: false, lastWrite: start, now: start + .seconds(1)) == .wait(until: start + .seconds(60)))
    #expect(schedule.step(changed: false, lastWrite: start, now: start + .seconds(60)) == .write)
  }
}
