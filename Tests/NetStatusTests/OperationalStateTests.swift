import Testing

@testable import NetStatusCLI
@testable import NetStatusCore
@testable import NetStatusLinuxSource

/// networkd's operational states, judged from the kernel's view of a link, and `wait --interface`'s condition.
@Suite("operational states, as systemd-networkd names them")
struct OperationalStateTests {
  static func link(
    _ addresses: [(String, [String])] = [], name: String = "eth1", index: Int32 = 3, up: Bool = true,
    carrier: Bool = true, dormant: Bool = false, master: Int32? = nil
  ) -> LinkInventory.Link {
    LinkInventory.Link(
      index: index, name: name, type: .wiredEthernet, kind: nil, isUp: up, hasCarrier: carrier, isDormant: dormant,
      master: master, addresses: addresses.map { LinkInventory.Address(text: $0.0, flags: $0.1) })
  }

  /// The links as the rule judges them from the kernel alone.
  static func judged(_ links: [LinkInventory.Link]) -> [WaitOnlineRule.Link] {
    links.map { WaitOnlineRule.Link(kernel: $0, among: links) }
  }

  @Test func carrierStatesComeFirst() {
    #expect(OperationalState(of: nil) == .missing)
    #expect(OperationalState(of: Self.link([("192.0.2.5/24", [])], up: false)) == .off, "down, whatever its addresses")
    #expect(OperationalState(of: Self.link([("192.0.2.5/24", [])], carrier: false)) == .noCarrier)
    #expect(OperationalState(of: Self.link([("192.0.2.5/24", [])], dormant: true)) == .dormant)
    #expect(OperationalState(of: Self.link()) == .carrier, "carrier and no address")
  }

