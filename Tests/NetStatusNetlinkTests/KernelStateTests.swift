import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

@Suite("kernel state model")
struct KernelStateTests {
  typealias B = NetlinkMessageBuilder

  @Test("events are idempotent upserts")
  func idempotent() throws {
    var once = KernelState()
    try once.feed(B.link(index: 2, name: "eth0"), B.address(index: 2, address: "192.0.2.10", prefixLength: 24))
    var twice = once
    try twice.feed(B.link(index: 2, name: "eth0"), B.address(index: 2, address: "192.0.2.10", prefixLength: 24))
    #expect(once == twice)
    #expect(once.links.count == 1)
    #expect(once.addresses.count == 1)
  }

  @Test("route, rule and nexthop messages change nothing: routes are not mirrored")
  func routesAreNotMirrored() throws {
    var state = KernelState()
    try state.feed(B.link(index: 2, name: "eth0"))
    let before = state
    try state.feed(
      B.route(priority: 100, oif: 2, gateway: "192.0.2.1"),
      B.route(RTNL.RTM_DELROUTE, priority: 100, oif: 2, gateway: "192.0.2.1"),
      NetlinkMessageBuilder.message(type: RTNL.RTM_NEWRULE, body: [UInt8](repeating: 0, count: 12)),
      NetlinkMessageBuilder.message(type: RTNL.RTM_DELNEXTHOP, body: [UInt8](repeating: 0, count: 8)))
    #expect(state == before)
  }

  @Test("an address changing flags updates in place; deleting a link takes its addresses")
  func addressesAndLinks() throws {
    var state = KernelState()
    try state.feed(
      B.link(index: 2, name: "eth0"), B.link(index: 3, name: "eth1"),
      B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: RTNL.IFA_F_TENTATIVE),
      B.address(index: 3, address: "198.51.100.10", prefixLength: 24))
    #expect(!state.hasUsableAddress(ipv4: false))
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64))
    #expect(state.addresses.count == 2)
    #expect(state.hasUsableAddress(ipv4: false))
    #expect(state.isUsableSource(IPAddressBytes(text: "2001:db8::10")!))
    try state.feed(B.link(RTNL.RTM_DELLINK, index: 2, name: "eth0"))
    #expect(state.links[2] == nil)
    #expect(state.addresses.count == 1)
    #expect(!state.hasUsableAddress(ipv4: false) && state.hasUsableAddress(ipv4: true))
    try state.feed(B.address(RTNL.RTM_DELADDR, index: 3, address: "198.51.100.10", prefixLength: 24))
    #expect(state.addresses.isEmpty && !state.isUsableSource(IPAddressBytes(text: "198.51.100.10")!))
  }

  @Test("a link message without a name keeps the known name")
  func keepsName() throws {
    var state = KernelState()
    try state.feed(B.link(index: 2, name: "eth0"))
    try state.feed(B.link(index: 2, name: ""))
    #expect(state.links[2]?.name == "eth0")
  }
}
