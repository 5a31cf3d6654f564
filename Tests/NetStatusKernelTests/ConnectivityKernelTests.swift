import Foundation
import NetStatusLinuxTestSupport
import Testing

@testable import NetStatusCore

/// The connectivity probe against real sockets: a namespace with a veth link to a peer namespace whose
/// HTTP server (a test fixture) plays the internet. Each state is reached within a timeout.
@Suite(
  "Connectivity probe in namespaces", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct ConnectivityKernelTests {
  /// A connectivity monitor of the site's target namespace.
  func monitor(_ site: ProbeSite, _ probe: ConnectivityProbe) throws -> ConnectivityMonitor {
    let paths = try NetworkMonitor(networkNamespace: site.target.name)
    return ConnectivityMonitor(monitor: paths, probe: probe)
  }

  @Test func fullWhenTheServerAnswersTheExpectedStatus() async throws {
    let site = try ProbeSite("cfull")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("full") { $0 == .full }
    // Full from the first check, not after a retry: counted, not timed. A bound on the time measured the test
    // runner's scheduling instead (10.02 s once, under ASan with every suite in parallel); the figure is the
    // benchmark's business.
    #expect(connectivity.checksStarted == 1, "full from the first check")
    let check = try #require(connectivity.lastCheck)
    #expect(check.detail == "HTTP 204")
    #expect(check.interface == "v0", "bound to the path's interface: \(check)")
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"])
    #expect(connectivity.monitor.currentPath?.isConnected == true)
  }

  @Test func portalWithARedirectReportsItsTarget() async throws {
    let site = try ProbeSite("cportal")
    defer { site.delete() }
    let server = try await site.startServer("redirect", ["--location", "http://198.51.100.1/login?from=probe"])
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    let state = try await connectivity.awaitState("a portal") { $0.name == "portal" }
    #expect(state == .portal(redirect: "http://198.51.100.1/login?from=probe"))
    #expect(connectivity.lastCheck?.detail == "HTTP 302 to http://198.51.100.1/login?from=probe")
  }

  @Test func portalWhenTheBodyIsNotTheExpectedText() async throws {
    let site = try ProbeSite("cbody")
    defer { site.delete() }
    let server = try await site.startServer("body", ["--body", "<html>Welcome to Hotel Wi-Fi</html>"])
    defer { server.stop() }
    let probe = try ConnectivityProbe(url: site.url("/check"), expecting: .body("NetworkManager is online"))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    let state = try await connectivity.awaitState("a portal") { $0.name == "portal" }
    #expect(state == .portal(redirect: nil))
    #expect(connectivity.lastCheck?.detail.contains("the body is not the expected text") == true)
  }

  @Test func fullWhenTheBodyIsTheExpectedText() async throws {
    let site = try ProbeSite("cbodyok")
    defer { site.delete() }
    let server = try await site.startServer("body", ["--body", "NetworkManager is online\n"])
    defer { server.stop() }
    let probe = try ConnectivityProbe(url: site.url("/check"), expecting: .body("NetworkManager is online"))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("full") { $0 == .full }
  }

  @Test func limitedWhenNothingListens() async throws {
    let site = try ProbeSite("crefused")
    defer { site.delete() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    #expect(connectivity.lastCheck?.detail == "connection refused")
  }

  @Test func limitedWhenTheRouteIsBlackholed() async throws {
    let site = try ProbeSite("cblackhole")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    try site.blackholeServer()
    let probe = try ConnectivityProbe(url: site.url(), timeout: .seconds(2))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    #expect(server.requests.isEmpty, "nothing reached the server")
    #expect(connectivity.lastCheck?.detail == "unreachable: the route is a blackhole (EINVAL)")
  }

  @Test func limitedWhenTheServerNeverAnswers() async throws {
    let site = try ProbeSite("chang")
    defer { site.delete() }
    let server = try await site.startServer("hang")
    defer { server.stop() }
    let probe = try ConnectivityProbe(url: site.url(), timeout: .milliseconds(800))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    let check = try #require(connectivity.lastCheck)
    #expect(check.detail.hasPrefix("no answer within"), "\(check)")
    // The reason names the 0.8 s deadline, and the server never answers: the deadline ended it. How soon after it
    // the check ends depends on the machine's load, so only the lower bound is asserted.
    #expect(check.duration >= .milliseconds(800))
    try await server.waitForLines(3, "the server to see the probe's connection closed")
  }

  @Test func limitedWhenTheAnswerIsNotHTTP() async throws {
    let site = try ProbeSite("cgarbage")
    defer { site.delete() }
    let server = try await site.startServer("garbage")
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    #expect(connectivity.lastCheck?.detail.hasPrefix("not an HTTP answer") == true)
  }

  @Test func noneWithoutADefaultRouteAndNothingSent() async throws {
    let site = try ProbeSite("cnone", defaultRoute: false)
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("none") { $0 == .noPath }
    #expect(connectivity.checksStarted == 0, "no probe without a path")
    #expect(connectivity.lastCheck == nil)
    #expect(server.requests.isEmpty)

    // The route appears: a path change, probed once it settles.
    try site.addDefaultRoute()
    try await connectivity.awaitState("full once the route appears") { $0 == .full }
    #expect(try await server.awaitRequests(1).count == 1)
  }

  @Test func unknownWhileThePathMonitorIsStoppedAndFullAgainOnceItRuns() async throws {
    let site = try ProbeSite("cpstop")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("full") { $0 == .full }
    connectivity.monitor.stopMonitoring()
    try await connectivity.awaitState("unknown once the path monitor stopped", timeout: .seconds(30)) {
      $0 == .unknown
    }
    connectivity.monitor.startMonitoring()
    try await connectivity.awaitState("full once it runs again") { $0 == .full }
    #expect(try await server.awaitRequests(2).count == 2, "one probe per start of the path monitor")
  }

  @Test func aPathChangeCancelsTheProbeInFlight() async throws {
    let site = try ProbeSite("ccancel")
    defer { site.delete() }
    let server = try await site.startServer("hang")
    defer { server.stop() }
    // A timeout far beyond the waits below (50 s in all, less than the server's own 60 s lifetime): the
    // connection can only close within them if the change cancelled the probe, so no bound on the time is needed.
    let probe = try ConnectivityProbe(url: site.url(), timeout: .seconds(3600))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await server.waitForLines(2, "the probe's request to arrive")
    #expect(connectivity.state == .unknown, "the probe is in flight")

    try site.deleteDefaultRoute()
    try await connectivity.awaitState("none after the route went", timeout: .seconds(30)) { $0 == .noPath }
    // The cancelled probe closed its socket, an hour before its timeout.
    try await server.waitForLines(3, "the server to see the probe's connection closed", timeout: .seconds(20))
    #expect(connectivity.lastCheck == nil, "the cancelled probe reported nothing")
  }

  @Test func limitedThenFullOnceTheServerAppears() async throws {
    let site = try ProbeSite("cretry")
    defer { site.delete() }
    let probe = try ConnectivityProbe(url: site.url(), initialBackoff: .milliseconds(200))
    let connectivity = try monitor(site, probe)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    let server = try await site.startServer("204")
    defer { server.stop() }
    // No path change: only the backoff retries find the server.
    try await connectivity.awaitState("full after a retry") { $0 == .full }
    #expect(connectivity.checksStarted >= 2)
  }
}
