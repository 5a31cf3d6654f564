import Dispatch
import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output for `watch`'s lines, which never makes the thread that sees a change wait for the reader.
///
/// A line is written at once by its caller (the rtnetlink thread, with no hop: watch's latency stays `ip monitor`'s)
/// as long as standard output takes it. What a full pipe does not take goes to a writer thread of its own
/// (started the first time it is needed), which waits for room; the lines that come meanwhile wait
/// for it, bounded and coalesced per namespace (``WatchOutputBacklog``, where every decision is made). So a reader
/// that stalls keeps nothing else from going on: the kernel's changes are still read, the `--textfile` file still
/// shows the current path, and a stop signal still ends netstatus.
///
/// When the output ends (the reader went away, a write failed, netstatus is stopping), `onEnd` is called once with
/// what ended it, on the thread that found out; later lines are dropped.
final class WatchOutput: Sendable {
  /// How many bytes may wait for a reader that does not keep up before lines replace their key's waiting line:
  /// as much again as a pipe holds (64 KiB on Linux).
  static let backlogLimit = 64 * 1024

  private let backlog: Locked<WatchOutputBacklog>
  /// Whether the writer thread runs (started once, then for the process's life).
  private let threadStarted = Locked(false)
  /// Signalled once each time the writer thread becomes the writer (``WatchOutputBacklog/callerWrote(remainder:)``).
  private let wake = DispatchSemaphore(value: 0)
  private let onEnd: @Sendable (StandardOutput.Outcome) -> Void

  init(limit: Int = WatchOutput.backlogLimit, onEnd: @escaping @Sendable (StandardOutput.Outcome) -> Void) {
    self.backlog = Locked(WatchOutputBacklog(limit: limit))
    self.onEnd = onEnd
  }

  /// Writes `text` and a newline; `key` is its namespace, `isLast` for a namespace's `deleted` line.
  ///
  /// - Returns: `.written` when the line was written or waits to be; what ended the output otherwise
  ///   (`.interrupted` when it had ended before, and `onEnd` was told then).
  @discardableResult
  func line(_ text: String, key: String? = nil, isLast: Bool = false) -> StandardOutput.Outcome {
    var text = text + "\n"
    return text.withUTF8 { write(UnsafeRawBufferPointer($0), key: key, isLast: isLast) }
  }

  /// Writes `bytes`, a whole line with its newline (see ``line(_:key:isLast:)``).
  ///
  /// When the line is written at once (nobody writes, nothing waits: the usual case), it is written under the lock
  /// that decided so: the write never waits for room, so the lock is held for one system call, and the decision and
  /// its outcome are recorded in one hold.
  func write(_ bytes: UnsafeRawBufferPointer, key: String? = nil, isLast: Bool = false) -> StandardOutput.Outcome {
    enum Next {
      case done(StandardOutput.Outcome)
      case wakeThread
    }
    let next = backlog.withLockedValue { backlog -> Next in
      // The caller's bytes are copied only when the line must wait.
      let takesNow = backlog.takesLineNow
      switch backlog.submit(WatchOutputBacklog.Line(key: key, bytes: takesNow ? [] : Array(bytes), isLast: isLast)) {
      case .ended: return .done(.interrupted)
      case .queued: return .done(.written)
      case .writeNow: break
      }
      let (written, ended) = StandardOutput.writeWithoutWaiting(bytes)
      if let ended {
        backlog.end()
        return .done(ended)
      }
      let remainder = written < bytes.count ? Array(bytes[written...]) : []
      return backlog.callerWrote(remainder: remainder) ? .wakeThread : .done(.written)
    }
    switch next {
    case .done(let outcome): return outcome
    case .wakeThread:
      startOrWakeThread()
      return .written
    }
  }

  /// Wakes the writer thread, started the first time. Without a thread (none could be made), the caller writes what
  /// waits itself, waiting for room as every write did before.
  private func startOrWakeThread() {
    let start = threadStarted.withLockedValue { started -> Bool in
      defer { started = true }
      return !started
    }
    if start, !DetachedThread.start({ [self] in runThread() }) {
      threadStarted.withLockedValue { $0 = false }
      runThread(once: true)
      return
    }
    wake.signal()
  }

  /// The writer thread: each time it is woken, writes what waits until nothing does, waiting for room.
  private func runThread(once: Bool = false) {
    repeat {
      if !once { wake.wait() }
      while let bytes = backlog.withLockedValue({ $0.nextForThread() }) {
        let outcome = bytes.withUnsafeBytes { StandardOutput.write($0, to: STDOUT_FILENO) }
        guard outcome == .written else {
          backlog.withLockedValue { $0.end() }
          onEnd(outcome)
          return
        }
      }
    } while !once
  }
}
