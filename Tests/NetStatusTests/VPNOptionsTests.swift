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
        #""vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet"}}"#))
  }

  @Test func metricsFileHasTheVPNGauge() {
    func samples(_ path: NetworkPath) -> [Substring] {
      PrometheusTextfile.render(
        .init(path: path, changes: 0, lastChange: 0), netns: "ns1", stamp: .init(name: "n.prom", started: 0, written: 0)
      ).split(separator: "\n").filter { $0.hasPrefix("netstatus_path_vpn") }
    }
    #expect(
      samples(Self.throughTunnel) == [
        #"netstatus_path_vpn{netns="ns1",interface="tun0",underlying_type="wiredEthernet"} 1"#
      ])
    var unknown = Self.throughTunnel
    unknown.vpn?.underlyingInterfaceType = nil
    #expect(samples(unknown) == [#"netstatus_path_vpn{netns="ns1",interface="tun0",underlying_type=""} 1"#])
    var down = Self.throughTunnel
    down.status = .unsatisfied
    #expect(samples(down) == [#"netstatus_path_vpn{netns="ns1"} 0"#])
    #expect(samples(.connected(via: .wifi)) == [#"netstatus_path_vpn{netns="ns1"} 0"#])
  }
}
