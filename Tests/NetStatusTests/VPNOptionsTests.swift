import Testing

@testable import NetStatusCLI
@testable import NetStatusCore

/// The VPN in the CLI: `wait --vpn`, `show`'s table row, the `watch` line, and the metrics file's gauge.
@Suite("netstatus VPN output and wait --vpn")
struct VPNOptionsTests {
  static let tun0 = NetworkInterface(name: "tun0", index: 5, type: .other)
  static let throughTunnel = NetworkPath(
    status: .satisfied, availableInterfaces: [tun0, NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
    supportsIPv4: true, supportsDNS: true, gateways: ["192.0.2.1"],
    vpn: NetworkPath.VPN(interface: tun0, underlyingInterfaceType: .wiredEthernet))

  @Test func waitVPNNeedsAPathThroughAVPN() throws {
    let condition = try CommandLineOptions.parse(["wait", "--vpn", "--ipv4"]).waitCondition
    #expect(condition.requireVPN)
    #expect(condition.needsPath)
    #expect(condition.isMet(by: Self.throughTunnel))
    #expect(!condition.isMet(by: .connected(via: .wiredEthernet)))
    var down = Self.throughTunnel
    down.status = .unsatisfied
    #expect(!condition.isMet(by: down))
    #expect(condition.description == "a satisfied path through a VPN with IPv4")
    #expect(
      try CommandLineOptions.parse(["wait", "--vpn"]).waitCondition.description
        == "a satisfied path through a VPN for every family")
    #expect(try !CommandLineOptions.parse(["wait"]).waitCondition.requireVPN)
    #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["watch", "--vpn"]) }
  }

  @Test func showAndWatchSayTheVPN() {
    let table = PathFormatter(style: .plain).table(Self.throughTunnel)
    #expect(table.contains("\nVPN          tun0 over wired Ethernet\n"), "\(table)")
    let line = PathFormatter(style: .plain).line(Self.throughTunnel, time: "12:00:00.000")
    #expect(line.contains("IPv4 DNS  VPN tun0 over wired Ethernet  via 192.0.2.1"), "\(line)")
    #expect(!PathFormatter(style: .plain).line(.connected(via: .wifi), time: "12:00:00.000").contains("VPN"))
    #expect(
      PathFormatter.json(Self.throughTunnel).hasSuffix(
        #""vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet","bypassedByIPv4":false,"bypassedByIPv6":false}}"#
      ))
  }

  /// A dual-stack path through tun0 for the families in `tunneled`: the others go around it, through eth0.
  static func dualStack(tunneled ipv4: Bool, _ ipv6: Bool) -> NetworkPath {
    var path = throughTunnel
    path.supportsIPv6 = true
    path.vpn?.isBypassedByIPv4 = !ipv4
    path.vpn?.isBypassedByIPv6 = !ipv6
    return path
  }

  @Test(
    "wait --vpn passes only when every family the path carries goes through the tunnel; -4 and -6 judge one",
    arguments: [
      // (IPv4 tunneled, IPv6 tunneled, options, met)
      (true, true, [], true), (true, false, [], false), (false, true, [], false),
      (true, false, ["-4"], true), (true, false, ["-6"], false), (true, false, ["-4", "-6"], false),
      (false, true, ["-6"], true), (false, true, ["-4"], false), (true, true, ["-4", "-6"], true),
    ] as [(Bool, Bool, [String], Bool)])
  func perFamily(_ ipv4: Bool, _ ipv6: Bool, _ options: [String], _ met: Bool) throws {
    let condition = try CommandLineOptions.parse(["wait", "--vpn"] + options).waitCondition
    #expect(condition.isMet(by: Self.dualStack(tunneled: ipv4, ipv6)) == met)
  }

  @Test func aBypassingFamilyIsShown() {
    let leaking = Self.dualStack(tunneled: true, false)
    let table = PathFormatter(style: .plain).table(leaking)
    #expect(table.contains("\nVPN          tun0 over wired Ethernet, IPv6 bypasses it\n"), "\(table)")
    let line = PathFormatter(style: .plain).line(leaking, time: "12:00:00.000")
    #expect(line.contains("IPv4 IPv6 DNS  VPN tun0 over wired Ethernet, IPv6 bypasses it  via"), "\(line)")
    #expect(PathFormatter.json(leaking).contains(#""bypassedByIPv4":false,"bypassedByIPv6":true}"#))
  }

  @Test func metricsFileHasTheVPNGauge() {
    func samples(_ path: NetworkPath) -> [String] {
      PrometheusTextfile.render(
        .init(path: path, changes: 0, lastChange: 0), netns: "ns1", stamp: .init(name: "n.prom", started: 0, written: 0)
      ).split(separator: "\n").filter { $0.hasPrefix("netstatus_path_vpn") }.map(String.init)
    }
    let notBypassed = [
      #"netstatus_path_vpn_bypassed{netns="ns1",family="ipv4"} 0"#,
      #"netstatus_path_vpn_bypassed{netns="ns1",family="ipv6"} 0"#,
    ]
    #expect(
      samples(Self.throughTunnel) == [
        #"netstatus_path_vpn{netns="ns1",interface="tun0",underlying_type="wiredEthernet"} 1"#
      ] + notBypassed)
    var unknown = Self.throughTunnel
    unknown.vpn?.underlyingInterfaceType = nil
    #expect(
      samples(unknown) == [#"netstatus_path_vpn{netns="ns1",interface="tun0",underlying_type=""} 1"#] + notBypassed)
    var down = Self.dualStack(tunneled: true, false)
    down.status = .unsatisfied
    #expect(samples(down) == [#"netstatus_path_vpn{netns="ns1"} 0"#] + notBypassed)
    #expect(samples(.connected(via: .wifi)) == [#"netstatus_path_vpn{netns="ns1"} 0"#] + notBypassed)
    #expect(
      samples(Self.dualStack(tunneled: true, false)).suffix(2) == [
        #"netstatus_path_vpn_bypassed{netns="ns1",family="ipv4"} 0"#,
        #"netstatus_path_vpn_bypassed{netns="ns1",family="ipv6"} 1"#,
      ])
  }
}
