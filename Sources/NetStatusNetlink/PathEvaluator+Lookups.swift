#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// Which route lookups an evaluation needs: the rules of `PathEvaluator` (PathEvaluator.swift), first round then
// second.
extension PathEvaluator {
  /// The first round: the kernel's own choice for each family that has a usable address.
  package static func primaryLookups(state: KernelState, filter: InterfaceFilter = .unrestricted)
    -> [RouteLookupRequest]
  {
    var requests: [RouteLookupRequest] = []
    appendPrimaryLookups(state: state, filter: filter, to: &requests)
    return requests
  }

  /// Appends ``primaryLookups(state:filter:)`` to `requests`: the event loop writes every change's requests into
  /// the same array, without allocating one each time.
  package static func appendPrimaryLookups(
    state: KernelState, filter: InterfaceFilter, to requests: inout [RouteLookupRequest]
  ) {
    guard filter.requiredInterfaceType != .loopback else { return }
    // IPv4 then IPv6, spelled out: a loop over `[true, false]` would make that array on every change.
    if state.hasUsableAddress(ipv4: true) { requests.append(.primary(ipv4: true)) }
    if state.hasUsableAddress(ipv4: false) { requests.append(.primary(ipv4: false)) }
  }

  /// The second round, given the first round's answers: for each family whose primary is usable or was
  /// skipped by the filter, a FIB-match and a plain lookup through every other eligible interface; for each family
  /// whose primary goes through an interface without carrier, the FIB-match of the primary
  /// (``primaryMatch(ipv4:)``), and those lookups through every eligible interface.
  package static func interfaceLookups(
    state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    classify: (NetlinkLink) -> InterfaceType
  ) -> [RouteLookupRequest] {
    var eligible: [Eligible]?
    var requests: [RouteLookupRequest] = []
    appendInterfaceLookups(
      state: state, answers: answers, filter: filter, eligible: &eligible, classify: classify, to: &requests)
    return requests
  }

  /// Appends ``interfaceLookups(state:answers:filter:classify:)`` to `requests`, with the eligible links
  /// (``eligibleLinks(state:filter:classify:)``) of this state when already known; when they are not and are
  /// needed, they are computed and left in `eligible`.
  package static func appendInterfaceLookups(
    state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter, eligible: inout [Eligible]?,
    classify: (NetlinkLink) -> InterfaceType, to requests: inout [RouteLookupRequest]
  ) {
    appendPrimaryMatchLookups(state: state, answers: answers, eligible: eligible, to: &requests)
    // With at most one interface up with carrier besides loopback, the primary's is the only one there is.
    guard hasSeveralUsableLinks(state: state, eligible: eligible) else { return }
    // IPv4 then IPv6, spelled out (no `[true, false]` array).
    appendInterfaceLookups(
      ipv4: true, state: state, answers: answers, filter: filter, eligible: &eligible, classify: classify,
      to: &requests)
    appendInterfaceLookups(
      ipv4: false, state: state, answers: answers, filter: filter, eligible: &eligible, classify: classify,
      to: &requests)
  }

  /// Whether at least two links are up with carrier and are not loopback (IFF_LOOPBACK).
  ///
  /// Counted among the known eligible links first, which are links of `state` (the common case, two of them, needs
  /// no more): by position, in an array, which reads a link in place, while reading one from the dictionary copies
  /// it (retaining and releasing its name, kind and address).
  package static func hasSeveralUsableLinks(state: KernelState, eligible: [Eligible]?) -> Bool {
    var count = 0
    if let eligible {
      for position in eligible.indices
      where eligible[position].link.isUsable && eligible[position].link.flags & RTNL.IFF_LOOPBACK == 0 {
        count += 1
        if count > 1 { return true }
      }
    }
    count = 0
    let links = state.links.values
    for position in links.indices where links[position].isUsable && links[position].flags & RTNL.IFF_LOOPBACK == 0 {
      count += 1
      if count > 1 { return true }
    }
    return false
  }

  /// One family's part of ``appendInterfaceLookups(state:answers:filter:eligible:classify:to:)``.
  private static func appendInterfaceLookups(
    ipv4: Bool, state: KernelState, answers: RouteLookupAnswers, filter: InterfaceFilter,
    eligible: inout [Eligible]?, classify: (NetlinkLink) -> InterfaceType, to requests: inout [RouteLookupRequest]
  ) {
    guard let primary = answers[.primary(ipv4: ipv4)] else { return }
    let primaryIndex: Int32?
    switch primaryVerdict(primary, ipv4: ipv4, state: state, filter: filter, knowing: eligible, classify) {
    case .blocked:
      // A leg without carrier of a multipath route: the other legs are asked, as when skipped.
      guard primaryLegIsDown(ipv4: ipv4, state: state, answers: answers, eligible: eligible) else { return }
      primaryIndex = nil
    case .skipped: primaryIndex = nil
    case .usable(let candidate): primaryIndex = candidate.index
    }
    if eligible == nil { eligible = eligibleLinks(state: state, filter: filter, classify: classify) }
    guard let known = eligible else { return }
    for position in known.indices where known[position].link.index != primaryIndex {
      let index = known[position].link.index
      requests.append(RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: true))
      requests.append(RouteLookupRequest(ipv4: ipv4, interfaceIndex: index, fibMatch: false))
    }
  }
}
