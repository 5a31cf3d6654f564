import NetStatusTestSupport
import Testing

@testable import NetStatusCore

extension NetworkPath {
  /// A distinct satisfied path for tests: one interface of `type` with the given index.
  static func test(_ type: InterfaceType, index: Int = 2, expensive: Bool? = nil) -> NetworkPath {
    var path = NetworkPath.connected(via: type, index: index)
    if let expensive { path.isExpensive = expensive }
    return path
  }
}

/// Test helpers for connectivity monitors.
extension ConnectivityMonitor {
  /// Waits until the state satisfies `predicate`; throws ``TimedOut`` (saying what the last check saw)
  /// after `timeout`.
  @discardableResult
  func awaitState(
    _ what: String, timeout: Duration = .seconds(10),
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
