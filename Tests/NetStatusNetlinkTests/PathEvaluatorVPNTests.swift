import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// The `vpn` rule of the evaluator (`Sources/NetStatusNetlink/PathEvaluator+VPN.swift`) on decoded captures: each
/// tunnel is an `RTM_NEWLINK` message as the kernel sends it (its `IFLA_INFO_KIND` and ARPHRD), decoded into the
/// state. WireGuard, GRE, IP-in-IP and xfrm devices cannot be made on every test machine; these cover them.
@Suite("path evaluator: VPN")
struct PathEvaluatorVPNTests {
  typealias B = NetlinkMessageBuilder
  typealias T = PathEvaluatorTests

  /// A tunnel as the kernel describes it: a name, its kind (nil when the kernel sends none) and hardware type.
  struct Tunnel: CustomTestStringConvertible {
    var name: String
    var kind: String?
    var hardwareType: UInt16
    var testDescription: String { "\(name) (\(kind ?? "no kind"), ARPHRD \(hardwareType))" }
  }

  static let tunnels = [
    Tunnel(name: "tun0", kind: "tun", hardwareType: RTNL.ARPHRD_NONE),  // OpenVPN, wireguard-go, Tailscale
    Tunnel(name: "tap0", kind: "tun", hardwareType: RTNL.ARPHRD_ETHER),  // OpenVPN in TAP mode
    Tunnel(name: "wg0", kind: "wireguard", hardwareType: RTNL.ARPHRD_NONE),
    Tunnel(name: "ipip0", kind: "ipip", hardwareType: RTNL.ARPHRD_TUNNEL),
    Tunnel(name: "gre1", kind: "gre", hardwareType: RTNL.ARPHRD_IPGRE),
    Tunnel(name: "sit1", kind: "sit", hardwareType: RTNL.ARPHRD_SIT),
    Tunnel(name: "ip6tnl1", kind: "ip6tnl", hardwareType: RTNL.ARPHRD_TUNNEL6),
    Tunnel(name: "ipsec0", kind: "xfrm", hardwareType: RTNL.ARPHRD_NONE),
    Tunnel(name: "vti1", kind: "vti", hardwareType: RTNL.ARPHRD_TUNNEL),
    Tunnel(name: "ppp0", kind: "ppp", hardwareType: RTNL.ARPHRD_PPP),
    Tunnel(name: "ppp1", kind: nil, hardwareType: RTNL.ARPHRD_PPP),  // a kernel that sends no kind for PPP
    Tunnel(name: "gre2", kind: nil, hardwareType: RTNL.ARPHRD_IPGRE),
  ]

  /// eth0 (2, the test's Ethernet) and the tunnel (5, 10.8.0.2/24), both up with carrier.
  func state(with tunnel: Tunnel) throws -> KernelState {
    var state = try PathEvaluatorTests().ethernet()
    try state.feed(
      B.link(index: 5, name: tunnel.name, hardwareType: tunnel.hardwareType, kind: tunnel.kind),
      B.address(index: 5, address: "10.8.0.2", prefixLength: 24))
    return state
  }

  /// The kernel routes through the tunnel (5); with `underlying`, eth0's own lookups give its default route too.
  func answers(underlying: Bool) -> RouteLookupAnswers {
    var answers: RouteLookupAnswers = [T.v4: T.route(oif: 5, source: "10.8.0.2")]
    if underlying {
      answers[T.fib(2)] = T.route(oif: 2, gateway: "192.0.2.1", metric: 100)
      answers[T.plain(2)] = T.route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10")
    }
    return answers
  }

  func evaluate(_ state: KernelState, _ answers: RouteLookupAnswers) -> NetworkPath {
    PathEvaluator.evaluate(state: state, answers: answers, supportsDNS: true, classify: T.classify)
  }

