import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// When `.needsInternet()` (NetStatusUI) covers the app: `NetworkStatusModel.coversContentWhileOffline`, which the
/// modifier reads, so that its rule is tested where SwiftUI is not.
@Suite("needsInternet: when the content is covered")
struct NeedsInternetDecisionTests {
  @Test(
    "covered only once the path is known to be unsatisfied",
    arguments: [
      (NetworkPath.offline, true),
      (NetworkPath(status: .unsatisfied), true),
      (NetworkPath.connected(via: .wifi), false),
      // A connection attempt brings the network up (an on-demand VPN, cellular that wakes): the app must make it.
      (
        NetworkPath(status: .requiresConnection, availableInterfaces: [.init(name: "utun2", index: 9, type: .other)]),
        false
      ),
    ])
  @MainActor
  func coveredWhenUnsatisfied(path: NetworkPath, covered: Bool) async throws {
    let monitor = NetworkMonitor(source: ScriptedPathSource(path))
    try monitor.start()
    defer { monitor.stopMonitoring() }
    _ = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    let model = NetworkStatusModel(monitor: monitor)
    #expect(model.path == path)
    #expect(model.coversContentWhileOffline == covered)
  }

  @Test("not covered while the path is not known yet: no flash of 'offline' at launch")
  @MainActor
  func notCoveredWhileUnknown() {
    let model = NetworkStatusModel(monitor: NetworkMonitor(source: ScriptedPathSource()))
    #expect(!model.isKnown)
    #expect(!model.coversContentWhileOffline)
  }
}
