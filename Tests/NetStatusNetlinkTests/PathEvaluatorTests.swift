import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// The evaluator on hand-made links, addresses and lookup answers: every rule of
/// `Sources/NetStatusNetlink/PathEvaluator.swift`, without a kernel.
@Suite("path evaluator")
struct PathEvaluatorTests {
  typealias B = NetlinkMessageBuilder

  /// Types by name, standing in for the classifier.
  static let types: [String: InterfaceType] = [
    "eth0": .wiredEthernet, "eth1": .wiredEthernet, "wlan0": .wifi, "wwan0": .cellular, "wg0": .other, "lo": .loopback,
  ]

  static func classify(_ link: NetlinkLink) -> InterfaceType { types[link.name] ?? .other }

  func evaluate(
    _ state: KernelState, _ answers: RouteLookupAnswers, dns: Bool = true, filter: InterfaceFilter = .unrestricted
  ) -> NetworkPath {
    PathEvaluator.evaluate(state: state, answers: answers, supportsDNS: dns, filter: filter, classify: Self.classify)
  }

  /// A resolved lookup answer (or, with `metric`, a FIB-match answer).
  static func route(
    oif: Int32?, gateway: String? = nil, source: String? = nil, type: UInt8 = RTNL.RTN_UNICAST, metric: UInt32 = 0,
    ipv4: Bool = true
  ) -> RouteLookupResult {
    .route(
      NetlinkRoute(
        family: ipv4 ? RTNL.AF_INET : RTNL.AF_INET6, destinationLength: ipv4 ? 32 : 128,
        destination: ipv4 ? RouteLookupRequest.ipv4Destination : RouteLookupRequest.ipv6Destination, tos: 0,
        table: RTNL.RT_TABLE_MAIN, routingProtocol: 0, scope: 0, type: type, flags: 0, priority: metric,
        interfaceIndex: oif, gateway: gateway.flatMap { IPAddressBytes(text: $0) },
        preferredSource: source.flatMap { IPAddressBytes(text: $0) }, nexthopID: nil, multipath: []))
  }

  static let v4 = RouteLookupRequest.primary(ipv4: true)
  static let v6 = RouteLookupRequest.primary(ipv4: false)

