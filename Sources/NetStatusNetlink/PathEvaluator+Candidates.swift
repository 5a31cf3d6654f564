#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// Which interfaces can carry a family's default path, from the kernel's lookup answers: the rules of
// `PathEvaluator` (PathEvaluator.swift).
extension PathEvaluator {
  /// One family's candidates: its primary (unless the filter skipped it or it is not usable), and the other
  /// interfaces (of `eligible`) by metric.
  package struct FamilyCandidates {
    /// The primary lookup's candidate, when usable.
    package var primary: Candidate?
    /// The other interfaces' candidates, by metric and index.
    package var others: [Candidate] = []

    /// The most preferred candidate: the interface the family's traffic goes through.
    package var first: Candidate? { primary ?? others.first }

    /// Every candidate, most preferred first.
    package var all: [Candidate] {
      guard let primary else { return others }
      return [primary] + others
    }
  }

  /// One family's candidates, most preferred first: the primary (unless the filter skipped it), then the
  /// other interfaces (of `eligible`) by metric.
  package static func candidates(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter, eligible: [Eligible],
    _ classify: (NetlinkLink) -> InterfaceType
  ) -> FamilyCandidates {
    var family = FamilyCandidates()
    guard let primary = answers[.primary(ipv4: ipv4)], state.hasUsableAddress(ipv4: ipv4) else { return family }
    switch primaryVerdict(primary, ipv4: ipv4, state: state, filter: filter, knowing: eligible, classify) {
    case .blocked:
      // The kernel's leg may be one of a multipath route's: then a usable other leg is the family's first.
      guard primary.route != nil else { return family }
      family.primary = multipathPrimary(
        ipv4: ipv4, picked: primary.route?.interfaceIndex, state: state, answers: answers, filter: filter,
        classify: classify)
      if family.primary == nil { return family }
    case .skipped: break
    case .usable(let candidate): family.primary = candidate
    }
    let primaryIndex = family.primary?.index
    // By position: a `for (link, type) in` loop would copy every eligible link it passes.
    for position in eligible.indices where eligible[position].link.index != primaryIndex {
      let index = eligible[position].link.index
      let type = eligible[position].type
      let fib = answers[RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: true)]?.route
      let plain = answers[RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: false)]?.route
      guard let fib, fib.type == RTNL.RTN_UNICAST, let plain, plain.interfaceIndex == index,
        let candidate = usable(plain, ipv4: ipv4, metric: fib.priority, state: state, classify: { _ in type })
      else { continue }
      family.others.append(candidate)
    }
    if family.others.count > 1 {
      family.others.sort { $0.metric != $1.metric ? $0.metric < $1.metric : $0.index < $1.index }
    }
    return family
  }

  /// What a family's primary answer means.
  package enum PrimaryVerdict: Equatable {
    /// The family has no path: the lookup failed, or the kernel's choice is not usable.
    case blocked
    /// The kernel's choice goes through an interface the filter does not allow: skipped, the other
    /// interfaces are asked.
    case skipped
    /// The kernel's choice is usable: the family's first candidate.
    case usable(Candidate)
  }

  /// What a family's primary answer means, for `state`; `eligible`, when given, are eligible links of `state`
  /// (``eligibleLinks(state:filter:classify:)``), where the answer's link and type are read in place when it is
  /// one of them.
  package static func primaryVerdict(
    _ result: RouteLookupResult, ipv4: Bool, state: KernelState, filter: InterfaceFilter,
    knowing eligible: [Eligible]? = nil, _ classify: (NetlinkLink) -> InterfaceType
  ) -> PrimaryVerdict {
    guard let route = result.route, route.type == RTNL.RTN_UNICAST, let index = route.interfaceIndex else {
      return .blocked
    }
    // By position: reading the link from the dictionary would copy it (retaining its name, kind and address). An
    // eligible link is allowed by the filter and classified already, with the same `classify`.
    if let eligible {
      for position in eligible.indices where eligible[position].link.index == index {
        let type = eligible[position].type
        guard filter.allows(type) else { return .skipped }
        guard carries(route, ipv4: ipv4, link: eligible[position].link, state: state), type != .loopback else {
          return .blocked
        }
        return .usable(Candidate(index: index, type: type, ipv4: ipv4, gateway: route.gateway, metric: 0))
      }
    }
    guard let link = state.links[index] else { return .blocked }
    let type = classify(link)
    if !filter.allows(type) { return .skipped }
    guard carries(route, ipv4: ipv4, link: link, state: state), type != .loopback else { return .blocked }
    return .usable(Candidate(index: link.index, type: type, ipv4: ipv4, gateway: route.gateway, metric: 0))
  }

  /// The candidate a resolved lookup answer gives, when it is usable: unicast, through a known interface that
  /// is up with carrier and is not loopback, with a usable source address of the family.
  package static func usable(
    _ route: RouteLookupAnswer, ipv4: Bool, metric: UInt32, state: KernelState,
    classify: (NetlinkLink) -> InterfaceType
  ) -> Candidate? {
    guard route.type == RTNL.RTN_UNICAST, let index = route.interfaceIndex, let link = state.links[index],
      carries(route, ipv4: ipv4, link: link, state: state)
    else { return nil }
    let type = classify(link)
    guard type != .loopback else { return nil }
    return Candidate(index: link.index, type: type, ipv4: ipv4, gateway: route.gateway, metric: metric)
  }

  /// Whether `link` (the answer's out interface) is up with carrier and the answer's source a usable address of
  /// the family.
  private static func carries(_ route: RouteLookupAnswer, ipv4: Bool, link: NetlinkLink, state: KernelState) -> Bool {
    guard link.isUsable, let source = route.preferredSource else { return false }
    return source.isIPv4 == ipv4 && state.isUsableSource(source)
  }

  /// A link worth a per-interface lookup, with its type.
  package typealias Eligible = (link: NetlinkLink, type: InterfaceType)

  /// The interfaces worth a per-interface lookup: up with carrier, not loopback, allowed by the filter; by
  /// index.
  package static func eligibleLinks(
    state: KernelState, filter: InterfaceFilter, classify: (NetlinkLink) -> InterfaceType
  ) -> [Eligible] {
    var result: [Eligible] = []
    for link in state.links.values where link.isUsable {
      let type = classify(link)
      if type != .loopback && filter.allows(type) { result.append((link, type)) }
    }
    if result.count > 1 { result.sort { $0.link.index < $1.link.index } }
    return result
  }
}