  @Test func addressesMakeItDegradedOrRoutable() {
    #expect(OperationalState(of: Self.link([("fe80::1/64", ["link"])])) == .degraded, "link-local only")
    #expect(OperationalState(of: Self.link([("fe80::1/64", ["link"]), ("10.0.0.5/24", [])])) == .routable)
    #expect(OperationalState(of: Self.link([("127.0.0.1/8", ["host"])])) == .carrier, "host scope does not count")
    #expect(OperationalState(of: Self.link([("2001:db8::5/64", ["tentative"])])) == .carrier, "not ready yet")
    #expect(
      OperationalState(of: Self.link([("2001:db8::5/64", ["dadfailed"]), ("fe80::1/64", ["link"])])) == .degraded)
    #expect(OperationalState(of: Self.link([("fec0::5/64", ["site"])])) == .degraded, "site scope, as networkd says")
  }

  @Test func portsAndTheirBridge() {
    let bridge = Self.link([("192.0.2.1/24", [])], name: "br0", index: 4)
    let port = Self.link(name: "veth0", index: 5, master: 4)
    let down = Self.link(name: "veth2", index: 6, carrier: false, master: 4)
    #expect(OperationalState(of: port, among: [bridge, port]) == .enslaved, "a port with carrier")
    #expect(OperationalState(of: Self.link([("fe80::1/64", ["link"])], master: 4)) == .enslaved, "link-local only")
    #expect(OperationalState(of: Self.link([("192.0.2.9/24", [])], master: 4)) == .routable)
    #expect(OperationalState(of: down, among: [bridge, down]) == .noCarrier)
    #expect(OperationalState(of: bridge, among: [bridge, port]) == .routable)
    let bare = Self.link(name: "br0", index: 4)
    #expect(OperationalState(of: bare, among: [bare, port, down]) == .degradedCarrier, "a port without carrier")
    #expect(OperationalState(of: bare, among: [bare, port]) == .carrier)
    #expect(OperationalState.AddressState(of: bridge, ipv6: false) == .routable)
    #expect(OperationalState.AddressState(of: bridge, ipv6: true) == .off)
  }

  @Test func rangesParseAsNetworkdTakesThem() {
    #expect(OperationalState.Range(parsing: "routable") == OperationalState.Range(minimum: .routable))
    #expect(
      OperationalState.Range(parsing: "no-carrier:degraded")
        == OperationalState.Range(minimum: .noCarrier, maximum: .degraded))
    #expect(OperationalState.Range(parsing: ":carrier") == OperationalState.Range(minimum: .missing, maximum: .carrier))
    #expect(OperationalState.Range(parsing: "degraded:") == OperationalState.Range(minimum: .degraded))
    for bad in ["", ":", "up", "routable:degraded", "a:b:c", "Routable", "degraded:routable:"] {
      #expect(OperationalState.Range(parsing: bad[...]) == nil, "'\(bad)'")
    }
    let range = OperationalState.Range(minimum: .carrier, maximum: .degraded)
    #expect(range.contains(.carrier) && range.contains(.degraded) && !range.contains(.routable))
    #expect(OperationalState.Range.online.contains(.degraded) && !OperationalState.Range.online.contains(.carrier))
    #expect(OperationalState.allCases.map(\.description).contains("degraded-carrier"))
  }

  @Test func interfaceMeansNetworkdsStateAndNeedsNoPath() throws {
    let options = try CommandLineOptions.parse(["wait", "-i", "eth1", "-i", "eth2:routable"])
    let condition = options.waitCondition
    #expect(!condition.needsPath, "-i alone asks nothing of the path")
    let storage = [Self.link([("10.0.0.5/24", [])], name: "eth1"), Self.link([("10.0.1.5/24", [])], name: "eth2")]
    #expect(condition.isMet(by: nil, links: Self.judged(storage)), "addresses, no default route")
    let degraded = [
      Self.link([("fe80::1/64", ["link"])], name: "eth1"), Self.link([("fe80::2/64", ["link"])], name: "eth2"),
    ]
    #expect(!condition.isMet(by: nil, links: Self.judged(degraded)), "eth2 must be routable")
    #expect(!condition.isMet(by: nil, links: Self.judged([storage[0]])), "eth2 missing")
    #expect(condition.description == "eth1 online and eth2 routable (systemd-networkd's operational state)")
    #expect(condition.links?.linksNow(Self.judged(degraded)) == "eth1 degraded, eth2 degraded")
  }

  @Test func operationalStateAppliesToInterfacesWithoutTheirOwn() throws {
    let options = try CommandLineOptions.parse([
      "wait", "-o", "carrier:degraded", "-i", "eth1", "-i", "eth2:routable", "--any",
    ])
    #expect(options.waitCondition.links?.interfaces.map(\.range?.description) == [nil, "routable"])
    #expect(options.waitCondition.links?.operationalState?.description == "carrier:degraded")
    let routable = [Self.link([("10.0.0.5/24", [])], name: "eth1")]
    #expect(!options.waitCondition.isMet(by: nil, links: Self.judged(routable)), "above eth1's maximum, eth2 missing")
    #expect(
      options.waitCondition.isMet(by: nil, links: Self.judged([Self.link(name: "eth1")])),
      "eth1 carrier is enough with --any")
  }

  @Test func familiesWithInterfacesJudgeTheLinksAddresses() throws {
    let condition = try CommandLineOptions.parse(["wait", "-i", "eth1", "-6"]).waitCondition
    #expect(!condition.needsPath, "-6 with -i asks for an IPv6 address on eth1, not an IPv6 default route")
    let ipv4Only = [Self.link([("10.0.0.5/24", [])], name: "eth1")]
    #expect(!condition.isMet(by: nil, links: Self.judged(ipv4Only)))
    let linkLocal = [Self.link([("10.0.0.5/24", []), ("fe80::1/64", ["link"])], name: "eth1")]
    #expect(condition.isMet(by: nil, links: Self.judged(linkLocal)), "degraded is enough below routable")
    let routable = try CommandLineOptions.parse(["wait", "-i", "eth1:routable", "-6"]).waitCondition
    #expect(!routable.isMet(by: nil, links: Self.judged(linkLocal)), "a routable IPv6 address when routable is asked")
  }

  @Test func wantedAloneAppliesToEveryManagedLink() throws {
    for arguments in [
      ["wait", "--any"], ["wait", "-o", "routable"], ["wait", "--ignore=veth*"], ["wait", "-4", "--any"],
    ] {
      let options = try CommandLineOptions.parse(arguments)
      #expect(options.judgesLinks && options.waitCondition.links?.interfaces.isEmpty == true, "\(arguments)")
      #expect(!options.waitCondition.needsPath, "\(arguments)")
    }
    for arguments in [
      ["wait"], ["wait", "-4"], ["wait", "--via", "eth0", "--any"], ["wait", "--dns", "--ignore", "lo"],
    ] {
      let options = try CommandLineOptions.parse(arguments)
      #expect(!options.judgesLinks && options.waitCondition.needsPath, "\(arguments): the path, by design")
    }
    let ignoring = try CommandLineOptions.parse(["wait", "--ignore=veth*", "--ignore", "lo"]).waitCondition
    #expect(ignoring.links?.ignored == ["veth*", "lo"] && ignoring.ignoredInterfaces.isEmpty)
    #expect(
      ignoring.description == "every link systemd-networkd manages configured and one online (ignoring veth*, lo)")
  }

  @Test func pathOptionsStillNeedThePath() throws {
    let condition = try CommandLineOptions.parse(["wait", "-i", "eth1", "--dns"]).waitCondition
    #expect(condition.needsPath)
    let links = [Self.link([("10.0.0.5/24", [])], name: "eth1")]
    #expect(!condition.isMet(by: nil, links: Self.judged(links)))
    let path = NetworkPath(
      status: .satisfied, availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
      supportsIPv4: true, supportsDNS: true)
    #expect(condition.isMet(by: path, links: Self.judged(links)))
  }

  @Test(arguments: [
    ["wait", "-i", "eth1:up"], ["wait", "-i", "eth1:routable:carrier"], ["wait", "-i", "eth1:"],
    ["wait", "--operational-state", "routable", "--via", "eth0"], ["wait", "-o", "fast", "-i", "eth1"],
    ["wait", "--via", "a:b"],
  ])
  func rejectsWhatIsNoStateRange(_ arguments: [String]) {
    #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
  }
}
