import Dispatch
import Synchronization

/// Timestamped events from any thread (lines a child printed, paths a callback received), and a way for
/// one thread to wait for a count of them with a deadline.
final class EventLog: Sendable {
  /// One event: when it was received (``Monotonic``) and what it was.
  struct Event: Sendable {
    var time: Int64
    var text: String
  }

  private let events = Mutex<[Event]>([])
  private let arrived = DispatchSemaphore(value: 0)

  /// Records an event received at `time`.
  func append(_ text: String, at time: Int64) {
    events.withLockedValue { $0.append(Event(time: time, text: text)) }
    arrived.signal()
  }

  /// The number of events so far.
  var count: Int { events.withLockedValue { $0.count } }

  /// Every event so far.
  var all: [Event] { events.withLockedValue { $0 } }

  /// The event at `index`.
  func event(at index: Int) -> Event { events.withLockedValue { $0[index] } }

  /// Waits until at least `count` events have arrived; `false` if `timeoutMilliseconds` passed first.
  func wait(forCount count: Int, timeoutMilliseconds: Int) -> Bool {
    let deadline = DispatchTime.now() + .milliseconds(timeoutMilliseconds)
    while self.count < count {
      if arrived.wait(timeout: deadline) == .timedOut { return self.count >= count }
    }
    return true
  }

  /// Waits until an event satisfies `predicate`; returns its index, or `nil` on timeout.
  func wait(timeoutMilliseconds: Int, for predicate: (Event) -> Bool) -> Int? {
    let deadline = DispatchTime.now() + .milliseconds(timeoutMilliseconds)
    while true {
      if let index = events.withLockedValue({ $0.lastIndex(where: predicate) }) { return index }
      if arrived.wait(timeout: deadline) == .timedOut {
        return events.withLockedValue { $0.lastIndex(where: predicate) }
      }
    }
  }
}