  @Test("a path through a tunnel has a VPN over the first interface after it", arguments: tunnels)
  func throughTunnel(_ tunnel: Tunnel) throws {
    let state = try state(with: tunnel)
    #expect(state.links[5]?.isTunnel == true)
    let path = evaluate(state, answers(underlying: true))
    #expect(path.availableInterfaces.map(\.name) == [tunnel.name, "eth0"])
    #expect(path.interfaceType == .other, "a tunnel keeps NWPath's type")
    #expect(
      path.vpn
        == NetworkPath.VPN(
          interface: NetworkInterface(name: tunnel.name, index: 5, type: .other),
          underlyingInterfaceType: .wiredEthernet))
  }

  @Test("a tunnel that is the path's only interface has no underlying type")
  func onlyTheTunnel() throws {
    let path = evaluate(try state(with: Self.tunnels[0]), answers(underlying: false))
    #expect(path.availableInterfaces.map(\.name) == ["tun0"])
    #expect(path.vpn?.interface.name == "tun0")
    #expect(path.vpn != nil && path.vpn?.underlyingInterfaceType == nil)
  }

  @Test("a tunnel inside a tunnel rides on the first interface that is not one")
  func nestedTunnels() throws {
    var state = try state(with: Self.tunnels[2])
    try state.feed(
      B.link(index: 6, name: "gre1", hardwareType: RTNL.ARPHRD_IPGRE, kind: "gre"),
      B.address(index: 6, address: "10.9.0.2", prefixLength: 24))
    var answers = answers(underlying: true)
    answers[T.fib(6)] = T.route(oif: 6, metric: 50)
    answers[T.plain(6)] = T.route(oif: 6, source: "10.9.0.2")
    let path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["wg0", "gre1", "eth0"])
    #expect(path.vpn?.interface.name == "wg0")
    #expect(path.vpn?.underlyingInterfaceType == .wiredEthernet)
  }

  @Test("no VPN when the interface in use is not a tunnel, though a tunnel is listed after it")
  func tunnelNotInUse() throws {
    let state = try state(with: Self.tunnels[0])
    var answers: RouteLookupAnswers = [T.v4: T.route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10")]
    answers[T.fib(5)] = T.route(oif: 5, metric: 50)
    answers[T.plain(5)] = T.route(oif: 5, source: "10.8.0.2")
    let path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["eth0", "tun0"])
    #expect(path.vpn == nil)
  }

  // MARK: Each family on its own

  /// Which families the tunnel carries in a dual-stack state: eth0 has both families' default routes (metric 100),
  /// the tunnel (5) the families of `tunnel`; the kernel's primary lookups go through the tunnel for those.
  struct Families: CustomTestStringConvertible, Sendable {
    var ipv4: Bool
    var ipv6: Bool
    var testDescription: String {
      "tunnel carries " + ([ipv4 ? "IPv4" : nil, ipv6 ? "IPv6" : nil].compactMap { $0 }.joined(separator: " and "))
    }
  }

  /// eth0 and tun0 with addresses of both families, the answers for `families` through the tunnel.
  func dualStack(_ families: Families) throws -> (KernelState, RouteLookupAnswers) {
    var state = try state(with: Self.tunnels[0])
    try state.feed(
      B.address(index: 2, address: "2001:db8::10", prefixLength: 64),
      B.address(index: 5, address: "2001:db8:8::2", prefixLength: 64))
    var answers: RouteLookupAnswers = [:]
    for ipv4 in [true, false] {
      let ethernetSource = ipv4 ? "192.0.2.10" : "2001:db8::10"
      let gateway = ipv4 ? "192.0.2.1" : "fe80::1"
      if ipv4 ? families.ipv4 : families.ipv6 {
        answers[.primary(ipv4: ipv4)] = T.route(oif: 5, source: ipv4 ? "10.8.0.2" : "2001:db8:8::2", ipv4: ipv4)
        answers[T.fib(2, ipv4: ipv4)] = T.route(oif: 2, gateway: gateway, metric: 100, ipv4: ipv4)
        answers[T.plain(2, ipv4: ipv4)] = T.route(oif: 2, gateway: gateway, source: ethernetSource, ipv4: ipv4)
      } else {
        answers[.primary(ipv4: ipv4)] = T.route(oif: 2, gateway: gateway, source: ethernetSource, ipv4: ipv4)
      }
    }
    return (state, answers)
  }

  @Test(
    "each family is judged by its own lookup: one bypassing the tunnel is said",
    arguments: [Families(ipv4: true, ipv6: false), Families(ipv4: false, ipv6: true), Families(ipv4: true, ipv6: true)])
  func perFamily(_ families: Families) throws {
    let (state, answers) = try dualStack(families)
    let path = evaluate(state, answers)
    #expect(path.supportsIPv4 && path.supportsIPv6)
    let vpn = try #require(path.vpn, "a family goes through tun0")
    #expect(vpn.interface == NetworkInterface(name: "tun0", index: 5, type: .other))
    #expect(vpn.underlyingInterfaceType == .wiredEthernet)
    #expect(vpn.isBypassedByIPv4 == !families.ipv4)
    #expect(vpn.isBypassedByIPv6 == !families.ipv6)
    #expect(vpn.isBypassed == !(families.ipv4 && families.ipv6))
    // The path's first interface is IPv4's: the tunnel's only when IPv4 goes through it.
    #expect(path.availableInterfaces.first?.name == (families.ipv4 ? "tun0" : "eth0"))
  }

  @Test("a family the path does not carry bypasses nothing")
  func missingFamily() throws {
    var (state, answers) = try dualStack(Families(ipv4: true, ipv6: false))
    answers[T.v6] = .failed(errno: LinuxErrno.ENETUNREACH)
    let vpn = try #require(evaluate(state, answers).vpn)
    #expect(!vpn.isBypassed)
    // IPv6 through the tunnel, IPv4 with no path at all: still nothing goes around it.
    (state, answers) = try dualStack(Families(ipv4: false, ipv6: true))
    answers[T.v4] = .failed(errno: LinuxErrno.ENETUNREACH)
    let path = evaluate(state, answers)
    #expect(!path.supportsIPv4 && path.vpn?.interface.name == "tun0" && path.vpn?.isBypassed == false)
  }

  @Test("two tunnels, one per family: nothing bypasses, the VPN is IPv4's")
  func tunnelPerFamily() throws {
    var (state, answers) = try dualStack(Families(ipv4: true, ipv6: false))
    try state.feed(
      B.link(index: 6, name: "wg0", hardwareType: RTNL.ARPHRD_NONE, kind: "wireguard"),
      B.address(index: 6, address: "2001:db8:9::2", prefixLength: 64))
    answers[T.v6] = T.route(oif: 6, source: "2001:db8:9::2", ipv4: false)
    answers[T.fib(2, ipv4: false)] = T.route(oif: 2, gateway: "fe80::1", metric: 100, ipv4: false)
    answers[T.plain(2, ipv4: false)] = T.route(oif: 2, gateway: "fe80::1", source: "2001:db8::10", ipv4: false)
    let path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["tun0", "wg0", "eth0"])
    #expect(path.vpn?.interface.name == "tun0")
    #expect(path.vpn?.isBypassed == false)
    #expect(path.vpn?.underlyingInterfaceType == .wiredEthernet)
  }

  @Test("links that are not tunnels: Ethernet, veth, bridge, vlan, loopback")
  func notTunnels() throws {
    for (kind, type) in [
      (nil, RTNL.ARPHRD_ETHER), ("veth", RTNL.ARPHRD_ETHER), ("bridge", RTNL.ARPHRD_ETHER),
      ("vlan", RTNL.ARPHRD_ETHER), (nil, RTNL.ARPHRD_LOOPBACK), (nil, RTNL.ARPHRD_RAWIP),
    ] as [(String?, UInt16)] {
      var state = KernelState()
      try state.feed(B.link(index: 7, name: "x0", hardwareType: type, kind: kind))
      #expect(state.links[7]?.isTunnel == false, "\(kind ?? "no kind"), ARPHRD \(type)")
    }
  }
}
