#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// A multipath route with a leg that lost carrier: the rule of `PathEvaluator` (PathEvaluator.swift) that decides
// from the legs of the route the kernel matched, not from the one leg it hashed the lookup destination to.
//
// Under Linux's default `ignore_routes_with_linkdown=0`, the kernel keeps hashing flows to a leg without carrier
// (flagged RTNH_F_LINKDOWN, or RTNH_F_DEAD once its link is down), so the primary lookup may answer with that leg
// while the other legs carry their share of the flows. When the primary's answer goes through an interface that is
// not up with carrier, a FIB-match lookup of the same destination (`ip route get fibmatch DEST`) gives the matched
// route with its legs (RTA_MULTIPATH); the family has a path when one of them is usable.
extension PathEvaluator {
  /// The FIB-match lookup of a family's primary destination, without an out interface: the route the kernel matched,
  /// with all its legs.
  package static func primaryMatch(ipv4: Bool) -> RouteLookupRequest {
    RouteLookupRequest(ipv4: ipv4, interfaceIndex: nil, fibMatch: true)
  }

  /// Appends ``primaryMatch(ipv4:)`` for each family whose primary answer is a unicast route through a known
  /// interface that is not up with carrier: only then can the matched route have other legs that matter.
  package static func appendPrimaryMatchLookups(
    state: KernelState, answers: RouteLookupAnswers, eligible: [Eligible]?, to requests: inout [RouteLookupRequest]
  ) {
    if primaryLegIsDown(ipv4: true, state: state, answers: answers, eligible: eligible) {
      requests.append(primaryMatch(ipv4: true))
    }
    if primaryLegIsDown(ipv4: false, state: state, answers: answers, eligible: eligible) {
      requests.append(primaryMatch(ipv4: false))
    }
  }

  /// Whether the family's primary answer is a unicast route through a known interface that is not up with carrier.
  /// An eligible link (of `state`) is up with carrier: found among them (the common case), the answer's link is not
  /// read from the dictionary, which would copy it.
  package static func primaryLegIsDown(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, eligible: [Eligible]?
  ) -> Bool {
    guard let route = answers[.primary(ipv4: ipv4)]?.route, route.type == RTNL.RTN_UNICAST,
      let index = route.interfaceIndex
    else { return false }
    // By position: a closure over the elements would copy each link it passes (retaining its name, kind, address).
    if let eligible {
      for position in eligible.indices where eligible[position].link.index == index { return false }
    }
    guard let isUsable = state.links[index]?.isUsable else { return false }
    return !isUsable
  }

  /// The family's first candidate from the legs of the route the kernel matched (``primaryMatch(ipv4:)``'s answer),
  /// when its primary answer is not usable: the leg the kernel picked (`picked`, the primary answer's out interface)
  /// when that leg is usable, else the first usable leg; `nil` when the answer has no usable leg.
  ///
  /// A leg is usable when it is flagged neither RTNH_F_LINKDOWN nor RTNH_F_DEAD, and its interface is known, up with
  /// carrier, not loopback and allowed by the filter; and the family has a usable source: the matched route's own
  /// (RTA_PREFSRC) when it has one, else any usable address of the family, which is what the kernel picks from.
  package static func multipathPrimary(
    ipv4: Bool, picked: Int32?, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    classify: (NetlinkLink) -> InterfaceType
  ) -> Candidate? {
    let request = primaryMatch(ipv4: ipv4)
    guard let match = answers[request]?.route, match.type == RTNL.RTN_UNICAST, let legs = answers.legs(for: request)
    else { return nil }
    if let source = match.preferredSource {
      guard source.isIPv4 == ipv4, state.isUsableSource(source) else { return nil }
    } else if !state.hasUsableAddress(ipv4: ipv4) {
      return nil
    }
    var first: Candidate?
    for leg in legs where leg.flags & (RTNL.RTNH_F_LINKDOWN | RTNL.RTNH_F_DEAD) == 0 {
      guard let index = leg.interfaceIndex, let link = state.links[index], link.isUsable else { continue }
      let type = classify(link)
      guard type != .loopback, filter.allows(type) else { continue }
      let candidate = Candidate(index: index, type: type, ipv4: ipv4, gateway: leg.gateway, metric: 0)
      if index == picked { return candidate }
      if first == nil { first = candidate }
    }
    return first
  }
}
