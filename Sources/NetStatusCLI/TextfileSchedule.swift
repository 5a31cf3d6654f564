/// When the `--textfile` writer writes: pure, so that it is tested without a clock or a file.
///
/// A change is written as soon as the last write is ``minimumGap`` old: at once when the file is quiet, and at most
/// once per gap under a burst (1,000 namespaces starting, a flapping link), each write then holding every change
/// of the gap. Without a change, the file is rewritten ``refreshInterval`` after its last write, with its values as
/// they are then: current, since nothing the writer waits on stands between the kernel's changes and the values
/// (the lines to standard output do not: WatchOutput.swift).
struct TextfileSchedule: Sendable, Equatable {
  /// The least time between two writes.
  var minimumGap: Duration = .milliseconds(100)
  /// The most time between two writes (``PrometheusTextfile/refreshInterval``).
  var refreshInterval: Duration = PrometheusTextfile.refreshInterval

  /// What the writer does now.
  enum Step: Equatable, Sendable {
    /// Write the file, with the values as they are now.
    case write
    /// Sleep until then, or until woken by a change.
    case wait(until: ContinuousClock.Instant)
  }

  /// The step when the values have `changed` since the last write, made at `lastWrite` (`nil`: never).
  func step(changed: Bool, lastWrite: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> Step {
    guard let lastWrite else { return .write }
    let due = lastWrite + (changed ? minimumGap : refreshInterval)
    return now >= due ? .write : .wait(until: due)
  }
}
