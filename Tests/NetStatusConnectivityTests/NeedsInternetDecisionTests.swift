import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

/// When `.needsInternet()` (NetStatusUI) covers the app, and why: `InternetUnavailability`, which the modifier reads
/// through `NetworkStatusModel.internetUnavailability`, so that its rule is tested where SwiftUI is not.
@Suite("needsInternet: when the content is covered, and why")
struct NeedsInternetDecisionTests {
  static let tunnel = NetworkPath(
    status: .requiresConnection, availableInterfaces: [.init(name: "utun2", index: 9, type: .other)])

  @Test(
    "the path alone: covered only once it is known to be unsatisfied",
    arguments: [
      (NetworkPath.offline, InternetUnavailability.offline),
      (NetworkPath(status: .unsatisfied), .offline),
      (NetworkPath.connected(via: .wifi), nil),
      // A connection attempt brings the network up (an on-demand VPN, cellular that wakes): the app must make it.
      (tunnel, nil),
    ])
  @MainActor
  func coveredWhenUnsatisfied(path: NetworkPath, unavailability: InternetUnavailability?) async throws {
    let monitor = NetworkMonitor(source: ScriptedPathSource(path))
    try monitor.start()
    defer { monitor.stopMonitoring() }
    _ = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    let model = NetworkStatusModel(monitor: monitor)
    #expect(model.path == path)
    #expect(model.internetUnavailability == unavailability)
  }

  @Test("not covered while the path is not known yet: no flash of 'offline' at launch")
  @MainActor
  func notCoveredWhileUnknown() {
    let model = NetworkStatusModel(monitor: NetworkMonitor(source: ScriptedPathSource()))
    #expect(!model.isKnown)
    #expect(model.internetUnavailability == nil)
  }

  @Test(
    "with a connectivity check: a portal and a silent internet are covered on a satisfied path",
    arguments: [
      (NetworkPath?.some(.connected(via: .wifi)), ConnectivityState.unknown, InternetUnavailability?.none),
      (.connected(via: .wifi), .full, nil),
      (
        .connected(via: .wifi), .portal(redirect: "http://portal.test/login"),
        .captivePortal(loginURL: "http://portal.test/login")
      ),
      (.connected(via: .wifi), .portal(redirect: nil), .captivePortal(loginURL: nil)),
      // Only a web page is offered as a link: not another scheme, not a name with spaces or controls in it.
      (.connected(via: .wifi), .portal(redirect: "javascript:alert(1)"), .captivePortal(loginURL: nil)),
      (.connected(via: .wifi), .portal(redirect: "http://a b/"), .captivePortal(loginURL: nil)),
      (
        .connected(via: .wifi), .portal(redirect: "HTTPS://portal.test/"),
        .captivePortal(loginURL: "HTTPS://portal.test/")
      ),
      (.connected(via: .wifi), .limited, .noInternetAccess),
      // The check lags the path: a satisfied path whose check still says "no path" is not covered.
      (.connected(via: .wifi), .noPath, nil),
      // An unsatisfied path is offline whatever the last check said.
      (.offline, .full, .offline),
      (.offline, .portal(redirect: nil), .offline),
      (tunnel, .limited, nil),
      (nil, .limited, nil),
    ])
  func judged(path: NetworkPath?, connectivity: ConnectivityState, unavailability: InternetUnavailability?) {
    #expect(InternetUnavailability(path: path, connectivity: connectivity) == unavailability)
  }

  @Test("a model that follows a connectivity monitor covers for a portal, then uncovers once the internet answers")
  @MainActor
  func theModelFollowsTheCheck() async throws {
    let source = ScriptedPathSource(.connected(via: .wifi))
    let transport = ScriptedTransport()
    let probe = try ConnectivityProbe(
      url: "http://probe.test/", settleDelay: .milliseconds(1), initialBackoff: .seconds(3600),
      maximumBackoff: .seconds(3600))
    let connectivity = ConnectivityMonitor(monitor: NetworkMonitor(source: source), probe: probe, transport: transport)
    defer {
      connectivity.stop()
      connectivity.monitor.stop()
    }
    let model = NetworkStatusModel(connectivity: connectivity)
    let judged = Recorder<InternetUnavailability?>()
    model.record({ $0.internetUnavailability }, into: judged)
    try await transport.requests.waitFor(count: 1, "the first check")
    #expect(model.internetUnavailability == nil, "not checked yet: not covered")
    transport.answer(
      .response(
        HTTPResponse(
          version: "HTTP/1.1", status: 302, reason: "Found",
          headers: [.init(name: "Location", value: "http://portal.test/login")], body: [], isBodyComplete: true)))
    try await judged.waitUntil("the portal covered") {
      $0.last == .captivePortal(loginURL: "http://portal.test/login")
    }
    connectivity.recheck()
    try await transport.requests.waitFor(count: 2, "the recheck")
    transport.answer(
      .response(
        HTTPResponse(
          version: "HTTP/1.1", status: 204, reason: "No Content", headers: [], body: [], isBodyComplete: true)))
    try await judged.waitUntil("nothing covered once the internet answers") { $0.last == .some(nil) }
    source.send(.offline)
    try await judged.waitUntil("offline covered as offline") { $0.last == .offline }
  }
}
