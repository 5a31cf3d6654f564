// Seed 001 with NetStatus: a view-model that reads an injected `NetworkStatusProviding` (the tutorial's
// `ReachabilityUC`), here fed by the shared monitor; the "Check for internet" button is the driver's `tap`.
import NetStatus
import ReachabilityFeature
import SeedHarness

@main
struct InjectedReachability {
  @MainActor
  static func main() async {
    let model = ReachabilityViewModel(network: NetworkMonitor.shared)
    model.onChange = { screen in print("shows: \(screen)") }
    Harness.start(onTap: {
      model.check()
      print("checked: \(model.isConnected ? "connected" : "not connected")")
    })
    await model.follow()
  }
}
