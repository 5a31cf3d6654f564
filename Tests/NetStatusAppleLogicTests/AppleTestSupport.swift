import Dispatch
import Foundation
import Network
import Synchronization
import Testing

@testable import NetStatus
@testable import NetStatusAppleLogic

/// A test waited longer than it allowed.
struct TimedOut: Error, CustomStringConvertible {
  let what: String
  let timeout: Duration
  var description: String { "timed out after \(timeout) waiting for \(what)" }
}

/// Runs `body`, failing loudly if it has not finished within `timeout`. `body` must honour cancellation.
func withTimeout<T: Sendable>(
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

/// Collects values from any thread and lets a test await a count of them, without sleeping.
final class Recorder<Value: Sendable>: Sendable {
  private struct State {
    var values: [Value] = []
    var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var nextID = 0
  }

  private let state = Mutex(State())

  var values: [Value] { state.withLockedValue { $0.values } }
  var count: Int { state.withLockedValue { $0.values.count } }

  func append(_ value: Value) {
    let ready = state.withLockedValue { state in
      state.values.append(value)
      let count = state.values.count
      let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
      state.waiters.removeAll { $0.count <= count }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Waits until at least `count` values have arrived; throws ``TimedOut`` after `timeout`.
  func waitFor(count: Int, timeout: Duration = .seconds(5), _ what: String = "values") async throws {
    try await withTimeout(timeout, "\(count) \(what) (have \(self.count))") {
      let id = self.state.withLockedValue { state -> Int in
        state.nextID += 1
        return state.nextID
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let now = self.state.withLockedValue { state -> Bool in
            if state.values.count >= count { return true }
            state.waiters.append((id, count, continuation))
            return false
          }
          if now { continuation.resume() }
        }
      } onCancel: {
        let waiting = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index).continuation
        }
        waiting?.resume()
      }
    }
  }
}

/// An `NWPathMonitorSource` whose monitors the test can reach: it makes them with the source's own
/// `monitor(for:)`, records them, and lets the test prepare each before it starts.
///
/// `@unchecked Sendable`: the stand-in `NWPathMonitor` is not `Sendable`; the log only touches monitors under its lock
/// and the tests use them from one task.
final class MonitorLog: @unchecked Sendable {
  private let lock = NSLock()
  private var made: [NWPathMonitor] = []
  private let prepare: (@Sendable (NWPathMonitor) -> Void)?

  init(prepare: (@Sendable (NWPathMonitor) -> Void)? = nil) {
    self.prepare = prepare
  }

  /// The source under test.
  var source: NWPathMonitorSource {
    NWPathMonitorSource { [self] filter in
      let monitor = NWPathMonitorSource.monitor(for: filter)
      prepare?(monitor)
      lock.withLock { made.append(monitor) }
      return monitor
    }
  }

  /// Every monitor made so far, oldest first.
  var monitors: [NWPathMonitor] { lock.withLock { made } }
}

extension NWPath {
  /// A satisfied stand-in path over one interface.
  static func satisfied(_ name: String, index: Int, _ type: NWInterface.InterfaceType) -> NWPath {
    NWPath(
      status: .satisfied,
      availableInterfaces: [NWInterface(name: name, index: index, type: type)],
      isExpensive: type == .cellular,
      supportsIPv4: true,
      supportsDNS: true,
      gateways: [.hostPort(host: NWEndpoint.Host("192.0.2.1"), port: .any)]
    )
  }
}

/// A key to tell, from inside a sink, which dispatch queue it runs on. `@unchecked Sendable`: the key is immutable.
final class QueueTag: @unchecked Sendable {
  let key = DispatchSpecificKey<String>()

  /// Tags `queue` with `name`.
  func tag(_ queue: DispatchQueue, as name: String) {
    queue.setSpecific(key: key, value: name)
  }

  /// The tag of the queue the caller runs on, or `nil`.
  var current: String? { DispatchQueue.getSpecific(key: key) }
}
