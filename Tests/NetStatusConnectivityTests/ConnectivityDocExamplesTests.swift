import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

/// The connectivity examples of the doc comments (which the DocC catalog shows), written out as they appear, so that
/// the compiler checks them: an example that does not compile fails this target's build. Each is a function of its
/// own, with stand-ins for the app's own functions (`sync()`, `showLoginHint(_:)`, …). Those that would probe the
/// network are never called; the ones about the state are run against a scripted monitor. README.md and the DocC
/// articles are compiled as written by Scripts/check-doc-samples.py.
@Suite("Connectivity documentation examples")
struct ConnectivityDocExamplesTests {
  // MARK: Stand-ins for the app's own code

  final class App: Sendable {
    let loginHints = Recorder<String?>()
    let actions = Recorder<String>()

    func sync() { actions.append("sync") }
    func sync() async { actions.append("sync") }
    func upload() { actions.append("upload") }
    func showLoginHint(_ redirect: String?) { loginHints.append(redirect) }
    func showOfflineBanner() { actions.append("offline banner") }
  }

  // MARK: The examples

  /// ConnectivityMonitor's overview.
  static func overview(_ app: App) async throws {
    let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")  // expects 204
    let connectivity = ConnectivityMonitor(monitor: .shared, probe: probe)

    connectivity.connectivityUpdateHandler = { state in
      print("internet: \(state)")  // unknown, none, limited, portal (redirect to …), full
    }
    connectivity.startMonitoring()

    for await state in connectivity.states where state.isFull {
      await app.sync()
    }
  }

  /// ConnectivityMonitor.connectivityUpdateHandler.
  static func updateHandler(_ connectivity: ConnectivityMonitor) {
    connectivity.connectivityUpdateHandler = { state in
      if case .portal(let redirect?) = state { print("log in at \(redirect)") }
    }
  }

  /// ConnectivityMonitor.state.
  static func state(_ connectivity: ConnectivityMonitor, _ app: App) {
    if case .portal(let login?) = connectivity.state { app.showLoginHint(login) }
  }

  /// ConnectivityState's overview.
  static func stateSwitch(_ connectivity: ConnectivityMonitor, _ app: App) {
    switch connectivity.state {
    case .full: app.sync()
    case .portal(let redirect): app.showLoginHint(redirect)
    case .limited, .noPath: app.showOfflineBanner()
    case .unknown: break  // not checked yet
    }
  }

  /// ConnectivityCheck's overview.
  static func lastCheck(_ connectivity: ConnectivityMonitor) {
    if let check = connectivity.lastCheck {
      print("\(check.state) (\(check.detail)) in \(check.duration)")  // limited (connection refused) in …
    }
  }

  /// ConnectivityStateSequence's overview.
  static func sequence(_ connectivity: ConnectivityMonitor) async -> String? {
    var banner: String?
    for await state in connectivity.states {
      banner = state.isFull ? nil : "No internet (\(state))"
    }
    return banner
  }

  /// ConnectivityMonitor.waitForInternetAccess(timeout:).
  static func waitForInternetAccess(_ connectivity: ConnectivityMonitor, _ app: App) async {
    do {
      try await connectivity.waitForInternetAccess(timeout: .seconds(10))
      app.upload()
    } catch {
      print(error)  // timed out, or the path monitor could not start or failed
    }
  }

  /// ConnectivityProbe's overview.
  static func probes() throws {
    // A URL that answers 204 No Content (as Android, ChromeOS and Ubuntu's checks do):
    let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")

    // NetworkManager's check: a body that starts with a known text.
    let nm = try ConnectivityProbe(
      url: "http://nmcheck.gnome.org/check_network_status.txt",
      expecting: .body("NetworkManager is online"))
    _ = (probe, nm)
  }

  /// ConnectivityProbe's "Valid when made".
  static func validWhenMade() throws -> ConnectivityProbe {
    let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/", timeout: .seconds(2))
    return probe
  }

  /// ConnectivityProbeError's overview.
  static func probeError() {
    do {
      let probe = try ConnectivityProbe(url: "https://example.com/")
      _ = probe
    } catch {
      print(error)  // explains that the probe speaks plain HTTP, and what to use instead
    }
  }

  // MARK: Running the state examples

  @Test func theValidWhenMadeExampleSetsTheTimeout() throws {
    #expect(try Self.validWhenMade().timeout == .seconds(2))
  }

  @Test func theStateExamplesDoWhatTheySay() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let transport = ScriptedTransport()
    let probe = try ConnectivityProbe(url: "http://probe.test/", settleDelay: .milliseconds(1))
    let connectivity = ConnectivityMonitor(monitor: NetworkMonitor(source: source), probe: probe, transport: transport)
    defer { connectivity.stopMonitoring() }
    let app = App()

    Self.stateSwitch(connectivity, app)
    #expect(app.actions.values.isEmpty && app.loginHints.values.isEmpty, "unknown: nothing to do yet")

    connectivity.startMonitoring()
    try await transport.requests.waitFor(count: 1, "the first probe")
    transport.answer(.response(ConnectivityMonitorTests.redirect))
    _ = try await connectivity.awaitState("portal") { $0 != .unknown }

    Self.state(connectivity, app)
    Self.stateSwitch(connectivity, app)
    #expect(app.loginHints.values == ["http://p.test/login", "http://p.test/login"])

    connectivity.recheck()
    try await transport.requests.waitFor(count: 2, "the recheck")
    transport.answer(.response(ConnectivityMonitorTests.noContent))
    _ = try await connectivity.awaitState("full") { $0.isFull }
    Self.stateSwitch(connectivity, app)
    #expect(app.actions.values == ["sync"])
  }
}
