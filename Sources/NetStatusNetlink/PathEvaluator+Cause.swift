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
    let ipv4 = familyVerdict(ipv4: true, state: state, answers: answers, filter: filter, classify: classify)
    let ipv6 = familyVerdict(ipv4: false, state: state, answers: answers, filter: filter, classify: classify)
    // Both families read the same links for a missing route: they are read once.
    let routeless = ipv4 == nil || ipv6 == nil ? noRoute(state: state, classify: classify) : .noRoute
    let (cause4, cause6) = (ipv4 ?? routeless, ipv6 ?? routeless)
    return rank(cause6) > rank(cause4) ? cause6 : cause4
  }

  /// Why one family has no path, following the rules of ``candidates(ipv4:state:answers:filter:eligible:_:)``.
  static func familyCause(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    classify: (NetlinkLink) -> InterfaceType
  ) -> UnsatisfiedCause {
    familyVerdict(ipv4: ipv4, state: state, answers: answers, filter: filter, classify: classify)
      ?? noRoute(state: state, classify: classify)
  }

  /// ``familyCause(ipv4:state:answers:filter:classify:)``, or `nil` for "no route" (``noRoute(state:classify:)``
  /// says which).
  private static func familyVerdict(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    classify: (NetlinkLink) -> InterfaceType
  ) -> UnsatisfiedCause? {
    guard state.hasUsableAddress(ipv4: ipv4) else { return .noAddress }
    switch answers[.primary(ipv4: ipv4)] {
    case nil: return nil
    case .failed(let errno):
      // ENETUNREACH: no route (or an unreachable one, which the kernel answers alike); EHOSTUNREACH, EINVAL and
      // EACCES: a route or rule that rejects the traffic (unreachable host, blackhole, prohibit).
      return errno == Self.networkUnreachable ? nil : .unreachableRoute
    case .answered: break
    }
    guard let route = answers[.primary(ipv4: ipv4)]?.route, route.type == RTNL.RTN_UNICAST else {
      return .unreachableRoute
    }
    guard let index = route.interfaceIndex, let link = state.links[index] else { return nil }
    let type = classify(link)
    if !filter.allows(type) { return .notAllowed(link.name, type) }
    if type == .loopback { return .loopbackOnly }
    if link.flags & RTNL.IFF_UP == 0 { return .interfaceDown(link.name) }
    if link.flags & RTNL.IFF_LOWER_UP == 0 { return .noCarrier(link.name) }
    return .noSourceAddress(link.name)
  }

  /// No route: said as the one interface being down when it is (setting a link down removes its routes, so the
  /// kernel then has none), as a missing route otherwise. An interface that is up answers at once; links are
  /// read in place.
  private static func noRoute(state: KernelState, classify: (NetlinkLink) -> InterfaceType) -> UnsatisfiedCause {
    let links = state.links.values
    var only: Dictionary<Int32, NetlinkLink>.Values.Index?
    var position = links.startIndex
    while position != links.endIndex {
      defer { position = links.index(after: position) }
      // rtnetlink alone tells most types (loopback always): asked first, it spares a call of `classify` per link,
      // whose cache asks the same (`EvaluationCaches.type(of:)`), on the removal of every default route.
      if (links[position].kernelInterfaceType ?? classify(links[position])) == .loopback { continue }
      // A second interface, or one that is up: the kernel simply has no route.
      if only != nil || links[position].flags & RTNL.IFF_UP != 0 { return .noRoute }
      only = position
    }
    guard let only else { return .noRoute }
    return .interfaceDown(links[only].name)
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