  static func fib(_ index: Int32, ipv4: Bool = true) -> RouteLookupRequest {
    RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: true)
  }

  static func plain(_ index: Int32, ipv4: Bool = true) -> RouteLookupRequest {
    RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: false)
  }

  /// lo (1) and eth0 (2, up with carrier, 192.0.2.10/24).
  func ethernet() throws -> KernelState {
    var state = KernelState()
    try state.feed(
      B.link(
        index: 1, name: "lo", hardwareType: RTNL.ARPHRD_LOOPBACK,
        flags: RTNL.IFF_UP | RTNL.IFF_LOOPBACK | RTNL.IFF_LOWER_UP, operstate: RTNL.IF_OPER_UNKNOWN),
      B.address(index: 1, address: "127.0.0.1", prefixLength: 8, scope: RTNL.RT_SCOPE_HOST),
      B.address(index: 1, address: "::1", prefixLength: 128, scope: RTNL.RT_SCOPE_HOST),
      B.link(index: 2, name: "eth0"),
      B.address(index: 2, address: "192.0.2.10", prefixLength: 24))
    return state
  }

  /// eth0 plus wlan0 (3, 198.51.100.10/24).
  func ethernetAndWiFi() throws -> KernelState {
    var state = try ethernet()
    try state.feed(B.link(index: 3, name: "wlan0"), B.address(index: 3, address: "198.51.100.10", prefixLength: 24))
    return state
  }

  static let ethernetAnswer: RouteLookupAnswers = [v4: route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10")]

  // MARK: The primary lookup

  @Test("a usable primary answer gives a satisfied path")
  func satisfied() throws {
    let path = evaluate(try ethernet(), Self.ethernetAnswer)
    #expect(
      path
        == NetworkPath(
          status: .satisfied, availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
          supportsIPv4: true, supportsDNS: true, gateways: ["192.0.2.1"]))
  }

  @Test("a failed lookup (no route, unreachable, blackhole, prohibit, a rule) gives unsatisfied, not available")
  func failedLookup() throws {
    for code in [
      LinuxErrno.ENETUNREACH, LinuxErrno.EHOSTUNREACH, LinuxErrno.EINVAL, LinuxErrno.EACCES, LinuxErrno.EAGAIN,
    ] {
      let path = evaluate(try ethernet(), [Self.v4: .failed(errno: code)], dns: false)
      #expect(path == NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable), "errno \(code)")
    }
    // No answer at all (the lookup was not asked) is no path either.
    #expect(evaluate(try ethernet(), [:]).status == .unsatisfied)
  }

  @Test("the out interface needs IFF_UP and IFF_LOWER_UP; the operational state is not consulted")
  func carrier() throws {
    var state = try ethernet()
    state.links[2]?.flags = RTNL.IFF_UP
    for operstate in [RTNL.IF_OPER_UP, RTNL.IF_OPER_UNKNOWN, RTNL.IF_OPER_DOWN] {
      state.links[2]?.operationalState = operstate
      #expect(evaluate(state, Self.ethernetAnswer).status == .unsatisfied, "operstate \(operstate)")
    }
    state.links[2]?.flags = RTNL.IFF_LOWER_UP
    #expect(evaluate(state, Self.ethernetAnswer).status == .unsatisfied, "administratively down")
    state.links[2]?.flags = RTNL.IFF_UP | RTNL.IFF_LOWER_UP
    state.links[2]?.operationalState = RTNL.IF_OPER_DOWN  // lagging behind the flags
    #expect(evaluate(state, Self.ethernetAnswer).status == .satisfied)
  }

  @Test("an unknown out interface, or a non-unicast answer, is not a path")
  func unknownInterfaceOrType() throws {
    #expect(evaluate(try ethernet(), [Self.v4: Self.route(oif: 7, source: "192.0.2.10")]).status == .unsatisfied)
    #expect(evaluate(try ethernet(), [Self.v4: Self.route(oif: nil, source: "192.0.2.10")]).status == .unsatisfied)
    let local = Self.route(oif: 2, source: "192.0.2.10", type: RTNL.RTN_LOCAL)
    #expect(evaluate(try ethernet(), [Self.v4: local]).status == .unsatisfied)
    let loopback = Self.route(oif: 1, source: "192.0.2.10")
    #expect(evaluate(try ethernet(), [Self.v4: loopback]).status == .unsatisfied, "loopback never carries it")
  }

  @Test("the source address must be one of ours and usable beyond the link")
  func sourceAddress() throws {
    var state = try ethernet()
    // No source at all: the kernel found no address anywhere (`default dev eth0` on a host without one).
    #expect(evaluate(state, [Self.v4: Self.route(oif: 2)]).status == .unsatisfied)
    // A source the mirror does not hold (yet): not trusted until its address message arrives.
    #expect(evaluate(state, [Self.v4: Self.route(oif: 2, source: "203.0.113.7")]).status == .unsatisfied)
    // A source on another interface is fine: the kernel takes it from there.
    try state.feed(B.link(index: 3, name: "wlan0"), B.address(index: 3, address: "198.51.100.10", prefixLength: 24))
    #expect(evaluate(state, [Self.v4: Self.route(oif: 2, source: "198.51.100.10")]).supportsIPv4)
    // IPv4 link-local is not usable beyond the link.
    try state.feed(B.address(index: 2, address: "169.254.7.7", prefixLength: 16))
    #expect(evaluate(state, [Self.v4: Self.route(oif: 2, source: "169.254.7.7")]).status == .unsatisfied)
  }

  @Test("IPv6: a link-local, loopback, tentative or dadfailed source is no path")
  func ipv6Sources() throws {
    var state = try ethernet()
    try state.feed(
      B.address(index: 2, address: "fe80::10", prefixLength: 64, scope: RTNL.RT_SCOPE_LINK),
      B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: RTNL.IFA_F_TENTATIVE))
    func v6(_ source: String) -> RouteLookupAnswers {
      [Self.v6: Self.route(oif: 2, gateway: "fe80::1", source: source, ipv4: false)]
    }
    for source in ["fe80::10", "::1", "2001:db8::10"] {
      #expect(evaluate(state, v6(source)).status == .unsatisfied, "source \(source)")
    }
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64))  // DAD done
    let path = evaluate(state, v6("2001:db8::10"))
    #expect(path.status == .satisfied && path.supportsIPv6 && !path.supportsIPv4)
    #expect(path.gateways == ["fe80::1"])
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64, flags: RTNL.IFA_F_DADFAILED))
    #expect(evaluate(state, v6("2001:db8::10")).status == .unsatisfied)
  }

  // MARK: Other interfaces

  @Test("other interfaces are listed after the primary when their FIB-match and plain lookups succeed, by metric")
  func otherInterfaces() throws {
    var state = try ethernetAndWiFi()
    try state.feed(B.link(index: 4, name: "eth1"), B.address(index: 4, address: "203.0.113.10", prefixLength: 24))
    var answers = Self.ethernetAnswer
    answers[Self.fib(3)] = Self.route(oif: 3, gateway: "198.51.100.1", metric: 600)
    answers[Self.plain(3)] = Self.route(oif: 3, gateway: "198.51.100.1", source: "198.51.100.10")
    answers[Self.fib(4)] = Self.route(oif: 4, gateway: "203.0.113.1", metric: 300)
    answers[Self.plain(4)] = Self.route(oif: 4, gateway: "203.0.113.1", source: "203.0.113.10")
    var path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["eth0", "eth1", "wlan0"])
    #expect(path.gateways == ["192.0.2.1", "203.0.113.1", "198.51.100.1"])
    #expect(path.interfaceType == .wiredEthernet)

    // eth1's FIB-match lookup fails: its plain answer is the on-link route the kernel makes up. Not listed.
    answers[Self.fib(4)] = .failed(errno: LinuxErrno.EHOSTUNREACH)
    answers[Self.plain(4)] = Self.route(oif: 4, source: "203.0.113.10")
    path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["eth0", "wlan0"])
    // A plain answer through another interface than asked, or without carrier, is not listed either.
    answers[Self.plain(3)] = Self.route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10")
    #expect(evaluate(state, answers).availableInterfaces.map(\.name) == ["eth0"])
    answers[Self.plain(3)] = Self.route(oif: 3, gateway: "198.51.100.1", source: "198.51.100.10")
    state.links[3]?.flags = RTNL.IFF_UP
    #expect(evaluate(state, answers).availableInterfaces.map(\.name) == ["eth0"])
  }

  @Test("an unusable primary blocks its family even when other interfaces could carry it")
  func unusablePrimaryBlocks() throws {
    var state = try ethernetAndWiFi()
    state.links[2]?.flags = RTNL.IFF_UP  // eth0 lost carrier; the kernel still routes through it
    var answers = Self.ethernetAnswer
    answers[Self.fib(3)] = Self.route(oif: 3, gateway: "198.51.100.1", metric: 600)
    answers[Self.plain(3)] = Self.route(oif: 3, gateway: "198.51.100.1", source: "198.51.100.10")
    #expect(evaluate(state, answers).status == .unsatisfied)
    // Its route could be multipath: the FIB match of the primary is asked (PathEvaluatorMultipathTests), and when it
    // is a single path, the family stays blocked.
    #expect(
      PathEvaluator.interfaceLookups(state: state, answers: answers, filter: .unrestricted, classify: Self.classify)
        .first == PathEvaluator.primaryMatch(ipv4: true))
    answers[PathEvaluator.primaryMatch(ipv4: true)] = Self.route(oif: 2, gateway: "192.0.2.1", metric: 100)
    #expect(evaluate(state, answers).status == .unsatisfied)
  }

  @Test("dual stack: IPv4's first, IPv6's first, then the rest; one family failing leaves the other")
  func dualStack() throws {
    var state = try ethernetAndWiFi()
    try state.feed(B.address(index: 3, address: "2001:db8::10", prefixLength: 64))
    var answers = Self.ethernetAnswer
    answers[Self.v6] = Self.route(oif: 3, gateway: "fe80::1", source: "2001:db8::10", ipv4: false)
    answers[Self.fib(3)] = Self.route(oif: 3, gateway: "198.51.100.1", metric: 600)
    answers[Self.plain(3)] = Self.route(oif: 3, gateway: "198.51.100.1", source: "198.51.100.10")
    var path = evaluate(state, answers)
    #expect(path.availableInterfaces.map(\.name) == ["eth0", "wlan0"])
    #expect(path.gateways == ["192.0.2.1", "fe80::1", "198.51.100.1"])
    #expect(path.supportsIPv4 && path.supportsIPv6)
    answers[Self.v4] = .failed(errno: LinuxErrno.ENETUNREACH)
    path = evaluate(state, answers)
    #expect(path.status == .satisfied && !path.supportsIPv4 && path.supportsIPv6)
    #expect(path.availableInterfaces.map(\.name) == ["wlan0"])
    #expect(path.gateways == ["fe80::1"])
  }

  // MARK: Filters

  /// eth0 primary; wwan0 (4) a cellular alternative at metric 700.
  func ethernetAndCellular() throws -> (KernelState, RouteLookupAnswers) {
    var state = try ethernet()
    try state.feed(
      B.link(index: 4, name: "wwan0", hardwareType: RTNL.ARPHRD_RAWIP),
      B.address(index: 4, address: "100.64.0.2", prefixLength: 30))
    var answers = Self.ethernetAnswer
    answers[Self.fib(4)] = Self.route(oif: 4, gateway: "100.64.0.1", metric: 700)
    answers[Self.plain(4)] = Self.route(oif: 4, gateway: "100.64.0.1", source: "100.64.0.2")
    return (state, answers)
  }

  @Test("required interface type: a primary through another type is skipped, not blocking")
  func required() throws {
    let (state, answers) = try ethernetAndCellular()
    let cellular = evaluate(state, answers, filter: InterfaceFilter(requiredInterfaceType: .cellular))
    #expect(cellular.availableInterfaces.map(\.name) == ["wwan0"])
    #expect(cellular.isExpensive)
    #expect(cellular.gateways == ["100.64.0.1"])
    let wifi = evaluate(state, answers, filter: InterfaceFilter(requiredInterfaceType: .wifi))
    #expect(wifi.status == .unsatisfied && wifi.unsatisfiedReason == .notAvailable)
    #expect(wifi.gateways.isEmpty && !wifi.supportsIPv4)
    // Unfiltered, the kernel's choice (Ethernet) comes first and the path is not expensive.
    let any = evaluate(state, answers)
    #expect(any.availableInterfaces.map(\.name) == ["eth0", "wwan0"])
    #expect(!any.isExpensive)
  }

  @Test("prohibited interface types; the evaluator agrees with InterfaceFilter.apply")
  func prohibited() throws {
    var (state, answers) = try ethernetAndCellular()
    // Cellular is the kernel's choice now; Ethernet the alternative.
    answers[Self.v4] = answers[Self.plain(4)]
    answers[Self.fib(2)] = Self.route(oif: 2, gateway: "192.0.2.1", metric: 100)
    answers[Self.plain(2)] = Self.route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10")
    #expect(evaluate(state, answers).isExpensive)
    let filter = InterfaceFilter(prohibitedInterfaceTypes: [.cellular])
    let noCellular = evaluate(state, answers, filter: filter)
    #expect(noCellular.availableInterfaces.map(\.name) == ["eth0"])
    #expect(!noCellular.isExpensive)
    #expect(noCellular.gateways == ["192.0.2.1"])
    #expect(filter.apply(to: noCellular) == noCellular)
    let nothing = evaluate(
      state, answers, filter: InterfaceFilter(prohibitedInterfaceTypes: [.cellular, .wiredEthernet]))
    #expect(nothing == NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: true))
    state.links[2]?.flags = 0
    #expect(evaluate(state, answers, filter: filter).status == .unsatisfied)
  }

  @Test("loopback as the required type: satisfied by an up loopback interface, without lookups")
  func loopback() throws {
    let state = try ethernet()
    let filter = InterfaceFilter(requiredInterfaceType: .loopback)
    #expect(PathEvaluator.primaryLookups(state: state, filter: filter).isEmpty)
    let path = evaluate(state, [:], filter: filter)
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces == [NetworkInterface(name: "lo", index: 1, type: .loopback)])
    #expect(path.supportsIPv4 && path.supportsIPv6)
  }

  // MARK: Which lookups

  @Test("primary lookups only for families with a usable address")
  func primaryLookups() throws {
    var state = try ethernet()
    #expect(PathEvaluator.primaryLookups(state: state) == [Self.v4])
    try state.feed(B.address(index: 2, address: "fe80::10", prefixLength: 64, scope: RTNL.RT_SCOPE_LINK))
    #expect(PathEvaluator.primaryLookups(state: state) == [Self.v4], "link-local does not count")
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64))
    #expect(PathEvaluator.primaryLookups(state: state) == [Self.v4, Self.v6])
    #expect(PathEvaluator.primaryLookups(state: KernelState()).isEmpty)
  }

  @Test("per-interface lookups: every other eligible interface, both kinds, for families that go on")
  func interfaceLookups() throws {
    var state = try ethernetAndWiFi()
    try state.feed(B.link(index: 5, name: "eth1", flags: RTNL.IFF_UP))  // no carrier: not asked
    let answers: RouteLookupAnswers = [
      Self.v4: Self.ethernetAnswer[Self.v4]!, Self.v6: .failed(errno: LinuxErrno.ENETUNREACH),
    ]
    #expect(
      PathEvaluator.interfaceLookups(state: state, answers: answers, filter: .unrestricted, classify: Self.classify)
        == [Self.fib(3), Self.plain(3)])
    // The primary goes through a prohibited type: every allowed interface is asked.
    let noEthernet = InterfaceFilter(prohibitedInterfaceTypes: [.wiredEthernet])
    #expect(
      PathEvaluator.interfaceLookups(state: state, answers: answers, filter: noEthernet, classify: Self.classify)
        == [Self.fib(3), Self.plain(3)])
    let wifiOnly = InterfaceFilter(requiredInterfaceType: .wifi)
    #expect(
      PathEvaluator.interfaceLookups(state: state, answers: answers, filter: wifiOnly, classify: Self.classify)
        == [Self.fib(3), Self.plain(3)])
    let cellularOnly = InterfaceFilter(requiredInterfaceType: .cellular)
    #expect(
      PathEvaluator.interfaceLookups(state: state, answers: answers, filter: cellularOnly, classify: Self.classify)
        .isEmpty)
  }

  @Test("DNS support is passed through")
  func dns() throws {
    #expect(!evaluate(try ethernet(), Self.ethernetAnswer, dns: false).supportsDNS)
    #expect(evaluate(try ethernet(), Self.ethernetAnswer, dns: true).supportsDNS)
    #expect(!evaluate(try ethernet(), [:], dns: false).supportsDNS)
  }

  @Test("several usable links besides loopback: counted among the known eligible links first, then in the state")
  func severalUsableLinks() throws {
    let one = try ethernet()  // lo and eth0
    let two = try ethernetAndWiFi()  // lo, eth0 and wlan0
    let eligible = PathEvaluator.eligibleLinks(state: two, filter: .unrestricted, classify: Self.classify)
    #expect(eligible.count == 2)
    #expect(!PathEvaluator.hasSeveralUsableLinks(state: one, eligible: nil))
    #expect(PathEvaluator.hasSeveralUsableLinks(state: two, eligible: nil))
    #expect(PathEvaluator.hasSeveralUsableLinks(state: two, eligible: eligible))
    // Fewer known than there are (a filter left one out): the state is counted.
    #expect(PathEvaluator.hasSeveralUsableLinks(state: two, eligible: Array(eligible.prefix(1))))
    #expect(PathEvaluator.hasSeveralUsableLinks(state: two, eligible: []))
    // An eligible link flagged IFF_LOOPBACK (a classifier that does not call it loopback) does not count.
    var flagged = eligible
    flagged[1].link.flags |= RTNL.IFF_LOOPBACK
    var loopbackWiFi = two
    loopbackWiFi.links[3]?.flags |= RTNL.IFF_LOOPBACK
    #expect(!PathEvaluator.hasSeveralUsableLinks(state: loopbackWiFi, eligible: flagged))
    // Nor does one without carrier.
    var noCarrier = eligible
    noCarrier[1].link.flags = RTNL.IFF_UP
    var wifiDown = two
    wifiDown.links[3]?.flags = RTNL.IFF_UP
    #expect(!PathEvaluator.hasSeveralUsableLinks(state: wifiDown, eligible: noCarrier))
  }

  @Test("a primary verdict read from the known eligible links is the verdict read from the state")
  func primaryVerdictKnowingEligible() throws {
    var state = try ethernetAndWiFi()
    try state.feed(B.link(index: 4, name: "wwan0"), B.address(index: 4, address: "100.64.0.2", prefixLength: 10))
    let answers: [RouteLookupResult] = [
      Self.route(oif: 2, gateway: "192.0.2.1", source: "192.0.2.10"),
      Self.route(oif: 3, gateway: "198.51.100.1", source: "198.51.100.10"),
      Self.route(oif: 4, source: "100.64.0.2"),
      Self.route(oif: 3, source: "203.0.113.7"),  // not one of the host's addresses
      Self.route(oif: 1, source: "192.0.2.10"),  // loopback
      Self.route(oif: 7, source: "192.0.2.10"),  // no such link
      Self.route(oif: 2, source: "192.0.2.10", type: RTNL.RTN_LOCAL),
      .failed(errno: LinuxErrno.ENETUNREACH),
    ]
    let filters = [
      InterfaceFilter.unrestricted, InterfaceFilter(prohibitedInterfaceTypes: [.wiredEthernet]),
      InterfaceFilter(requiredInterfaceType: .wifi), InterfaceFilter(prohibitedInterfaceTypes: [.cellular]),
    ]
    var verdicts = Set<String>()
    for filter in filters {
      let eligible = PathEvaluator.eligibleLinks(state: state, filter: filter, classify: Self.classify)
      for answer in answers {
        let fromState = PathEvaluator.primaryVerdict(
          answer, ipv4: true, state: state, filter: filter, Self.classify)
        let known = PathEvaluator.primaryVerdict(
          answer, ipv4: true, state: state, filter: filter, knowing: eligible, Self.classify)
        #expect(known == fromState, "\(answer) with \(filter)")
        verdicts.insert("\(fromState)")
      }
    }
    #expect(verdicts.count >= 4, "the samples cover too few verdicts: \(verdicts)")
  }
}

/// The errno values rtnetlink answers lookups with: Linux's numbers on every platform where its bytes are decoded.
enum LinuxErrno {
  static let EAGAIN: Int32 = 11
  static let EACCES: Int32 = 13
  static let EINVAL: Int32 = 22
  static let ENETUNREACH: Int32 = 101
  static let EHOSTUNREACH: Int32 = 113
}
