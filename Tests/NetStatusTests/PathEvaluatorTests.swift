import Testing

@testable import NetStatus

@Suite("path evaluator")
struct PathEvaluatorTests {
  typealias B = NetlinkMessageBuilder

  /// Types by name, standing in for the classifier.
  static let types: [String: InterfaceType] = [
    "eth0": .wiredEthernet, "eth1": .wiredEthernet, "wlan0": .wifi, "wwan0": .cellular, "wg0": .other, "lo": .loopback,
  ]

  func evaluate(_ state: KernelState, dns: Bool = true, filter: InterfaceFilter = .none) -> NetworkPath {
    PathEvaluator.evaluate(state: state, supportsDNS: dns, filter: filter) { Self.types[$0.name] ?? .other }
  }

  /// eth0 (2) up with 192.0.2.10/24 and a default via 192.0.2.1.
  func ethernet(metric: UInt32 = 100) throws -> KernelState {
    var state = KernelState()
    try state.feed(
      B.link(
        index: 1, name: "lo", hardwareType: RTNL.ARPHRD_LOOPBACK,
        flags: RTNL.IFF_UP | RTNL.IFF_LOOPBACK | RTNL.IFF_LOWER_UP, operstate: RTNL.IF_OPER_UNKNOWN),
      B.address(index: 1, address: "127.0.0.1", prefixLength: 8, scope: RTNL.RT_SCOPE_HOST),
      B.link(index: 2, name: "eth0"),
      B.address(index: 2, address: "192.0.2.10", prefixLength: 24),
      B.route(priority: metric, oif: 2, gateway: "192.0.2.1"))
    return state
  }

