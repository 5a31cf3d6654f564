#if os(Linux)
  import Foundation
  import Testing

  @testable import NetStatusLinuxSource
  @testable import NetStatusNetlink

  /// A path's link quality on Linux: the sysfs `speed` read of the link it rides on, cached until that link changes,
  /// and only for wired Ethernet (LinkQualityRules.swift). Against a fake sysfs tree; the read against a real veth
  /// is in NetstatusEndToEndTests.
  @Suite("link quality on Linux")
  struct LinkQualityRatingTests {
    typealias FakeSysfs = InterfaceClassifierTests.FakeSysfs

    let eth0 = NetlinkLink(
      index: 2, name: "eth0", hardwareType: RTNL.ARPHRD_ETHER, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
      operationalState: RTNL.IF_OPER_UP, kind: nil, hardwareAddress: [2, 0, 0, 0, 0, 1])
    let wg0 = NetlinkLink(
      index: 7, name: "wg0", hardwareType: RTNL.ARPHRD_NONE, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
      operationalState: RTNL.IF_OPER_UNKNOWN, kind: "wireguard", hardwareAddress: nil)

    func speed(_ text: String, in sysfs: FakeSysfs, of name: String = "eth0") throws {
      try text.write(toFile: sysfs.root + "/class/net/\(name)/speed", atomically: true, encoding: .utf8)
    }

    func path(via interfaces: [NetworkInterface], vpn: Bool = false) -> NetworkPath {
      NetworkPath(
        status: .satisfied, availableInterfaces: interfaces, supportsIPv4: true,
        vpn: vpn ? NetworkPath.VPN(interface: interfaces[0], underlyingInterfaceType: interfaces[1].type) : nil)
    }

    @Test("sysfs speed: the negotiated Mb/s of this very link, nothing for -1, none, or another namespace's entry")
    func negotiatedSpeed() throws {
      let sysfs = try FakeSysfs()
      try sysfs.add("eth0", index: 2, links: ["device": "../../../0000:03:00.0"])
      try sysfs.add("eth1", index: 99)
      let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
      #expect(classifier.negotiatedSpeed(of: eth0) == nil, "no speed file")
      try speed("1000\n", in: sysfs)
      #expect(classifier.negotiatedSpeed(of: eth0) == 1000)
      try speed("-1\n", in: sysfs)
      #expect(classifier.negotiatedSpeed(of: eth0) == nil, "SPEED_UNKNOWN")
      try speed("100\n", in: sysfs, of: "eth1")
      var elsewhere = eth0
      elsewhere.name = "eth1"  // sysfs's eth1 has another index: another namespace's interface
      #expect(classifier.negotiatedSpeed(of: elsewhere) == nil)
    }

    @Test("a wired path rates the link it rides on, also under a VPN; other types stay unknown")
    func ratesTheLinkRiddenOn() throws {
      let sysfs = try FakeSysfs()
      try sysfs.add("eth0", index: 2, links: ["device": "../../../0000:03:00.0"])
      try speed("2500\n", in: sysfs)
      var state = KernelState()
      state.links = [2: eth0, 7: wg0]
      var caches = EvaluationCaches(classifier: InterfaceClassifier(sysfsRoot: sysfs.root))
      let ethernet = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)
      let tunnel = NetworkInterface(name: "wg0", index: 7, type: .other)

      var direct = path(via: [ethernet])
      NetlinkSessionCore.rateLink(of: &direct, state: state, &caches)
      #expect(direct.linkQuality == .good)

      var throughVPN = path(via: [tunnel, ethernet], vpn: true)
      NetlinkSessionCore.rateLink(of: &throughVPN, state: state, &caches)
      #expect(throughVPN.linkQuality == .good, "the quality of the link the tunnel rides on")

      var tunnelAlone = path(via: [tunnel])
      NetlinkSessionCore.rateLink(of: &tunnelAlone, state: state, &caches)
      #expect(tunnelAlone.linkQuality == .unknown, "a tunnel is not rated")

      var wifi = path(via: [NetworkInterface(name: "eth0", index: 2, type: .wifi)])
      NetlinkSessionCore.rateLink(of: &wifi, state: state, &caches)
      #expect(wifi.linkQuality == .unknown, "a Wi-Fi link nl80211 has not rated is not rated by its speed")
    }

    @Test("a Wi-Fi path takes nl80211's rating of the link it rides on, also under a VPN")
    func wifiTakesTheSignalsRating() throws {
      let wlan0 = NetlinkLink(
        index: 3, name: "wlan0", hardwareType: RTNL.ARPHRD_ETHER, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
        operationalState: RTNL.IF_OPER_UP, kind: nil, hardwareAddress: [2, 0, 0, 0, 0, 3])
      var state = KernelState()
      state.links = [2: eth0, 3: wlan0, 7: wg0]
      var caches = EvaluationCaches(classifier: InterfaceClassifier(sysfsRoot: "/nonexistent"))
      caches.wifiQualities = [3: .moderate]
      let wifi = NetworkInterface(name: "wlan0", index: 3, type: .wifi)
      let tunnel = NetworkInterface(name: "wg0", index: 7, type: .other)

      var direct = path(via: [wifi])
      NetlinkSessionCore.rateLink(of: &direct, state: state, &caches)
      #expect(direct.linkQuality == .moderate)
      var throughVPN = path(via: [tunnel, wifi], vpn: true)
      NetlinkSessionCore.rateLink(of: &throughVPN, state: state, &caches)
      #expect(throughVPN.linkQuality == .moderate, "the rating of the Wi-Fi link the tunnel rides on")
      caches.wifiQualities = [:]
      var unrated = path(via: [wifi])
      NetlinkSessionCore.rateLink(of: &unrated, state: state, &caches)
      #expect(unrated.linkQuality == .unknown, "no reading: unknown")
    }

    @Test("the speed is read again when the link changes, not on every evaluation")
    func readAgainWhenTheLinkChanges() throws {
      let sysfs = try FakeSysfs()
      try sysfs.add("eth0", index: 2, links: ["device": "../../../0000:03:00.0"])
      try speed("1000\n", in: sysfs)
      var caches = EvaluationCaches(classifier: InterfaceClassifier(sysfsRoot: sysfs.root))
      #expect(caches.wiredQuality(of: eth0) == .good)
      try speed("100\n", in: sysfs)
      #expect(caches.wiredQuality(of: eth0) == .good, "the same link: no read")
      var renegotiated = eth0
      renegotiated.flags &= ~RTNL.IFF_LOWER_UP  // carrier lost, then back: two link changes
      #expect(caches.wiredQuality(of: renegotiated) == .moderate)
      try speed("10\n", in: sysfs)
      #expect(caches.wiredQuality(of: eth0) == .minimal)
    }
  }
#endif
