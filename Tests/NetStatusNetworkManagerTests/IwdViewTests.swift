import Testing

@testable import NetStatusNetworkManager

/// iwd's view applied to a path, after NetworkManager's, and the integration's status and diagnostics.
@Suite("iwd's view")
struct IwdViewTests {
  static let view = IwdView(stations: [
    .init(path: "/s/0", interface: "wlan0", level: 2), .init(path: "/s/1", interface: "wlan1", level: nil),
  ])
  static let wlan0 = NetworkInterface(name: "wlan0", index: 3, type: .wifi)
  static let wlan1 = NetworkInterface(name: "wlan1", index: 4, type: .wifi)
  static let tun0 = NetworkInterface(name: "tun0", index: 5, type: .other)

  static func path(_ interfaces: [NetworkInterface], status: NetworkPath.Status = .satisfied) -> NetworkPath {
    NetworkPath(status: status, availableInterfaces: interfaces, supportsIPv4: true)
  }

  @Test func aStationsLevelRatesItsPathUnlessNetworkManagerRatesTheDevice() {
    #if os(Linux)
      #expect(Self.view.apply(to: Self.path([Self.wlan0]), after: nil).linkQuality == .minimal)
      var vpn = Self.path([Self.tun0, Self.wlan0])
      vpn.vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: .wifi)
      #expect(Self.view.apply(to: vpn, after: nil).linkQuality == .minimal, "the Wi-Fi a VPN rides on")
    #endif
    var rated = Self.path([Self.wlan1])
    rated.linkQuality = .good
    #expect(Self.view.apply(to: rated, after: nil) == rated, "no level yet: as it was")
    let unsatisfied = Self.path([Self.wlan0], status: .unsatisfied)
    #expect(Self.view.apply(to: unsatisfied, after: nil) == unsatisfied)
    // NetworkManager rates wlan0 (its access point's strength): its rating stands.
    let networkManager = NetworkManagerView(
      connectivity: .full,
      devices: [.init(interface: "wlan0", ipInterface: "wlan0", metered: .no, signalStrength: 90)])
    var managed = Self.path([Self.wlan0])
    managed.linkQuality = .good
    #expect(Self.view.apply(to: managed, after: networkManager) == managed)
  }

  @Test func aDeviceNetworkManagerListsWithoutAStrengthIsRatedByIwd() {
    // Listed, but unmanaged (or without an access point): NetworkManager has no rating, so iwd's level gives one.
    let networkManager = NetworkManagerView(
      connectivity: .full, devices: [.init(interface: "wlan0", ipInterface: "", metered: .unknown)])
    var unrated = Self.path([Self.wlan0])
    unrated.linkQuality = .good
    #if os(Linux)
      #expect(Self.view.apply(to: unrated, after: networkManager).linkQuality == .minimal)
    #else
      #expect(Self.view.apply(to: unrated, after: networkManager) == unrated)
    #endif
  }

  @Test func theStatusSaysWhyAndWhatItProvides() {
    #expect(IwdStatus.running(Self.view).diagnostic.isActive)
    #expect(IwdStatus.running(Self.view).diagnostic.provides == "Wi-Fi signal")
    #expect(IwdStatus.running(IwdView(stations: [], problems: ["a", "b"])).diagnostic.note == "a; b")
    #expect(IwdStatus.absent.diagnostic.unavailableReason == "iwd is not running (not on the system bus)")
    #expect(IwdStatus.stopped.diagnostic.unavailableReason?.contains("not started") == true)
    #expect(IwdStatus.unavailable("x").diagnostic.unavailableReason == "x")
    #expect(
      IwdStatus.noAnswer(within: .milliseconds(750), busAnswered: false)
        == .unavailable(
          "iwd did not answer within 750 ms (the system bus did not answer); its answer is applied when it comes"))
    #expect(IwdStatus.sharing(.unavailable("lost")) == .unavailable("lost"))
    #expect(IwdStatus.sharing(.stopped) == .stopped)
    #expect(IwdStatus.sharing(.absent) == nil)
    #expect(
      IwdStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.NameHasNoOwner", description: "") == .absent)
    #expect(
      IwdStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.NoReply", description: "timed out")
        == .unavailable("iwd did not answer: org.freedesktop.DBus.Error.NoReply (timed out)"))
    #expect(
      IwdStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.AccessDenied", description: "no")
        == .unavailable(
          "the system bus's policy does not let this process call iwd (org.freedesktop.DBus.Error.AccessDenied: no)"))
    #expect(IwdStatus.absent.view == nil)
  }
}
