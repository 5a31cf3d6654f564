import Dispatch

/// Runs `body` on a serial Dispatch queue of its own and awaits its result, or `nil` once the awaiting task is
/// cancelled (`body` then still runs to its end, unawaited).
///
/// For synchronous work that may block (a monitor's start: a netlink dump and lookups, perhaps a thread entering a
/// namespace, NetworkManager's first reads) called from async code: the caller's executor (the main actor, or a
/// thread of Swift's small cooperative pool) runs other work meanwhile. A queue of its own, not the global queue:
/// a new serial queue gets a thread at once, where the global queue's pool on Linux is as wide as the CPUs and
/// adds a thread for blocked ones only after about a second. Returning at cancellation lets a deadline
/// (``withDeadline(_:_:)``) end while the work still blocks.
package func runOffExecutor<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value? {
  let call = OffExecutorCall<Value>()
  return await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
      guard call.wait(continuation) else { return }
      DispatchQueue(label: "netstatus-off-executor").async { call.finish(body()) }
    }
  } onCancel: {
    call.finish(nil)
  }
}

/// The one continuation of a ``runOffExecutor(_:)`` call, resumed once: by the work's end or by a cancellation,
/// whichever comes first.
private final class OffExecutorCall<Value: Sendable>: Sendable {
  private enum State {
    case idle
    case waiting(CheckedContinuation<Value?, Never>)
    case done
  }
  private let state = Locked<State>(.idle)

  /// Records the awaiting continuation; `false` (having resumed it with `nil`) when cancelled already.
  func wait(_ continuation: CheckedContinuation<Value?, Never>) -> Bool {
    let cancelled = state.withLockedValue { state -> Bool in
      guard case .idle = state else { return true }
      state = .waiting(continuation)
      return false
    }
    if cancelled { continuation.resume(returning: nil) }
    return !cancelled
  }

  /// Resumes the continuation with `value`, unless already resumed.
  func finish(_ value: Value?) {
    let waiting = state.withLockedValue { state -> CheckedContinuation<Value?, Never>? in
      defer { state = .done }
      guard case .waiting(let continuation) = state else { return nil }
      return continuation
    }
    waiting?.resume(returning: value)
  }
}
