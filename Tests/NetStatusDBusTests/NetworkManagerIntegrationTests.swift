import Dispatch
import Foundation
import NetStatus
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore
@testable import NetStatusNetworkManager

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

    /// `networkManager` sets the bus up instead of dbusmock's NetworkManager with device `v0` `metered`.
    init(
      _ label: String, metered: UInt32?, dualStack: Bool = false,
      networkManager: (@Sendable (PrivateBus) async throws -> Void)? = nil
    ) async throws {
      site = try dualStack ? ProbeSite.dualStack(label) : ProbeSite(label)
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
        if let networkManager {
          try await networkManager(bus)
        } else {
          try await bus.startNetworkManager()
          if let metered { try bus.addDevice("v0", metered: metered) }
        }
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

    /// Waits until the NetworkManager diagnostic's reason (empty while active) satisfies `predicate`.
    func awaitReason(_ what: String, _ predicate: @escaping @Sendable (String) -> Bool) async throws {
      try await withTimeout(.seconds(30), what) {
        while !predicate(self.diagnostic()?.unavailableReason ?? "") {
          try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
        }
      }
    }

    /// Starts the monitor and returns how long its start took.
    func timedStart() throws -> Duration {
      let clock = ContinuousClock()
      let began = clock.now
      try monitor.start()
      return began.duration(to: clock.now)
    }

    /// Stops the monitor and returns how long its stop took.
    func timedStop() -> Duration {
      let clock = ContinuousClock()
      let began = clock.now
      monitor.stopMonitoring()
      return began.duration(to: clock.now)
    }

    func stop() {
      monitor.stopMonitoring()
      bus.stop()
      site.delete()
    }

    /// A fixture whose dbusmock NetworkManager has `count` ethernet devices (`v0`, `dev1`, …), each with `Metered`
    /// `metered`.
    static func withDevices(_ label: String, _ count: Int, metered: UInt32) async throws -> Fixture {
      try await Fixture(label, metered: nil) { bus in
        try await bus.startNetworkManager()
        try bus.python(
          """
          nm = BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager')
          for n in range(\(count)):
              name = 'v0' if n == 0 else 'dev%d' % n
              nm.AddEthernetDevice(name, name, 100, dbus_interface='org.freedesktop.DBus.Mock')
              BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager/Devices/' + name) \\
                  .AddProperty('org.freedesktop.NetworkManager.Device', 'Metered', dbus.UInt32(\(metered)),
                               dbus_interface='org.freedesktop.DBus.Mock')
          """)
      }
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
    for (value, expected) in [(1, ConnectivityState.noPath), (2, .portal(redirect: nil)), (3, .limited), (4, .full)] {
      try fixture.bus.setConnectivity(UInt32(value))
      try await awaitState(expected)
    }
    #expect(connectivity.checksStarted == 0, "no probe")
    #expect(connectivity.networkManagerUnavailableReason == nil)

    // Without a satisfied path NetworkManager's "full" does not count.
    try fixture.site.deleteDefaultRoute()
    try await awaitState(.noPath)
    try fixture.site.addDefaultRoute()
    try await awaitState(.full)

    fixture.bus.killNetworkManager()
    try await awaitState(.unknown)
    #expect(connectivity.networkManagerUnavailableReason?.contains("not running") == true)
  }

  /// NetworkManager 1.16 and later check each family through each device (`Ip4Connectivity`, `Ip6Connectivity`):
  /// the families take the answers of the path's device, and a family's change alone is published.
  @Test func eachFamilyComesFromTheDevicesOwnAnswer() async throws {
    let fixture = try await Fixture("nmfam", metered: 2, dualStack: true)
    defer { fixture.stop() }
    try fixture.bus.addDeviceProperty("v0", "Ip4Connectivity", 4)
    try fixture.bus.addDeviceProperty("v0", "Ip6Connectivity", 3)
    let connectivity = ConnectivityMonitor(monitor: fixture.monitor, source: .networkManager)
    let seen = Recorder<FamilyConnectivity>()
    connectivity.handlerQueue = DispatchQueue(label: "nm-families")
    connectivity.connectivityUpdateHandler = { [weak connectivity] _ in
      if let connectivity {
        seen.append(FamilyConnectivity(ipv4: connectivity.ipv4State, ipv6: connectivity.ipv6State))
      }
    }
    connectivity.startMonitoring()
    defer { connectivity.stopMonitoring() }
    try await seen.waitUntil(timeout: .seconds(10), "IPv4 full, IPv6 limited") {
      $0.last == FamilyConnectivity(ipv4: .full, ipv6: .limited)
    }
    #expect(connectivity.state == .full, "the manager's Connectivity")
    // IPv6 starts working: the overall state stays full, the change is published all the same.
    try fixture.bus.setDeviceProperty("v0", "Ip6Connectivity", 4)
    try await seen.waitUntil(timeout: .seconds(10), "IPv6 full too") {
      $0.last == FamilyConnectivity(ipv4: .full, ipv6: .full)
    }
    try fixture.bus.setDeviceProperty("v0", "Ip4Connectivity", 2)
    try await seen.waitUntil(timeout: .seconds(10), "IPv4 behind a portal") {
      $0.last == FamilyConnectivity(ipv4: .portal(redirect: nil), ipv6: .full)
    }
    #expect(connectivity.checksStarted == 0, "no probe")
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
    let entry = try #require(monitor.sourceDiagnostics.dropLast(2).last)
    #expect(entry.name == "NetworkManager")
    #expect(entry.unavailableReason?.contains("cannot connect") == true, "\(entry)")
    // ModemManager and iwd, on the same connection, say the same.
    for (service, diagnostic) in zip(["ModemManager", "iwd"], monitor.sourceDiagnostics.suffix(2)) {
      #expect(diagnostic.name == service)
      #expect(diagnostic.unavailableReason == entry.unavailableReason, "\(diagnostic)")
    }
    monitor.stopMonitoring()
    #expect(watch.status == .stopped)
  }

  // MARK: Nothing stalls

  /// Start-up's one budget (NetworkManagerWatch.defaultStartupBudget, 750 ms, which the diagnostics name), with room
  /// for a loaded machine (the whole suite in parallel, under a sanitizer): 20 s to 90 s before.
  static let startUpLimit = Duration.seconds(10)
  /// A stop joins a thread that sleeps in poll(2): immediate, with room for a loaded machine, and far below the
  /// 25 s a hung read would hold it (its timeout: NetworkManagerWatch.callTimeout).
  static let stopLimit = Duration.seconds(10)

  @Test func aHungBusDaemonCostsOneStartUpBudgetAndItsLateAnswerComesAsAChange() async throws {
    // The daemon stopped with SIGSTOP keeps its socket: connecting works, nothing is ever answered.
    let fixture = try await Fixture("nmhungbus", metered: nil) { $0.pauseDaemon() }
    defer { fixture.stop() }
    let startUp = try fixture.timedStart()
    #expect(startUp < Self.startUpLimit, "sd-bus's own timeout is 90 s: \(startUp)")
    #expect(fixture.monitor.isConnected && fixture.monitor.currentPath?.isExpensive == false)
    let reason = fixture.diagnostic()?.unavailableReason ?? ""
    #expect(
      reason == "NetworkManager did not answer within 750 ms (the system bus did not answer); its answer is applied "
        + "when it comes", "\(reason)")
    let stop = fixture.timedStop()
    #expect(stop < Self.stopLimit, "\(stop)")

    // Started again, and the daemon runs meanwhile: its late answer (no NetworkManager on it) is a change.
    #expect(try fixture.timedStart() < Self.startUpLimit)
    fixture.bus.resumeDaemon()
    try await fixture.awaitReason("the bus's late answer") { $0.contains("NetworkManager is not running") }
    #expect(fixture.monitor.lastError == nil, "never an error")
  }

  @Test func aNetworkManagerThatNeverAnswersDeviceReadsCostsOneBudgetHoweverManyDevices() async throws {
    let fixture = try await Fixture("nmhangdev", metered: nil) {
      try await $0.startHangingNetworkManager(devices: 10, hang: "devices")
    }
    defer { fixture.stop() }
    let startUp = try fixture.timedStart()
    #expect(startUp < Self.startUpLimit, "2 s per read, 3 reads per device in a row before: \(startUp)")
    let reason = fixture.diagnostic()?.unavailableReason ?? ""
    #expect(reason.hasPrefix("NetworkManager did not answer within 750 ms (reading 10 devices)"), "\(reason)")
    #expect(fixture.monitor.currentPath?.isExpensive == false, "published without NetworkManager's view")
    let stop = fixture.timedStop()
    #expect(stop < Self.stopLimit, "\(stop)")
  }

  @Test func aDeviceThatAnswersLateIsAppliedAsAChange() async throws {
    let fixture = try await Fixture("nmlate", metered: nil) {
      try await $0.startHangingNetworkManager(devices: 1, metered: 1, hang: "devices")
    }
    defer { fixture.stop() }
    #expect(try fixture.timedStart() < Self.startUpLimit)
    #expect(fixture.monitor.currentPath?.isExpensive == false)
    #expect(fixture.diagnostic()?.unavailableReason?.contains("did not answer") == true)
    // The device answers now: late, whatever the start took.
    try fixture.bus.send("/org/freedesktop/NetworkManager", "org.netstatus.Test.AnswerHeld", [])
    try await fixture.awaitPath("expensive once the device answered") {
      $0.isExpensive && $0.expenseSource == .metered
    }
    #expect(fixture.diagnostic()?.isActive == true)
  }

  @Test func stoppingWhileNetworkManagerHangsInTheMiddleOfAReadIsImmediate() async throws {
    let fixture = try await Fixture("nmhangmid", metered: nil) {
      try await $0.startHangingNetworkManager(devices: 1, metered: 1, hang: "none")
    }
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.isExpensive == true)
    // It stops answering, then says Metered changed without its value: the watch reads it, and waits.
    try fixture.bus.send("/org/freedesktop/NetworkManager", "org.netstatus.Test.SetHang", ["string:all"])
    let answered = fixture.bus.networkManagerOutput.count
    let device = "/org/freedesktop/NetworkManager/Devices/0"
    try fixture.bus.send(
      "/org/freedesktop/NetworkManager", "org.netstatus.Test.Invalidate", ["objpath:\(device)", "string:Metered"])
    try await withTimeout(.seconds(30), "a read to reach NetworkManager") {
      while fixture.bus.networkManagerOutput.count == answered {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    let stop = fixture.timedStop()
    #expect(stop < Self.stopLimit, "the read's 25 s timeout, if it waited for the read: \(stop)")
    #expect(
      fixture.bus.networkManagerOutput.dropFirst(answered) == ["get \(device) Metered"], "only the property named")
  }

  /// dbus-daemon refuses a connection's calls past `max_replies_per_connection` awaiting their reply
  /// (`LimitsExceeded`): 128 on the system bus (its default, which /usr/share/dbus-1/system.conf keeps) and on the
  /// private bus, whose configuration sets no limit. 60 devices make 2 + 6 × 60 = 362 first reads: every one must
  /// reach NetworkManager once (dbusmock's devices have no Ip4Connectivity or Ip6Connectivity, and Ethernet devices no
  /// ActiveAccessPoint: those reads fail, logged), and every device be in the view with its Metered.
  @Test func moreDevicesThanTheBusLetsACallerAwaitAreAllRead() async throws {
    let devices = 60
    let fixture = try await Fixture.withDevices("nmmany", devices, metered: 1)
    defer { fixture.stop() }
    try await fixture.bus.logCaughtUp()
    let setupReads = fixture.bus.readsLogged
    try fixture.monitor.start()
    // dbusmock answers one read at a time: on a loaded machine the first reads may outlast the start-up budget, and
    // come as a change.
    try await withTimeout(.seconds(20), "NetworkManager's view") {
      while fixture.watch.status.view == nil {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    let view = try #require(fixture.watch.status.view)
    #expect(view.devices.count == devices, "\(view.devices.map(\.interface))")
    let unknown = view.devices.filter { $0.metered != .yes }.map(\.interface)
    #expect(unknown.isEmpty, "Metered unread: \(unknown)")
    try await fixture.awaitPath("v0 metered") { $0.isExpensive && $0.expenseSource == .metered }
    try await fixture.bus.logCaughtUp()
    let reads = fixture.bus.readsLogged - setupReads
    #expect(reads == 2 + 6 * devices, "Connectivity, Devices, and 6 per device, each once")
  }

  @Test func aSignalFloodIsAppliedFromTheSignalsWithoutReading() async throws {
    let devices = 30
    let fixture = try await Fixture.withDevices("nmflood", devices, metered: 2)
    defer { fixture.stop() }
    // dbusmock's AddEthernetDevice reads Devices itself, and logs it.
    try await fixture.bus.logCaughtUp()
    let setupReads = fixture.bus.readsLogged
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.isExpensive == false)
    // The first reads outlast the start-up budget on a loaded machine (dbusmock answers one at a time): await them
    // all, then check that none was made twice.
    let expected = 2 + 6 * devices
    try await withTimeout(.seconds(20), "the first \(expected) reads") {
      while fixture.bus.readsLogged - setupReads < expected { try await fixture.bus.logCaughtUp() }
    }
    try await fixture.bus.logCaughtUp()
    let firstReads = fixture.bus.readsLogged
    #expect(firstReads - setupReads == expected, "Connectivity, Devices, and 6 per device, once")
    // 200 signals in about a second, each with its value, then v0 guess-yes.
    try fixture.bus.python(
      """
      nm = BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager')
      def metered(name, value):
          nm.SetProperty('/org/freedesktop/NetworkManager/Devices/' + name,
                         'org.freedesktop.NetworkManager.Device', 'Metered', dbus.UInt32(value),
                         dbus_interface='org.freedesktop.DBus.Mock')
      for i in range(200):
          n = i % \(devices)
          metered('v0' if n == 0 else 'dev%d' % n, 1 + i % 2)
          time.sleep(0.005)
      metered('v0', 3)
      """)
    try await fixture.awaitPath("guess-yes after the flood") { $0.expenseSource == .meteredGuessed }
    try await fixture.bus.logCaughtUp()
    let floodReads = fixture.bus.readsLogged - firstReads
    #expect(floodReads == 0, "every read again per batch before (\(2 + 3 * devices) a batch): \(floodReads)")
  }
}
