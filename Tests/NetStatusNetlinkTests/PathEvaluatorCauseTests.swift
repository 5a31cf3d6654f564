import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// Why an unsatisfied path is unsatisfied (Sources/NetStatusNetlink/PathEvaluator+Cause.swift): what `netstatus`
/// says in words, from the same answers that made the path unsatisfied.
@Suite("path evaluator: the cause of an unsatisfied path")
struct PathEvaluatorCauseTests {
  typealias T = PathEvaluatorTests
  typealias B = NetlinkMessageBuilder

  func cause(_ state: KernelState, _ answers: RouteLookupAnswers, filter: InterfaceFilter = .unrestricted)
    -> UnsatisfiedCause?
  {
    let path = PathEvaluator.evaluate(
      state: state, answers: answers, supportsDNS: true, filter: filter, classify: T.classify)
    #expect(path.status == .unsatisfied)
    return path.unsatisfiedCause
  }

  @Test("no route, a rejecting route, and no address of either family")
  func routesAndAddresses() throws {
    let state = try T().ethernet()
    #expect(cause(state, [T.v4: .failed(errno: LinuxErrno.ENETUNREACH)]) == .noRoute)
    #expect(cause(state, [:]) == .noRoute, "no answer: no route")
    for code in [LinuxErrno.EHOSTUNREACH, LinuxErrno.EINVAL, LinuxErrno.EACCES] {
      #expect(cause(state, [T.v4: .failed(errno: code)]) == .unreachableRoute, "errno \(code)")
    }
    #expect(cause(state, [T.v4: T.route(oif: 2, source: "192.0.2.10", type: RTNL.RTN_LOCAL)]) == .unreachableRoute)
    var down = state
    down.links[2]?.flags = 0
    #expect(
      cause(down, [T.v4: .failed(errno: LinuxErrno.ENETUNREACH)]) == .interfaceDown("eth0"),
      "the only interface set down (which removes its routes) is why there is no route")
    var twoDown = try T().ethernetAndWiFi()
    twoDown.links[2]?.flags = 0
    #expect(cause(twoDown, [T.v4: .failed(errno: LinuxErrno.ENETUNREACH)]) == .noRoute, "another link is up")
    var bare = KernelState()
    try bare.feed(B.link(index: 2, name: "eth0"))
    #expect(cause(bare, [:]) == .noAddress)
  }

  @Test("the interface the kernel's route goes through: down, no carrier, no source address, filtered, loopback")
  func theRoutesInterface() throws {
    var state = try T().ethernet()
    state.links[2]?.flags = RTNL.IFF_UP
    #expect(cause(state, T.ethernetAnswer) == .noCarrier("eth0"))
    state.links[2]?.flags = RTNL.IFF_LOWER_UP
    #expect(cause(state, T.ethernetAnswer) == .interfaceDown("eth0"))
    state.links[2]?.flags = 0
    #expect(cause(state, T.ethernetAnswer) == .interfaceDown("eth0"), "down says more than no carrier")
    state.links[2]?.flags = RTNL.IFF_UP | RTNL.IFF_LOWER_UP
    #expect(cause(state, [T.v4: T.route(oif: 2)]) == .noSourceAddress("eth0"))
    #expect(
      cause(state, T.ethernetAnswer, filter: InterfaceFilter(prohibitedInterfaceTypes: [.wiredEthernet]))
        == .notAllowed("eth0", .wiredEthernet))
    #expect(cause(state, [T.v4: T.route(oif: 1, source: "192.0.2.10")]) == .loopbackOnly)
    #expect(cause(state, [T.v4: T.route(oif: 7, source: "192.0.2.10")]) == .noRoute, "an interface not known")
  }

  @Test("of two families, the one that says most: an interface's problem before a missing route")
  func twoFamilies() throws {
    var state = try T().ethernet()
    try state.feed(B.address(index: 2, address: "2001:db8::10", prefixLength: 64))
    state.links[2]?.flags = RTNL.IFF_UP
    let answers: RouteLookupAnswers = [
      T.v4: .failed(errno: LinuxErrno.ENETUNREACH),
      T.v6: T.route(oif: 2, gateway: "fe80::1", source: "2001:db8::10", ipv4: false),
    ]
    #expect(cause(state, answers) == .noCarrier("eth0"))
  }

  @Test("a satisfied path has no cause, and the cause is not a value of the path")
  func notAValue() throws {
    let path = PathEvaluator.evaluate(
      state: try T().ethernet(), answers: T.ethernetAnswer, supportsDNS: true, classify: T.classify)
    #expect(path.status == .satisfied)
    #expect(path.unsatisfiedCause == nil)
    var offline = NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable)
    offline.unsatisfiedCause = .noRoute
    #expect(offline == .offline)
    #expect(offline.hashValue == NetworkPath.offline.hashValue)
    var other = offline
    other.unsatisfiedCause = .noCarrier("eth0")
    #expect(other == offline)
    other.availableInterfaces = [NetworkInterface(name: "utun0", index: 9, type: .other)]
    #expect(other.unsatisfiedCause == .noCarrier("eth0"), "setting a value keeps the cause")
    #expect(other != offline)
  }
}
