import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// A multipath default route with a leg that lost carrier (`Sources/NetStatusNetlink/PathEvaluator+Multipath.swift`):
/// the path is decided from the legs of the FIB-match answer, decoded here from the message the kernel sends.
@Suite("path evaluator: multipath")
struct PathEvaluatorMultipathTests {
  typealias B = NetlinkMessageBuilder

  static func classify(_ link: NetlinkLink) -> InterfaceType { PathEvaluatorTests.classify(link) }

  /// PathEvaluatorTests' lo (1) and eth0 (2, 192.0.2.10/24), eth0 without carrier; eth1 (3) and wlan0 (4) up with
  /// carrier, 198.51.100.10/24 and 203.0.113.10/24, and 2001:db8::10/64 on eth1.
  func state() throws -> KernelState {
    var state = try PathEvaluatorTests().ethernet()
    state.links[2]?.flags = RTNL.IFF_UP
    try state.feed(
      B.link(index: 3, name: "eth1"),
      B.address(index: 3, address: "198.51.100.10", prefixLength: 24),
      B.address(index: 3, address: "2001:db8::10", prefixLength: 64),
      B.link(index: 4, name: "wlan0"),
      B.address(index: 4, address: "203.0.113.10", prefixLength: 24))
    return state
  }

  /// A decoded answer: the result, and a multipath route's legs.
  typealias Answer = (result: RouteLookupResult, legs: [NetlinkNextHop])

