import NetStatusCore
import Testing

// Helpers shared by the test targets: await events with a timeout that fails loudly, never sleep.

/// A test waited longer than it allowed.
package struct TimedOut: Error, CustomStringConvertible {
  package let what: String
  package let timeout: Duration
  package init(what: String, timeout: Duration) {
    self.what = what
    self.timeout = timeout
  }
  package var description: String { "timed out after \(timeout) waiting for \(what)" }
}

/// Runs `body`, failing loudly if it has not finished within `timeout`. `body` must honour cancellation.
package func withTimeout<T: Sendable>(
  _ timeout: Duration,
  _ what: String,
  _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw TimedOut(what: what, timeout: timeout)
    }
    return value
  }
}

/// Asks `check` every `interval` until it answers (non-`nil`) or `timeout` has passed, and always once more after
/// the deadline, before giving up: a test process stalled past the deadline (a whole suite under ThreadSanitizer on
/// two loaded cores stalls one for seconds) then judges the state after the stall, not the one it last saw before
/// it. For states nothing announces (a file rewritten, a server listening); what is announced is awaited.
///
/// - Returns: `check`'s answer, or `nil` when it gave none by the deadline.
package func poll<T>(
  timeout: Duration, every interval: Duration, _ check: () async throws -> T?
) async throws -> T? {
  let deadline = ContinuousClock.now + timeout
  while true {
    let pastDeadline = ContinuousClock.now >= deadline
    if let answer = try await check() { return answer }
    if pastDeadline { return nil }
    try await Task.sleep(for: interval)
  }
}

/// Collects values from any thread and lets a test await a count of them, or any condition on them,
/// without sleeping.
///
/// Conditions are checked under the recorder's lock when the wait begins and after every append, so a
/// value that arrives between a test's own check and its wait is never missed.
package final class Recorder<Value: Sendable>: Sendable {
  /// How long a wait allows by default: generous, because a wait ends as soon as its values arrive and only a
  /// failing test waits it out. A whole suite under ThreadSanitizer on two loaded cores has stalled a test process
  /// for about ten seconds (two waits of 5 s failed with their values arriving just after).
  package static var defaultTimeout: Duration { .seconds(30) }

  private typealias Condition = @Sendable ([Value]) -> Bool

  private struct State {
    var values: [Value] = []
    var waiters: [(id: Int, isMet: Condition, continuation: CheckedContinuation<[Value], Never>)] = []
    var nextID = 0
  }

  private let state = Locked(State())

  package init() {}

  package var values: [Value] { state.withLockedValue { $0.values } }
  package var count: Int { state.withLockedValue { $0.values.count } }

  package func append(_ value: Value) {
    let (values, ready) = state.withLockedValue { state in
      state.values.append(value)
      let values = state.values
      var ready: [CheckedContinuation<[Value], Never>] = []
      state.waiters.removeAll { waiter in
        guard waiter.isMet(values) else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return (values, ready)
    }
    for continuation in ready { continuation.resume(returning: values) }
  }

  /// Waits until at least `count` values have arrived; throws ``TimedOut`` after `timeout`.
  package func waitFor(count: Int, timeout: Duration = Recorder.defaultTimeout, _ what: String = "values") async throws
  {
    _ = try await waitUntil(timeout: timeout, "\(count) \(what)") { $0.count >= count }
  }

  /// Waits until `condition` holds for the values recorded so far and returns those values: the snapshot the
  /// condition held for, whatever arrives after it. Throws ``TimedOut`` after `timeout`, naming `what` and
  /// the values that had arrived by then.
  @discardableResult
  package func waitUntil(
    timeout: Duration = Recorder.defaultTimeout, _ what: String, _ condition: @escaping @Sendable ([Value]) -> Bool
  ) async throws -> [Value] {
    do {
      return try await waitWithoutReport(timeout: timeout, condition)
    } catch let error as TimedOut {
      // Say what had arrived when the time ran out (not when the wait began).
      throw TimedOut(what: "\(what) (have \(self.count): \(values))", timeout: error.timeout)
    }
  }

  private func waitWithoutReport(timeout: Duration, _ condition: @escaping Condition) async throws -> [Value] {
    try await withTimeout(timeout, "values") {
      let id = self.state.withLockedValue { state -> Int in
        state.nextID += 1
        return state.nextID
      }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Value], Never>) in
          let met = self.state.withLockedValue { state -> [Value]? in
            if condition(state.values) { return state.values }
            state.waiters.append((id, condition, continuation))
            return nil
          }
          if let met { continuation.resume(returning: met) }
        }
      } onCancel: {
        let waiting = self.state.withLockedValue { state -> CheckedContinuation<[Value], Never>? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index).continuation
        }
        // Cancelled by the timeout: the values no longer matter.
        waiting?.resume(returning: [])
      }
    }
  }
}
