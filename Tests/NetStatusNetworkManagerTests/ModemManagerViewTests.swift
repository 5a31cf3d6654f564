import Testing

@testable import NetStatusNetworkManager

/// ModemManager's view applied to a path, and the integration's status and diagnostics.
@Suite("ModemManager's view")
struct ModemManagerViewTests {
  static let view = ModemManagerView(modems: [
    .init(path: "/m/0", netPorts: ["wwan0"], signalQuality: 60),
    .init(path: "/m/1", netPorts: ["wwan1"], signalQuality: nil),
  ])

  static func path(_ interfaces: [NetworkInterface], status: NetworkPath.Status = .satisfied) -> NetworkPath {
    NetworkPath(status: status, availableInterfaces: interfaces, isExpensive: true, supportsIPv4: true)
  }

  static let wwan0 = NetworkInterface(name: "wwan0", index: 3, type: .cellular)
  static let wwan1 = NetworkInterface(name: "wwan1", index: 4, type: .cellular)
  static let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
  static let tun0 = NetworkInterface(name: "tun0", index: 5, type: .other)

  @Test func aModemsSignalRatesThePathOverItsNetPortOnly() {
    #if os(Linux)
      #expect(Self.view.apply(to: Self.path([Self.wwan0])).linkQuality == .good)
    #endif
    #expect(Self.view.apply(to: Self.path([Self.wwan1])).linkQuality == .unknown, "no reading")
    var wired = Self.path([Self.eth0, Self.wwan0])
    wired.linkQuality = .moderate
    #expect(Self.view.apply(to: wired) == wired, "the modem is not the interface in use")
    let unsatisfied = Self.path([Self.wwan0], status: .unsatisfied)
    #expect(Self.view.apply(to: unsatisfied) == unsatisfied)
  }

  @Test func aVPNOverCellularTakesTheQualityOfTheModemItRidesOn() {
    var path = Self.path([Self.tun0, Self.eth0, Self.wwan0])
    path.vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: .cellular)
    #if os(Linux)
      #expect(Self.view.apply(to: path).linkQuality == .good)
    #endif
    path.vpn = NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: .wiredEthernet)
    #expect(Self.view.apply(to: path) == path, "over Ethernet: the modem is not its link")
  }

  @Test func theStatusSaysWhyAndWhatItProvides() {
    #expect(ModemManagerStatus.running(Self.view).diagnostic.isActive)
    #expect(ModemManagerStatus.running(Self.view).diagnostic.provides == "cellular signal")
    #expect(
      ModemManagerStatus.running(ModemManagerView(modems: [], problems: ["a", "b"])).diagnostic.note == "a; b")
    #expect(
      ModemManagerStatus.absent.diagnostic.unavailableReason
        == "ModemManager is not running (not on the system bus)")
    #expect(ModemManagerStatus.stopped.diagnostic.unavailableReason?.contains("not started") == true)
    #expect(ModemManagerStatus.unavailable("x").diagnostic.unavailableReason == "x")
    #expect(
      ModemManagerStatus.noAnswer(within: .milliseconds(750), busAnswered: true)
        == .unavailable(
          "ModemManager did not answer within 750 ms (listing its modems); its answer is applied when it comes"))
    #expect(
      ModemManagerStatus.noAnswer(within: .seconds(2), busAnswered: false)
        == .unavailable(
          "ModemManager did not answer within 2000 ms (the system bus did not answer); its answer is applied when "
            + "it comes"))
    #expect(ModemManagerStatus.sharing(.unavailable("lost")) == .unavailable("lost"))
    #expect(ModemManagerStatus.sharing(.stopped) == .stopped)
    #expect(ModemManagerStatus.sharing(.absent) == nil, "NetworkManager's own")
    #expect(
      ModemManagerStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.NameHasNoOwner", description: "")
        == .absent)
    #expect(ModemManagerStatus.running(Self.view).view == Self.view)
    #expect(ModemManagerStatus.absent.view == nil)
    #expect(
      ModemManagerStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.AccessDenied", description: "no")
        == .unavailable(
          "the system bus's policy does not let this process call ModemManager "
            + "(org.freedesktop.DBus.Error.AccessDenied: no)"))
    #expect(
      ModemManagerStatus.afterFailedListing(errorName: "org.freedesktop.DBus.Error.NoReply", description: "late")
        == .unavailable("ModemManager did not answer: org.freedesktop.DBus.Error.NoReply (late)"))
  }
}
