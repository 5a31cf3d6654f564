import NetStatusCore

// Shared by the test targets: NetStatusKernelTests checks the Linux transport with it, NetStatusAppleLogicTests the
// Apple one.

/// Test helpers for connectivity monitors.
extension ConnectivityMonitor {
  /// Waits until the state satisfies `predicate`; throws ``TimedOut`` (saying what the last check saw)
  /// after `timeout`.
  @discardableResult
  package func awaitState(
    _ what: String, timeout: Duration = .seconds(30),
    _ predicate: @escaping @Sendable (ConnectivityState) -> Bool
  ) async throws -> ConnectivityState {
    do {
      return try await withTimeout(timeout, what) {
        for await state in self.states where predicate(state) { return state }
        throw CancellationError()
      }
    } catch let error as TimedOut {
      throw TimedOut(
        what:
          "\(error.what); the state is \(state), the last check: \(lastCheck.map(String.init(describing:)) ?? "none")",
        timeout: timeout)
    }
  }
}