  /// The kernel's answer `datagram` decoded as the event loop decodes it: `lookupReply` leaves a multipath route to the
  /// full decoder, which gives its legs.
  static func answer(_ datagram: [UInt8]) throws -> Answer {
    let reply = try datagram.withUnsafeBytes { bytes in try NetlinkMessageDecoder.lookupReply(in: bytes, portID: 0) }
    if let result = reply?.result { return (result, []) }
    guard case .newRoute(let route) = try #require(try NetlinkMessageDecoder.decode(datagram).first).event else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: 0, messageType: 0)
    }
    #expect(!route.multipath.isEmpty, "only a multipath answer is left to the full decoder")
    return (.route(route), route.multipath)
  }

  /// The answers, with their legs, as the event loop records them.
  static func answers(_ pairs: KeyValuePairs<RouteLookupRequest, Answer>) -> RouteLookupAnswers {
    var answers = RouteLookupAnswers()
    for (request, answer) in pairs {
      answers[request] = answer.result
      answers.recordLegs(answer.legs, for: request)
    }
    return answers
  }

  /// The resolved answer through `oif`: the leg the kernel hashed the destination to.
  static func picked(_ oif: Int32, ipv4: Bool = true) throws -> Answer {
    try answer(
      B.route(
        family: ipv4 ? RTNL.AF_INET : RTNL.AF_INET6, destination: ipv4 ? "192.0.2.200" : "2001:db8:ffff::1",
        destinationLength: ipv4 ? 32 : 128, oif: oif, gateway: ipv4 ? "192.0.2.1" : "fe80::1",
        preferredSource: ipv4 ? "192.0.2.10" : "2001:db8::10"))
  }

  /// The FIB-match answer: the default route with `legs`.
  static func matched(_ legs: [(oif: Int32, gateway: String?, flags: UInt8)], ipv4: Bool = true) throws -> Answer {
    try answer(B.route(family: ipv4 ? RTNL.AF_INET : RTNL.AF_INET6, priority: 10, multipath: legs))
  }

  static let linkdown = UInt8(RTNL.RTNH_F_LINKDOWN)
  static let dead = UInt8(RTNL.RTNH_F_DEAD | RTNL.RTNH_F_LINKDOWN)

  func evaluate(_ state: KernelState, _ answers: RouteLookupAnswers, filter: InterfaceFilter = .unrestricted)
    -> NetworkPath
  {
    PathEvaluator.evaluate(state: state, answers: answers, supportsDNS: true, filter: filter, classify: Self.classify)
  }

  @Test("the legs are decoded with their flags")
  func decodedLegs() throws {
    let legs = try Self.matched([(2, "192.0.2.1", Self.linkdown), (3, "198.51.100.1", 0)]).legs
    #expect(legs.map(\.interfaceIndex) == [2, 3])
    #expect(legs.map(\.flags) == [RTNL.RTNH_F_LINKDOWN, 0])
    #expect(legs.map { $0.gateway?.description } == ["192.0.2.1", "198.51.100.1"])
    #expect(try Self.picked(2).legs.isEmpty)
  }

  @Test("legs are kept beside the answers: by request, replaced, merged, and forgotten with them")
  func keptLegs() throws {
    let request = PathEvaluator.primaryMatch(ipv4: true)
    var answers = Self.answers([request: try Self.matched([(2, nil, 0), (3, nil, Self.linkdown)])])
    #expect(answers.legs(for: request)?.map(\.interfaceIndex) == [2, 3])
    #expect(answers.legs(for: PathEvaluator.primaryMatch(ipv4: false)) == nil)
    answers.recordLegs([], for: request)
    #expect(answers.legs(for: request) == nil)
    answers.merge(Self.answers([request: try Self.matched([(4, nil, 0)])]))
    #expect(answers.legs(for: request)?.map(\.interfaceIndex) == [4])
    answers.removeAll()
    #expect(answers.legs(for: request) == nil && answers.count == 0)
  }

  @Test("a primary through a leg without carrier asks the FIB match of the primary, and the other interfaces")
  func lookups() throws {
    let state = try state()
    let answers = Self.answers([.primary(ipv4: true): try Self.picked(2)])
    let requests = PathEvaluator.interfaceLookups(
      state: state, answers: answers, filter: .unrestricted, classify: Self.classify)
    #expect(
      requests == [
        PathEvaluator.primaryMatch(ipv4: true),
        RouteLookupRequest(ipv4: true, interfaceIndex: 3, fibMatch: true),
        RouteLookupRequest(ipv4: true, interfaceIndex: 3, fibMatch: false),
        RouteLookupRequest(ipv4: true, interfaceIndex: 4, fibMatch: true),
        RouteLookupRequest(ipv4: true, interfaceIndex: 4, fibMatch: false),
      ])
    // A usable primary needs no FIB match of its own.
    let usable = Self.answers([.primary(ipv4: true): try Self.picked(3)])
    #expect(
      !PathEvaluator.interfaceLookups(state: state, answers: usable, filter: .unrestricted, classify: Self.classify)
        .contains(PathEvaluator.primaryMatch(ipv4: true)))
  }

  @Test("a usable leg satisfies the path; the legs without carrier or dead are left out", arguments: [true, false])
  func usableLeg(ipv4: Bool) throws {
    let gateway = ipv4 ? "198.51.100.1" : "fe80::2"
    let answers = Self.answers([
      .primary(ipv4: ipv4): try Self.picked(2, ipv4: ipv4),
      PathEvaluator.primaryMatch(ipv4: ipv4): try Self.matched(
        [(2, nil, Self.linkdown), (4, nil, Self.dead), (3, gateway, 0)], ipv4: ipv4),
    ])
    let path = evaluate(try state(), answers)
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces.map(\.name) == ["eth1"])
    #expect(path.gateways == [gateway])
    #expect(path.supportsIPv4 == ipv4 && path.supportsIPv6 == !ipv4)
  }

  @Test("every leg down, or one path that lost carrier: unsatisfied")
  func noUsableLeg() throws {
    let state = try state()
    let allDown = Self.answers([
      .primary(ipv4: true): try Self.picked(2),
      PathEvaluator.primaryMatch(ipv4: true): try Self.matched([(2, nil, Self.linkdown), (3, nil, Self.dead)]),
    ])
    #expect(evaluate(state, allDown).status == .unsatisfied)
    let single = Self.answers([
      .primary(ipv4: true): try Self.picked(2),
      PathEvaluator.primaryMatch(ipv4: true): try Self.answer(B.route(priority: 10, oif: 2, gateway: "192.0.2.1")),
    ])
    #expect(evaluate(state, single).status == .unsatisfied)
    // Without the FIB match's answer (not asked yet), the primary decides alone.
    #expect(evaluate(state, Self.answers([.primary(ipv4: true): try Self.picked(2)])).status == .unsatisfied)
  }

  @Test("the first usable leg comes first, the other legs follow from their per-interface lookups")
  func order() throws {
    let answers = Self.answers([
      .primary(ipv4: true): try Self.picked(2),
      PathEvaluator.primaryMatch(ipv4: true): try Self.matched(
        [(2, "192.0.2.1", Self.linkdown), (4, "203.0.113.1", 0), (3, "198.51.100.1", 0)]),
      RouteLookupRequest(ipv4: true, interfaceIndex: 3, fibMatch: true): try Self.matched(
        [(2, "192.0.2.1", Self.linkdown), (4, "203.0.113.1", 0), (3, "198.51.100.1", 0)]),
      RouteLookupRequest(ipv4: true, interfaceIndex: 3, fibMatch: false): try Self.answer(
        B.route(oif: 3, gateway: "198.51.100.1", preferredSource: "198.51.100.10")),
      RouteLookupRequest(ipv4: true, interfaceIndex: 4, fibMatch: true): try Self.matched(
        [(2, "192.0.2.1", Self.linkdown), (4, "203.0.113.1", 0), (3, "198.51.100.1", 0)]),
      RouteLookupRequest(ipv4: true, interfaceIndex: 4, fibMatch: false): try Self.answer(
        B.route(oif: 4, gateway: "203.0.113.1", preferredSource: "203.0.113.10")),
    ])
    let path = evaluate(try state(), answers)
    #expect(path.availableInterfaces.map(\.name) == ["wlan0", "eth1"])
    #expect(path.availableInterfaces.first?.type == .wifi)
    #expect(path.gateways == ["203.0.113.1", "198.51.100.1"])
    // A filter that prohibits Wi-Fi leaves the wired leg first.
    let noWiFi = InterfaceFilter(prohibitedInterfaceTypes: [.wifi])
    #expect(evaluate(try state(), answers, filter: noWiFi).availableInterfaces.map(\.name) == ["eth1"])
  }

  @Test("the leg the kernel picked comes first when it is usable")
  func pickedLeg() throws {
    // eth1 is flagged linkdown by a stale answer while its link has carrier: the flag wins, wlan0 is the leg.
    let answers = Self.answers([
      .primary(ipv4: true): try Self.picked(2),
      PathEvaluator.primaryMatch(ipv4: true): try Self.matched([(3, nil, Self.linkdown), (4, nil, 0)]),
    ])
    #expect(evaluate(try state(), answers).availableInterfaces.map(\.name) == ["wlan0"])
    let candidate = PathEvaluator.multipathPrimary(
      ipv4: true, picked: 4, state: try state(),
      answers: Self.answers([PathEvaluator.primaryMatch(ipv4: true): try Self.matched([(3, nil, 0), (4, nil, 0)])]),
      filter: .unrestricted, classify: Self.classify)
    #expect(candidate?.index == 4)
  }
}
