import Dispatch
import Foundation
import NetStatusTestSupport
@_spi(TestHooks) import Network
import Synchronization
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// An `NWPathMonitorSource` whose monitors the test can reach: it makes them with the source's own
/// `monitor(for:)`, records them, and lets the test prepare each before it starts.
///
/// `@unchecked Sendable`: the stand-in `NWPathMonitor` is not `Sendable`; the log only touches monitors under its lock
/// and the tests use them from one task.
final class MonitorLog: @unchecked Sendable {
  private let lock = NSLock()
  private var made: [NWPathMonitor] = []
  private var prepare: (@Sendable (NWPathMonitor) -> Void)?

  init(prepare: (@Sendable (NWPathMonitor) -> Void)? = nil) {
    self.prepare = prepare
  }

  /// Prepares the monitors made from now on with `prepare` instead.
  func prepareNext(_ prepare: @escaping @Sendable (NWPathMonitor) -> Void) {
    lock.withLock { self.prepare = prepare }
  }

  /// The source under test.
  var source: NWPathMonitorSource {
    NWPathMonitorSource { [self] filter in
      let monitor = NWPathMonitorSource.monitor(for: filter)
      lock.withLock { prepare }?(monitor)
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
