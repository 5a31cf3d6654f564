import Dispatch
import Foundation
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// The NetworkManager integration in process, against dbusmock's NetworkManager on a private bus: a monitor of a
/// test namespace (veth `v0` with an address and a default route) composed as the process's own namespace's
/// monitor is (``NetworkManagerPathSource`` around the rtnetlink source), its watch on the private bus.
@Suite(
  "NetworkManager integration (in process)", .serialized,
  .enabled(if: PrivateBus.testsEnabled, PrivateBus.skipReason))
struct NetworkManagerIntegrationTests {
  /// A monitor as the default one is made, but of `site`'s namespace and the private bus; its paths recorded.
  final class Fixture: Sendable {
    let site: ProbeSite
    let bus: PrivateBus
    let watch: NetworkManagerWatch
    let monitor: NetworkMonitor
    let paths = Recorder<NetworkPath>()

    init(_ label: String, metered: UInt32?) async throws {
      site = try ProbeSite(label)
      do {
        bus = try await PrivateBus()
      } catch {
        site.delete()
        throw error
      }
      watch = NetworkManagerWatch(address: bus.address)
      let source = NetworkManagerPathSource(
        wrapping: try NetlinkPathSource(networkNamespace: site.target.name), watch: watch)
      monitor = NetworkMonitor(source: source)
      monitor.postsNotifications = false
      monitor.handlerQueue = DispatchQueue(label: "nm-paths")
      do {
        try await bus.startNetworkManager()
        if let metered { try bus.addDevice("v0", metered: metered) }
      } catch {
        stop()
        throw error
      }
      monitor.pathUpdateHandler = { [paths] in paths.append($0) }
    }

    /// Waits until the latest path satisfies `predicate`.
    func awaitPath(_ what: String, _ predicate: @escaping @Sendable (NetworkPath) -> Bool) async throws {
      try await paths.waitUntil(timeout: .seconds(10), what) { $0.last.map(predicate) ?? false }
    }

    func diagnostic() -> SourceDiagnostic? { monitor.sourceDiagnostics.first { $0.name == "NetworkManager" } }

    func stop() {
      monitor.stopMonitoring()
      bus.stop()
      site.delete()
    }
  }

  @Test func aMeteredDeviceMakesThePathExpensiveAndItsChangesFollow() async throws {
    let fixture = try await Fixture("nmlib", metered: 1)
    defer { fixture.stop() }
    try fixture.monitor.start()
    // Read before the first path: it is already expensive.
    let first = try #require(fixture.monitor.currentPath)
    #expect(first.isExpensive && first.expenseSource == .metered, "\(first)")
    #expect(fixture.diagnostic()?.isActive == true, "\(fixture.monitor.sourceDiagnostics)")

    try fixture.bus.setMetered("v0", 3)
    try await fixture.awaitPath("guess-yes") { $0.isExpensive && $0.expenseSource == .meteredGuessed }
    try fixture.bus.setMetered("v0", 2)
    try await fixture.awaitPath("no") { !$0.isExpensive && $0.expenseSource == nil }
    try fixture.bus.setMetered("v0", 1)
    try await fixture.awaitPath("yes") { $0.isExpensive && $0.expenseSource == .metered }
    #expect(fixture.paths.values.allSatisfy { $0.isConnected && $0.availableInterfaces.first?.name == "v0" })

    // The service leaves the bus (NameOwnerChanged): the path falls back to the kernel's view.
    fixture.bus.killNetworkManager()
    try await fixture.awaitPath("the fallback after NetworkManager left") { !$0.isExpensive }
    let reason = fixture.diagnostic()?.unavailableReason ?? ""
    #expect(reason.contains("not running"), "\(reason)")

    // It comes back: followed again.
    try await fixture.bus.startNetworkManager()
    try fixture.bus.addDevice("v0", metered: 2)
    try fixture.bus.setMetered("v0", 3)  // AddProperty emits no signal; SetProperty does
    try await fixture.awaitPath("NetworkManager back") { $0.expenseSource == .meteredGuessed }
    #expect(fixture.diagnostic()?.isActive == true)
  }

