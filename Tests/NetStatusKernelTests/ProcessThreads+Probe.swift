import NetStatusLinuxTestSupport

@testable import NetStatusConnectivity
@testable import NetStatusCore

// Names the probe's threads by NetStatusCore's internal `ProbeOperation`: here, in a test target, which imports
// NetStatusCore `@testable`.
extension ProcessThreads {
  /// The probe threads (`netstatus-probe`) that have entered `namespace`.
  static func probeThreads(in namespace: TestNamespace) -> [Thread] {
    inside(namespace).filter { $0.name == ProbeOperation.threadName }
  }
}
