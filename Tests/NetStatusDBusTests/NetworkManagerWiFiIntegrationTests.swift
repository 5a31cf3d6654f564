import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore
@testable import NetStatusNetworkManager

/// A Wi-Fi link's quality from NetworkManager's access point, in process, against NetworkManagers on a private bus
/// (dbusmock's, and hostile ones): the path of a test namespace's `v0`, which NetworkManager calls a Wi-Fi device.
@Suite(
  "NetworkManager's Wi-Fi signal (in process)", .serialized,
  .enabled(if: PrivateBus.testsEnabled, PrivateBus.skipReason))
struct NetworkManagerWiFiIntegrationTests {
  typealias Fixture = NetworkManagerIntegrationTests.Fixture
  static let device = "/org/freedesktop/NetworkManager/Devices/v0"

  /// dbusmock's NetworkManager with Wi-Fi device `v0` associated with access point `ap1` at `strength` percent.
  static func wifiFixture(_ label: String, strength: UInt8) async throws -> Fixture {
    try await Fixture(label, metered: nil) { bus in
      try await bus.startNetworkManager()
      try bus.python(
        """
        nm = BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager')
        mock = 'org.freedesktop.DBus.Mock'
        device = nm.AddWiFiDevice('v0', 'v0', 100, dbus_interface=mock)
        ap = nm.AddAccessPoint(device, 'ap1', 'home', '00:11:22:33:44:55', 2, 2412, 54000, \(strength), 0,
                               dbus_interface=mock)
        BUS.get_object('org.freedesktop.NetworkManager', device).AddProperty(
            'org.freedesktop.NetworkManager.Device.Wireless', 'ActiveAccessPoint', dbus.ObjectPath(ap),
            dbus_interface=mock)
        """)
    }
  }

  /// Sets `property` of `path`'s `interface` through dbusmock (PropertiesChanged follows), `value` in dbus-send's
  /// syntax.
  static func set(_ bus: PrivateBus, _ path: String, _ interface: String, _ property: String, _ value: String) throws {
    try bus.send(
      "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock.SetProperty",
      ["string:\(path)", "string:\(interface)", "string:\(property)", "variant:\(value)"])
  }

  @Test func theSignalRatesThePathAndEveryChangeOfItFollows() async throws {
    let fixture = try await Self.wifiFixture("nmwifi", strength: 70)
    defer { fixture.stop() }
    try fixture.monitor.start()
    // The first status waits for the access point's strength: the first path has it.
    let first = try #require(fixture.monitor.currentPath)
    #expect(first.linkQuality == .good, "\(first)")
    let ap1 = "/org/freedesktop/NetworkManager/AccessPoint/ap1"
    try Self.set(fixture.bus, ap1, NetworkManagerMirror.accessPointInterface, "Strength", "byte:40")
    try await fixture.awaitPath("moderate at 40 %") { $0.linkQuality == .moderate }
    try Self.set(fixture.bus, ap1, NetworkManagerMirror.accessPointInterface, "Strength", "byte:20")
    try await fixture.awaitPath("minimal at 20 %") { $0.linkQuality == .minimal }
    // A roam: another access point, read once it is the active one.
    try fixture.bus.python(
      """
      nm = BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager')
      nm.AddAccessPoint('\(Self.device)', 'ap2', 'home', '00:11:22:33:44:66', 2, 5180, 54000, 90, 0,
                        dbus_interface='org.freedesktop.DBus.Mock')
      """)
    try Self.set(
      fixture.bus, Self.device, NetworkManagerMirror.wirelessInterface, "ActiveAccessPoint",
      "objpath:/org/freedesktop/NetworkManager/AccessPoint/ap2")
    try await fixture.awaitPath("good after the roam") { $0.linkQuality == .good }
    // The old access point's signal no longer counts: its change comes before the new one's (one sender's signals
    // keep their order), and no path between says minimal.
    let roamed = fixture.paths.values.count
    try Self.set(fixture.bus, ap1, NetworkManagerMirror.accessPointInterface, "Strength", "byte:5")
    let ap2 = "/org/freedesktop/NetworkManager/AccessPoint/ap2"
    try Self.set(fixture.bus, ap2, NetworkManagerMirror.accessPointInterface, "Strength", "byte:45")
    try await fixture.awaitPath("moderate at 45 %") { $0.linkQuality == .moderate }
    #expect(!fixture.paths.values.dropFirst(roamed).contains { $0.linkQuality == .minimal })
    // No access point: the kernel's rating, which has no speed for a link of another namespace.
    try Self.set(
      fixture.bus, Self.device, NetworkManagerMirror.wirelessInterface, "ActiveAccessPoint", "objpath:/")
    try await fixture.awaitPath("unknown once disassociated") { $0.linkQuality == .unknown }
    #expect(fixture.paths.values.allSatisfy { $0.isConnected && !$0.isUltraConstrained })
  }

  @Test func aStrengthOfAnotherTypeLeavesTheQualityUnknownAndSaysSo() async throws {
    let fixture = try await Fixture("nmwifibad", metered: nil) {
      try await $0.startHangingNetworkManager(devices: 2, metered: 2, wifi: 80, wifiGarbage: true, hang: "none")
    }
    defer { fixture.stop() }
    try fixture.monitor.start()
    let first = try #require(fixture.monitor.currentPath)
    #expect(first.linkQuality == .unknown)
    let diagnostic = try #require(fixture.diagnostic())
    #expect(diagnostic.isActive, "a device's garbage does not stop the integration")
    #expect(
      diagnostic.note?.contains(
        "NetworkManager's Strength of access point /org/freedesktop/NetworkManager/AccessPoint/0 has an unexpected "
          + "type (`s`, not `y`): its link quality is unknown") == true, "\(diagnostic)")
  }

  @Test func anAccessPointThatNeverAnswersHoldsTheStartForTheBudgetOnly() async throws {
    let fixture = try await Fixture("nmwifihang", metered: nil) {
      try await $0.startHangingNetworkManager(devices: 1, metered: 2, wifi: 80, hang: "accesspoints")
    }
    defer { fixture.stop() }
    #expect(try fixture.timedStart() < NetworkManagerIntegrationTests.startUpLimit)
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    #expect(fixture.diagnostic()?.unavailableReason?.contains("did not answer") == true)
    // The access point answers now: late, whatever the start took.
    try fixture.bus.send("/org/freedesktop/NetworkManager", "org.netstatus.Test.AnswerHeld", [])
    // Its answer, when it comes, is a change like any other.
    try await fixture.awaitPath("good once the access point answered") { $0.linkQuality == .good }
    #expect(fixture.diagnostic()?.isActive == true)
  }
}