  @Test func theBusDisappearingMidRunFallsBackAndSaysWhy() async throws {
    let fixture = try await Fixture("nmbus", metered: 1)
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.isExpensive == true)
    fixture.bus.killDaemon()
    try await fixture.awaitPath("the fallback after the bus went") { !$0.isExpensive }
    let reason = fixture.diagnostic()?.unavailableReason ?? ""
    #expect(reason.contains("connection was lost"), "\(reason)")
    #expect(fixture.monitor.isConnected, "the path itself is the kernel's: still satisfied")
    #expect(fixture.monitor.lastError == nil, "never an error")
  }

  @Test func connectivityComesFromNetworkManagerWithoutTraffic() async throws {
    let fixture = try await Fixture("nmconn", metered: nil)
    defer { fixture.stop() }
    let connectivity = ConnectivityMonitor(monitor: fixture.monitor, source: .networkManager)
    #expect(connectivity.source == .networkManager)
    let states = Recorder<ConnectivityState>()
    connectivity.handlerQueue = DispatchQueue(label: "nm-states")
    connectivity.connectivityUpdateHandler = { states.append($0) }
    connectivity.startMonitoring()
    defer { connectivity.stopMonitoring() }
    func awaitState(_ expected: ConnectivityState) async throws {
      try await states.waitUntil(timeout: .seconds(10), "\(expected)") { $0.last == expected }
    }
    try await awaitState(.full)  // the template's default
    for (value, expected) in [(1, ConnectivityState.none), (2, .portal(redirect: nil)), (3, .limited), (4, .full)] {
      try fixture.bus.setConnectivity(UInt32(value))
      try await awaitState(expected)
    }
    #expect(connectivity.checksStarted == 0, "no probe")
    #expect(connectivity.networkManagerUnavailableReason == nil)

    // Without a satisfied path NetworkManager's "full" does not count.
    try fixture.site.deleteDefaultRoute()
    try await awaitState(.none)
    try fixture.site.addDefaultRoute()
    try await awaitState(.full)

    fixture.bus.killNetworkManager()
    try await awaitState(.unknown)
    #expect(connectivity.networkManagerUnavailableReason?.contains("not running") == true)
  }

  @Test func aMonitorOfAnotherNamespaceIgnoresNetworkManager() async throws {
    let site = try ProbeSite("nmother")
    defer { site.delete() }
    let monitor = try NetworkMonitor(networkNamespace: site.target.name)
    #expect(monitor.sourceDiagnostics.map(\.name) == ["rtnetlink"])
    let connectivity = ConnectivityMonitor(monitor: monitor, source: .networkManager)
    connectivity.startMonitoring()
    defer {
      connectivity.stopMonitoring()
      monitor.stopMonitoring()
    }
    #expect(connectivity.state == .unknown)
    let reason = connectivity.networkManagerUnavailableReason ?? ""
    #expect(reason.contains("another network namespace"), "\(reason)")
  }

  @Test func noBusIsAReasonNotAnError() async throws {
    let site = try ProbeSite("nmnobus")
    defer { site.delete() }
    let watch = NetworkManagerWatch(address: "unix:path=/tmp/nstest-no-such-bus-\(getpid())")
    let monitor = NetworkMonitor(
      source: NetworkManagerPathSource(
        wrapping: try NetlinkPathSource(networkNamespace: site.target.name), watch: watch))
    try monitor.start()
    defer { monitor.stopMonitoring() }
    #expect(monitor.isConnected && !monitor.isExpensive)
    let entry = try #require(monitor.sourceDiagnostics.last)
    #expect(entry.name == "NetworkManager")
    #expect(entry.unavailableReason?.contains("cannot connect") == true, "\(entry)")
    monitor.stopMonitoring()
    #expect(watch.status == .stopped)
  }
}
