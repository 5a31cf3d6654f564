#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// Why a path is unsatisfied, from the same answers that made it so: what `netstatus` says in words. Asked only for
// an unsatisfied path, so a satisfied one costs nothing more.
extension PathEvaluator {
  /// Why neither family has a path: each family's own cause, then the one that says most (an interface's problem
  /// before a missing route, a missing route before missing addresses); IPv4's when both say as much.
  package static func unsatisfiedCause(
    state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter, classify: (NetlinkLink) -> InterfaceType
  ) -> UnsatisfiedCause {
    let ipv4 = familyCause(ipv4: true, state: state, answers: answers, filter: filter, classify: classify)
    let ipv6 = familyCause(ipv4: false, state: state, answers: answers, filter: filter, classify: classify)
    return rank(ipv6) > rank(ipv4) ? ipv6 : ipv4
  }

  /// Why one family has no path, following the rules of ``candidates(ipv4:state:answers:filter:eligible:_:)``.
  static func familyCause(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    classify: (NetlinkLink) -> InterfaceType
  ) -> UnsatisfiedCause {
    guard state.hasUsableAddress(ipv4: ipv4) else { return .noAddress }
    switch answers[.primary(ipv4: ipv4)] {
    case nil: return noRoute(state: state, classify: classify)
    case .failed(let errno):
      // ENETUNREACH: no route (or an unreachable one, which the kernel answers alike); EHOSTUNREACH, EINVAL and
      // EACCES: a route or rule that rejects the traffic (unreachable host, blackhole, prohibit).
      return errno == Self.networkUnreachable ? noRoute(state: state, classify: classify) : .unreachableRoute
    case .answered: break
    }
    guard let route = answers[.primary(ipv4: ipv4)]?.route, route.type == RTNL.RTN_UNICAST else {
      return .unreachableRoute
    }
    guard let index = route.interfaceIndex, let link = state.links[index] else {
      return noRoute(state: state, classify: classify)
    }
    let type = classify(link)
    if !filter.allows(type) { return .notAllowed(link.name, type) }
    if type == .loopback { return .loopbackOnly }
    if link.flags & RTNL.IFF_UP == 0 { return .interfaceDown(link.name) }
    if link.flags & RTNL.IFF_LOWER_UP == 0 { return .noCarrier(link.name) }
    return .noSourceAddress(link.name)
  }

  /// No route: said as the one interface being down when it is (setting a link down removes its routes, so the
  /// kernel then has none), as a missing route otherwise.
  private static func noRoute(state: KernelState, classify: (NetlinkLink) -> InterfaceType) -> UnsatisfiedCause {
    var interfaces = state.links.values.filter { classify($0) != .loopback }
    guard interfaces.count == 1, let only = interfaces.popLast(), only.flags & RTNL.IFF_UP == 0 else {
      return .noRoute
    }
    return .interfaceDown(only.name)
  }

  /// ENETUNREACH, as rtnetlink's answer carries it (Linux's number on every platform).
  private static let networkUnreachable: Int32 = 101

  /// How much a cause says: an interface's problem most, missing addresses least.
  private static func rank(_ cause: UnsatisfiedCause) -> Int {
    switch cause {
    case .noAddress: 0
    case .loopbackOnly: 1
    case .noRoute: 2
    case .unreachableRoute: 3
    case .interfaceDown, .noCarrier, .noSourceAddress, .notAllowed: 4
    }
  }
}