  @Test("a usable default route gives a satisfied path")
  func satisfied() throws {
    let path = evaluate(try ethernet())
    #expect(
      path
        == NetworkPath(
          status: .satisfied, availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
          supportsIPv4: true, supportsDNS: true, gateways: ["192.0.2.1"]))
  }

  @Test("no default route: unsatisfied, not available; loopback is never listed")
  func noDefault() throws {
    var state = try ethernet()
    try state.feed(B.route(RTNL.RTM_DELROUTE, priority: 100, oif: 2, gateway: "192.0.2.1"))
    let path = evaluate(state, dns: false)
    #expect(path == NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable))
  }

  @Test("a default route via a link that is down does not count")
  func linkDown() throws {
    var state = try ethernet()
    // Admin down arrives as a link message; build the state by hand so the route is still there.
    state.links[2]?.flags = 0
    state.links[2]?.operationalState = RTNL.IF_OPER_DOWN
    #expect(evaluate(state).status == .unsatisfied)
    // Up without carrier does not count either.
    state.links[2]?.flags = RTNL.IFF_UP
    #expect(evaluate(state).status == .unsatisfied)
    // Carrier via operstate UNKNOWN (drivers that do not report it) counts.
    state.links[2]?.operationalState = RTNL.IF_OPER_UNKNOWN
    #expect(evaluate(state).status == .satisfied)
  }

  @Test("a route flagged linkdown does not count")
  func linkdownRoute() throws {
    var state = try ethernet()
    try state.feed(B.route(flags: RTNL.RTNH_F_LINKDOWN, priority: 100, oif: 2, gateway: "192.0.2.1"))
    #expect(evaluate(state).status == .unsatisfied)
    // In a multipath route only the linkdown hop is dropped.
    try state.feed(B.link(index: 3, name: "eth1"), B.address(index: 3, address: "198.51.100.10", prefixLength: 24))
    try state.feed(
      B.route(priority: 50, multipath: [(2, "192.0.2.1", UInt8(RTNL.RTNH_F_LINKDOWN)), (3, "198.51.100.1", 0)]))
    let path = evaluate(state)
    #expect(path.availableInterfaces.map(\.name) == ["eth1"])
    #expect(path.gateways == ["198.51.100.1"])
  }

  @Test("blackhole, unreachable, prohibit and throw defaults do not count")
  func unreachableTypes() throws {
    for type in [RTNL.RTN_BLACKHOLE, RTNL.RTN_UNREACHABLE, RTNL.RTN_PROHIBIT, RTNL.RTN_THROW] {
      var state = try ethernet()
      try state.feed(B.route(RTNL.RTM_DELROUTE, priority: 100, oif: 2, gateway: "192.0.2.1"))
      try state.feed(B.route(routeType: type, priority: 0))
      #expect(evaluate(state).status == .unsatisfied, "type \(type)")
    }
  }

  @Test("two defaults: the lower metric's interface comes first, both are listed, gateways in order")
  func twoMetrics() throws {
    var state = try ethernet(metric: 600)
    try state.feed(
      B.link(index: 3, name: "wlan0"), B.address(index: 3, address: "198.51.100.10", prefixLength: 24),
      B.route(priority: 100, oif: 3, gateway: "198.51.100.1"))
    var path = evaluate(state)
    #expect(path.availableInterfaces.map(\.name) == ["wlan0", "eth0"])
    #expect(path.interfaceType == .wifi)
    #expect(path.gateways == ["198.51.100.1", "192.0.2.1"])
    // Changing the metric flips the preference.
    try state.feed(B.route(RTNL.RTM_DELROUTE, priority: 600, oif: 2, gateway: "192.0.2.1"))
    try state.feed(B.route(priority: 50, oif: 2, gateway: "192.0.2.1"))
    path = evaluate(state)
    #expect(path.availableInterfaces.map(\.name) == ["eth0", "wlan0"])
  }

  @Test("an IPv6 address going from tentative to valid turns IPv6 on")
  func tentativeToValid() throws {
    var state = KernelState()
    try state.feed(
      B.link(index: 2, name: "eth0"),
      B.address(index: 2, address: "fe80::10", prefixLength: 64, scope: RTNL.RT_SCOPE_LINK),
      B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: RTNL.IFA_F_TENTATIVE),
      B.route(family: RTNL.AF_INET6, priority: 1024, oif: 2, gateway: "fe80::1"))
    var path = evaluate(state)
    #expect(path.status == .satisfied)
    #expect(!path.supportsIPv6)  // link-local alone and a tentative address do not count
    #expect(path.gateways == ["fe80::1"])
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: 0))
    path = evaluate(state)
    #expect(path.supportsIPv6)
    #expect(!path.supportsIPv4)
    // dadfailed never counts.
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: RTNL.IFA_F_DADFAILED))
    #expect(!evaluate(state).supportsIPv6)
  }

  @Test("IPv4 only and IPv6 only")
  func singleFamily() throws {
    let v4 = evaluate(try ethernet())
    #expect(v4.supportsIPv4 && !v4.supportsIPv6)

    var state = try ethernet()
    // An IPv6 address without an IPv6 default does not give IPv6.
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64))
    #expect(!evaluate(state).supportsIPv6)

    var v6only = KernelState()
    try v6only.feed(
      B.link(index: 2, name: "eth0"), B.address(index: 2, address: "2001:db8::10", prefixLength: 64),
      B.route(family: RTNL.AF_INET6, priority: 1024, oif: 2, gateway: "2001:db8::1"))
    let v6 = evaluate(v6only)
    #expect(v6.status == .satisfied && v6.supportsIPv6 && !v6.supportsIPv4)
    #expect(v6.gateways == ["2001:db8::1"])
  }

  @Test("a VPN-style default in its own table counts and comes first")
  func vpnTable() throws {
    var state = try ethernet(metric: 0)
    try state.feed(
      B.link(
        index: 9, name: "wg0", hardwareType: RTNL.ARPHRD_NONE, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
        operstate: RTNL.IF_OPER_UNKNOWN, kind: "wireguard"),
      B.address(index: 9, address: "10.8.0.2", prefixLength: 32),
      B.route(table: 51820, priority: 0, oif: 9))
    let path = evaluate(state)
    #expect(path.availableInterfaces.map(\.name) == ["wg0", "eth0"])
    #expect(path.interfaceType == .other)
    #expect(path.gateways == ["192.0.2.1"])  // wg0's default has no gateway
    // Alone (no main default), it still satisfies the path.
    try state.feed(B.route(RTNL.RTM_DELROUTE, priority: 0, oif: 2, gateway: "192.0.2.1"))
    #expect(evaluate(state).availableInterfaces.map(\.name) == ["wg0"])
    // The local table never provides a default path.
    var local = KernelState()
    try local.feed(B.link(index: 2, name: "eth0"), B.route(table: RTNL.RT_TABLE_LOCAL, oif: 2))
    #expect(evaluate(local).status == .unsatisfied)
  }

  @Test("required interface type")
  func required() throws {
    var state = try ethernet(metric: 100)
    try state.feed(
      B.link(index: 4, name: "wwan0", hardwareType: RTNL.ARPHRD_RAWIP),
      B.address(index: 4, address: "100.64.0.2", prefixLength: 30),
      B.route(priority: 700, oif: 4, gateway: "100.64.0.1"))
    let cellular = evaluate(state, filter: InterfaceFilter(requiredInterfaceType: .cellular))
    #expect(cellular.availableInterfaces.map(\.name) == ["wwan0"])
    #expect(cellular.isExpensive)
    #expect(cellular.gateways == ["100.64.0.1"])
    let wifi = evaluate(state, filter: InterfaceFilter(requiredInterfaceType: .wifi))
    #expect(wifi.status == .unsatisfied && wifi.unsatisfiedReason == .notAvailable)
    #expect(wifi.gateways.isEmpty && !wifi.supportsIPv4)
    // Unfiltered, the cheaper Ethernet is preferred and the path is not expensive.
    let any = evaluate(state)
    #expect(any.availableInterfaces.map(\.name) == ["eth0", "wwan0"])
    #expect(!any.isExpensive)
    // Loopback as the required type: satisfied by an up loopback interface.
    let loopback = evaluate(state, filter: InterfaceFilter(requiredInterfaceType: .loopback))
    #expect(loopback.status == .satisfied)
    #expect(loopback.availableInterfaces == [NetworkInterface(name: "lo", index: 1, type: .loopback)])
    #expect(loopback.supportsIPv4)
  }

  @Test("prohibited interface types")
  func prohibited() throws {
    var state = try ethernet(metric: 100)
    try state.feed(
      B.link(index: 4, name: "wwan0", hardwareType: RTNL.ARPHRD_RAWIP),
      B.address(index: 4, address: "100.64.0.2", prefixLength: 30),
      B.route(priority: 50, oif: 4, gateway: "100.64.0.1"))
    #expect(evaluate(state).isExpensive)
    let noCellular = evaluate(state, filter: InterfaceFilter(prohibitedInterfaceTypes: [.cellular]))
    #expect(noCellular.availableInterfaces.map(\.name) == ["eth0"])
    #expect(!noCellular.isExpensive)
    #expect(noCellular.gateways == ["192.0.2.1"])
    let nothing = evaluate(state, filter: InterfaceFilter(prohibitedInterfaceTypes: [.cellular, .wiredEthernet]))
    #expect(nothing == NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: true))
    // Filtering in the evaluator agrees with InterfaceFilter.apply.
    let filter = InterfaceFilter(prohibitedInterfaceTypes: [.cellular])
    #expect(filter.apply(to: noCellular) == noCellular)
  }

  @Test("DNS support is passed through")
  func dns() throws {
    #expect(!evaluate(try ethernet(), dns: false).supportsDNS)
    #expect(evaluate(try ethernet(), dns: true).supportsDNS)
  }
}
