import Synchronization

/// Mutable state shared between threads: a `Mutex<State>` in a final class, plus an acquire/release
/// fence that ThreadSanitizer can see.
///
/// Why the fence: on Linux, `Synchronization.Mutex` locks and unlocks with an inlined atomic when the lock
/// is free, which ThreadSanitizer sees, but hands a contended lock over with futex calls inside the
/// uninstrumented Swift runtime (`_lockSlow`, `_unlockSlow`), which it does not. Without the fence, every
/// contended hand-over is reported as a data race. The fence is an atomic load-acquire on entry and a
/// store-release on exit, inside the lock: redundant for correctness, invisible in cost.
final class LockedState<State: Sendable>: Sendable {
  private let mutex: Mutex<State>
  private let fence = Atomic<UInt8>(0)

  /// Creates the state.
  init(_ initial: State) {
    mutex = Mutex(initial)
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<Result: Sendable, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    try mutex.withLock { (state: inout State) throws(Failure) -> Result in
      _ = fence.load(ordering: .acquiring)
      defer { fence.store(0, ordering: .releasing) }
      return try body(&state)
    }
  }
}
