import Testing

@testable import NetStatusCLI
@testable import NetStatusCore

/// networkd's operational states, judged from the kernel's view of a link, and `wait --interface`'s condition.
@Suite("operational states, as systemd-networkd names them")
struct OperationalStateTests {
  static func link(
    _ addresses: [(String, [String])] = [], name: String = "eth1", up: Bool = true, carrier: Bool = true,
    dormant: Bool = false
  ) -> LinkInventory.Link {
    LinkInventory.Link(
      index: 3, name: name, type: .wiredEthernet, kind: nil, isUp: up, hasCarrier: carrier, isDormant: dormant,
      addresses: addresses.map { LinkInventory.Address(text: $0.0, flags: $0.1) })
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
  }

  @Test func rangesParseAsNetworkdTakesThem() {
    #expect(OperationalState.Range(parsing: "routable") == OperationalState.Range(minimum: .routable))
    #expect(
      OperationalState.Range(parsing: "no-carrier:degraded")
        == OperationalState.Range(minimum: .noCarrier, maximum: .degraded))
    for bad in ["", "up", "routable:degraded", "degraded:", "a:b:c", "Routable"] {
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
    #expect(condition.isMet(by: nil, links: storage), "addresses, no default route")
    let degraded = [
      Self.link([("fe80::1/64", ["link"])], name: "eth1"), Self.link([("fe80::2/64", ["link"])], name: "eth2"),
    ]
    #expect(!condition.isMet(by: nil, links: degraded), "eth2 must be routable")
    #expect(!condition.isMet(by: nil, links: [storage[0]]), "eth2 missing")
    #expect(
      condition.description
        == "eth1 degraded or better and eth2 routable (networkd's operational state)")
    #expect(condition.linkStatesNow(degraded) == "eth1 degraded, eth2 degraded")
  }

  @Test func operationalStateAppliesToInterfacesWithoutTheirOwn() throws {
    let options = try CommandLineOptions.parse([
      "wait", "--operational-state=carrier:degraded", "-i", "eth1", "-i", "eth2:routable", "--any",
    ])
    #expect(options.waitCondition.linkStates.map(\.range.description) == ["carrier:degraded", "routable"])
    let routable = [Self.link([("10.0.0.5/24", [])], name: "eth1")]
    #expect(!options.waitCondition.isMet(by: nil, links: routable), "above eth1's maximum, eth2 missing")
    #expect(options.waitCondition.isMet(by: nil, links: [Self.link(name: "eth1")]), "eth1 carrier is enough with --any")
  }

  @Test func pathOptionsStillNeedThePath() throws {
    let condition = try CommandLineOptions.parse(["wait", "-i", "eth1", "--dns"]).waitCondition
    #expect(condition.needsPath)
    let links = [Self.link([("10.0.0.5/24", [])], name: "eth1")]
    #expect(!condition.isMet(by: nil, links: links))
    let path = NetworkPath(
      status: .satisfied, availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
      supportsIPv4: true, supportsDNS: true)
    #expect(condition.isMet(by: path, links: links))
  }

  @Test(arguments: [
    ["wait", "-i", "eth1:up"], ["wait", "-i", "eth1:routable:carrier"], ["wait", "--operational-state", "routable"],
    ["wait", "--operational-state", "fast", "-i", "eth1"], ["wait", "--via", "a:b"],
  ])
  func rejectsWhatIsNoStateRange(_ arguments: [String]) {
    #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
  }
}
