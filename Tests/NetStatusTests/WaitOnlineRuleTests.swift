import Testing

@testable import NetStatusCLI
@testable import NetStatusCore
@testable import NetStatusLinuxSource

/// systemd-networkd-wait-online's decision on networkd's state files, without I/O. WaitOnlineDifferentialTests holds
/// it to the real binary.
@Suite("links online as systemd-networkd-wait-online decides")
struct WaitOnlineRuleTests {
  static func link(
    _ name: String, admin: String? = "configured", oper: String = "routable", values: [String: String] = [:]
  ) -> WaitOnlineRule.Link {
    var keys = ["OPER_STATE": oper, "IPV4_ADDRESS_STATE": "routable", "IPV6_ADDRESS_STATE": "off"]
    if let admin { keys["ADMIN_STATE"] = admin }
    keys.merge(values) { $1 }
    return WaitOnlineRule.Link(
      name: name, isLoopback: name == "lo", networkd: NetworkdLinkState(index: 1, values: keys))
  }

  static let eth0 = WaitOnlineRule.Interface(name: "eth0", range: nil)

  @Test func anInterfaceMustBeConfiguredOrUnmanaged() {
    let rule = WaitOnlineRule(interfaces: [Self.eth0])
    #expect(rule.isMet(by: [Self.link("eth0")]))
    for admin in ["configuring", "pending", "failed", "initialized", "linger"] {
      #expect(!rule.isMet(by: [Self.link("eth0", admin: admin)]), "\(admin)")
    }
    #expect(!rule.isMet(by: [WaitOnlineRule.Link(name: "eth0", isLoopback: false, networkd: nil)]), "no file yet")
    #expect(rule.isMet(by: [Self.link("eth0", admin: "unmanaged")]), "named, unmanaged: its state counts")
    #expect(!rule.isMet(by: [Self.link("eth0", admin: "unmanaged", oper: "carrier")]))
    #expect(!rule.isMet(by: []), "missing")
    #expect(WaitOnlineRule(interfaces: [.init(name: "eth0", range: .init(minimum: .missing))]).isMet(by: []))
  }

  @Test func theRangeComesFromTheCommandLineThenTheNetworkFile() {
    let file = Self.link("eth0", oper: "degraded", values: ["REQUIRED_OPER_STATE_FOR_ONLINE": "routable"])
    #expect(!WaitOnlineRule(interfaces: [Self.eth0]).isMet(by: [file]), "RequiredForOnline=routable")
    #expect(WaitOnlineRule(interfaces: [Self.eth0], operationalState: .init(minimum: .degraded)).isMet(by: [file]))
    let given = WaitOnlineRule.Interface(name: "eth0", range: .init(minimum: .carrier, maximum: .carrier))
    #expect(!WaitOnlineRule(interfaces: [given], operationalState: .init(minimum: .degraded)).isMet(by: [file]))
  }

  @Test func familiesComeFromTheCommandLineThenTheNetworkFile() {
    let ipv4Only = Self.link("eth0", values: ["REQUIRED_FAMILY_FOR_ONLINE": "ipv6"])
    #expect(!WaitOnlineRule(interfaces: [Self.eth0]).isMet(by: [ipv4Only]), "RequiredFamilyForOnline=ipv6")
    #expect(WaitOnlineRule(interfaces: [Self.eth0], requireIPv4: true).isMet(by: [ipv4Only]), "-4 replaces it")
    let linkLocal = Self.link("eth0", values: ["IPV6_ADDRESS_STATE": "degraded"])
    #expect(WaitOnlineRule(interfaces: [Self.eth0], requireIPv6: true).isMet(by: [linkLocal]))
    let routable = WaitOnlineRule.Interface(name: "eth0", range: .init(minimum: .routable))
    #expect(!WaitOnlineRule(interfaces: [routable], requireIPv6: true).isMet(by: [linkLocal]), "a routable one")
  }

  @Test func withoutInterfacesEveryManagedLinkCounts() {
    let all = WaitOnlineRule()
    let lo = Self.link("lo", admin: "unmanaged", oper: "carrier")
    #expect(all.isMet(by: [lo, Self.link("eth0")]))
    #expect(!all.isMet(by: [lo]), "at least one online link")
    #expect(!all.isMet(by: [Self.link("eth0"), Self.link("eth1", admin: "configuring")]), "eth1 still configuring")
    #expect(WaitOnlineRule(any: true).isMet(by: [Self.link("eth0"), Self.link("eth1", admin: "configuring")]))
    #expect(all.isMet(by: [Self.link("eth0"), Self.link("eth1", oper: "no-carrier")]), "configured, out of range")
    let optional = Self.link("eth1", admin: "configuring", values: ["REQUIRED_FOR_ONLINE": "no"])
    #expect(all.isMet(by: [Self.link("eth0"), optional]), "RequiredForOnline=no")
    let ignoring = WaitOnlineRule(ignored: ["eth1*"])
    #expect(ignoring.isMet(by: [Self.link("eth0"), Self.link("eth10", admin: "configuring")]))
    #expect(!ignoring.isMet(by: [Self.link("eth10")]), "the only online link is ignored")
    let kernel = LinkInventory.Link(
      index: 2, name: "eth0", type: .wiredEthernet, kind: nil, isUp: true, hasCarrier: true,
      addresses: [LinkInventory.Address(text: "192.0.2.5/24", flags: [])])
    #expect(!all.isMet(by: [WaitOnlineRule.Link(kernel: kernel, among: [kernel])]), "without networkd, none managed")
    #expect(WaitOnlineRule(interfaces: [Self.eth0]).isMet(by: [WaitOnlineRule.Link(kernel: kernel, among: [kernel])]))
  }
}
