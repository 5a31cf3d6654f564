import Testing

@testable import NetStatus

@Suite("kernel state model")
struct KernelStateTests {
  typealias B = NetlinkMessageBuilder

  @Test("events are idempotent upserts")
  func idempotent() throws {
    var once = KernelState()
    try once.feed(B.link(index: 2, name: "eth0"), B.address(index: 2, address: "192.0.2.10", prefixLength: 24))
    try once.feed(B.route(priority: 100, oif: 2, gateway: "192.0.2.1"))
    var twice = once
    try twice.feed(
      B.link(index: 2, name: "eth0"), B.address(index: 2, address: "192.0.2.10", prefixLength: 24),
      B.route(priority: 100, oif: 2, gateway: "192.0.2.1"))
    #expect(once == twice)
    #expect(once.routes.count == 1)
    #expect(once.addresses.count == 1)
  }

  @Test("routes are keyed by table, family, destination, metric and interface")
  func routeIdentity() throws {
    var state = KernelState()
    try state.feed(
      B.route(priority: 100, oif: 2, gateway: "192.0.2.1"),
      B.route(priority: 200, oif: 2, gateway: "192.0.2.1"),
      B.route(table: 51820, priority: 100, oif: 2, gateway: "192.0.2.1"),
      B.route(priority: 100, oif: 3, gateway: "198.51.100.1"),
      B.route(family: RTNL.AF_INET6, priority: 100, oif: 2, gateway: "2001:db8::1"),
      B.route(destination: "10.0.0.0", destinationLength: 8, priority: 100, oif: 2, gateway: "192.0.2.1"))
    #expect(state.routes.count == 6)
    // A change of gateway for the same identity updates in place.
    try state.feed(B.route(priority: 100, oif: 2, gateway: "192.0.2.254"))
    #expect(state.routes.count == 6)
    #expect(state.routes.values.contains { $0.gateway?.description == "192.0.2.254" })
    #expect(
      !state.routes.values.contains {
        $0.destinationLength == 0 && $0.gateway?.description == "192.0.2.1" && $0.priority == 100
          && $0.table == RTNL.RT_TABLE_MAIN && $0.interfaceIndex == 2
      })
    try state.feed(B.route(RTNL.RTM_DELROUTE, priority: 200, oif: 2, gateway: "192.0.2.1"))
    #expect(state.routes.count == 5)
  }

  @Test("NLM_F_REPLACE replaces the route with the same destination and metric on another interface")
  func replaceAcrossInterfaces() throws {
    var state = KernelState()
    try state.feed(B.route(priority: 0, oif: 2, gateway: "192.0.2.1"))
    try state.feed(B.route(priority: 0, oif: 3, gateway: "198.51.100.1", messageFlags: RTNL.NLM_F_REPLACE))
    #expect(state.routes.values.map(\.interfaceIndex) == [3])
  }

  @Test("a link going down takes its single-path routes with it; deleting it takes its addresses")
  func linkDownAndDelete() throws {
    var state = KernelState()
    try state.feed(
      B.link(index: 2, name: "eth0"), B.link(index: 3, name: "eth1"),
      B.address(index: 2, address: "192.0.2.10", prefixLength: 24),
      B.route(priority: 0, oif: 2, gateway: "192.0.2.1"),
      B.route(destination: "10.0.0.0", destinationLength: 8, multipath: [(2, "192.0.2.1", 0), (3, "198.51.100.1", 0)]))
    try state.feed(B.link(index: 2, name: "eth0", flags: 0, operstate: RTNL.IF_OPER_DOWN))
    #expect(state.routes.count == 1)  // the multipath route survives through eth1
    #expect(state.addresses.count == 1)
    try state.feed(B.link(RTNL.RTM_DELLINK, index: 2, name: "eth0"))
    #expect(state.links[2] == nil)
    #expect(state.addresses.isEmpty)
  }

  @Test("removing the last IPv4 address of a link drops its IPv4 routes (the kernel does so silently)")
  func lastIPv4Address() throws {
    var state = KernelState()
    try state.feed(
      B.link(index: 2, name: "eth0"),
      B.address(index: 2, address: "192.0.2.10", prefixLength: 24),
      B.address(index: 2, address: "198.51.100.10", prefixLength: 24),
      B.address(index: 2, address: "2001:db8::10", prefixLength: 64),
      B.route(priority: 100, oif: 2, gateway: "192.0.2.1"),
      B.route(family: RTNL.AF_INET6, priority: 100, oif: 2, gateway: "2001:db8::1"))
    try state.feed(B.address(RTNL.RTM_DELADDR, index: 2, address: "192.0.2.10", prefixLength: 24))
    #expect(state.routes.count == 2)  // another IPv4 address is left
    try state.feed(B.address(RTNL.RTM_DELADDR, index: 2, address: "198.51.100.10", prefixLength: 24))
    #expect(state.routes.values.map(\.family) == [RTNL.AF_INET6])
  }

  @Test("carrier coming back clears a stale RTNH_F_LINKDOWN (the kernel does so without telling)")
  func carrierBack() throws {
    var state = KernelState()
    try state.feed(
      B.link(index: 2, name: "eth0", flags: RTNL.IFF_UP, operstate: RTNL.IF_OPER_DOWN),
      B.route(flags: RTNL.RTNH_F_LINKDOWN, oif: 2, gateway: "192.0.2.1"))
    try state.feed(B.link(index: 2, name: "eth0"))
    #expect(state.routes.values.first?.flags == 0)
  }

  @Test("a link message without a name keeps the known name")
  func keepsName() throws {
    var state = KernelState()
    try state.feed(B.link(index: 2, name: "eth0"))
    try state.feed(B.link(index: 2, name: ""))
    #expect(state.links[2]?.name == "eth0")
  }
}
