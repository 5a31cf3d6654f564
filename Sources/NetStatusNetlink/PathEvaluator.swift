#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

/// Turns the mirrored links and addresses and the kernel's route-lookup answers into a ``NetworkPath``.
/// Pure: the same inputs always give the same path. It also says which lookups it needs
/// (``primaryLookups(state:)``, then ``interfaceLookups(state:answers:filter:classify:)``); the event loop
/// asks the kernel and hands the answers back.
///
/// The rules (README, "How it works"):
/// - Per family, the **primary** lookup (`ip route get DEST`) is the kernel's own routing decision. Its
///   answer is *usable* when it is a unicast route whose out interface is up with carrier (IFF_UP and
///   IFF_LOWER_UP) and whose source address (RTA_PREFSRC) is one of the host's addresses that is usable
///   beyond the link (not tentative, not dadfailed, not link-local, not loopback). A family whose primary
///   failed or is not usable has no path: unbound traffic would go where the kernel sends it, and fail.
/// - **Multipath**: when the primary's answer goes through an interface that is not up with carrier, the FIB-match
///   lookup of the primary (`ip route get fibmatch DEST`) gives the matched route's legs (RTA_MULTIPATH). The family
///   has a path when a leg is usable (not RTNH_F_LINKDOWN nor RTNH_F_DEAD, its interface up with carrier and allowed):
///   the kernel hashes other flows to it. Its first candidate is the kernel's leg if usable, else the first usable
///   leg; the other legs come from the per-interface lookups (PathEvaluator+Multipath.swift).
/// - **Per-interface** lookups (`ip route get fibmatch DEST oif IF`, then `ip route get DEST oif IF`) for
///   every other up interface with carrier that the filter allows tell which interfaces could carry the
///   default path too; they are listed after the primary, by the matched route's metric. The FIB-match
///   lookup must succeed: without it, the kernel answers an out-interface lookup that matches no route with
///   a made-up on-link route.
/// - A primary answer through an interface the filter does not allow is skipped instead: a filtered monitor
///   then sees the interfaces it allows that the kernel could route through.
/// - A family with no usable address is not looked up at all: no answer could be usable.
/// - `availableInterfaces`: IPv4's first candidate, IPv6's first candidate, then the other candidates of
///   both families by metric (IPv4 first at equal metric, then the lower index); each interface once.
///   `gateways` follow the same order. `supportsIPv4`/`supportsIPv6`: that family has a candidate.
/// - `isExpensive`: the first interface is cellular. `isConstrained`: always false on Linux.
/// - `vpn`: when a family's first candidate (the interface its traffic goes through) is a tunnel, that tunnel
///   (IPv4's when both are), the type of the first interface of the path that is not one, and each family the path
///   carries whose first candidate is not a tunnel, as bypassing it (``vpn(of:firsts:state:)``).
/// - When loopback is the required type, the path is satisfied by an up loopback interface; no lookup is
///   made.
package enum PathEvaluator {
  /// A usable lookup answer: an interface that can carry the default path of one family.
  ///
  /// Plain values only: candidates are made, copied and compared on every change, and a name (or a whole
  /// ``NetlinkLink``) would be retained and released with each copy. The name is read from the state once the
  /// path's interfaces are known (``interface(_:state:eligible:)``).
  package struct Candidate: Sendable, Hashable {
    /// The interface's index.
    package var index: Int32
    package var type: InterfaceType
    package var ipv4: Bool
    package var gateway: IPAddressBytes?
    /// The matched route's metric (per-interface lookups); 0 for the primary, which comes first anyway.
    package var metric: UInt32
  }

  /// The path for this state and these answers.
  ///
  /// - Parameters:
  ///   - state: The kernel's links and addresses.
  ///   - answers: The kernel's answers to the lookups this type asked for; a lookup without an answer
  ///     counts as not asked.
  ///   - supportsDNS: Whether a resolver is configured.
  ///   - filter: The interface types the path may use.
  ///   - classify: The type of a link (see ``InterfaceClassifier``).
  package static func evaluate(
    state: KernelState, answers: RouteLookupAnswers, supportsDNS: Bool, filter: InterfaceFilter = .unrestricted,
    classify: (NetlinkLink) -> InterfaceType
  ) -> NetworkPath {
    var eligible: [Eligible]?
    return evaluate(
      state: state, answers: answers, supportsDNS: supportsDNS, filter: filter, eligible: &eligible, classify: classify)
  }

  /// ``evaluate(state:answers:supportsDNS:filter:classify:)`` with the eligible links of this state when already
  /// known; when they are not and are needed, they are computed and left in `eligible`.
  package static func evaluate(
    state: KernelState, answers: RouteLookupAnswers, supportsDNS: Bool, filter: InterfaceFilter,
    eligible known: inout [Eligible]?, classify: (NetlinkLink) -> InterfaceType
  ) -> NetworkPath {
    var firsts = FamilyFirsts()
    var path = evaluateInterfaces(
      state: state, answers: answers, supportsDNS: supportsDNS, filter: filter, eligible: &known, firsts: &firsts,
      classify: classify)
    guard path.status == .satisfied else {
      // A required loopback is judged without lookups: nothing more to say than that none is up.
      if filter.requiredInterfaceType != .loopback {
        path.unsatisfiedCause = unsatisfiedCause(state: state, answers: answers, filter: filter, classify: classify)
      }
      return path
    }
    // Set only when there is one: the setter's check for none copies the path's VPN, on every evaluation.
    if let vpn = vpn(of: path.availableInterfaces, firsts: firsts, state: state) { path.vpn = vpn }
    return path
  }

  /// The path of ``evaluate(state:answers:supportsDNS:filter:eligible:classify:)`` before its VPN is known, and in
  /// `firsts` each family's first candidate: the interface its traffic goes through.
  private static func evaluateInterfaces(
    state: KernelState, answers: RouteLookupAnswers, supportsDNS: Bool, filter: InterfaceFilter,
    eligible known: inout [Eligible]?, firsts: inout FamilyFirsts, classify: (NetlinkLink) -> InterfaceType
  ) -> NetworkPath {
    if filter.requiredInterfaceType == .loopback {
      return loopbackPath(state: state, supportsDNS: supportsDNS, filter: filter, classify: classify)
    }
    // Only links with a per-interface answer can add a candidate; the common case (one interface) has none.
    var eligible: [Eligible] = []
    if answers.count > 2 {
      if known == nil { known = eligibleLinks(state: state, filter: filter, classify: classify) }
      eligible = known ?? []
    }
    let ipv4 = candidates(ipv4: true, state: state, answers: answers, filter: filter, eligible: eligible, classify)
    let ipv6 = candidates(ipv4: false, state: state, answers: answers, filter: filter, eligible: eligible, classify)
    firsts = FamilyFirsts(ipv4: ipv4.first, ipv6: ipv6.first)
    if ipv4.others.isEmpty && ipv6.others.isEmpty {
      return primariesPath(
        ipv4: ipv4.primary, ipv6: ipv6.primary, state: state, eligible: known, supportsDNS: supportsDNS)
    }
    let all4 = ipv4.all
    let all6 = ipv6.all
    var ordered: [Candidate]
    if all4.isEmpty || all6.isEmpty {
      // One family: its candidates are already in order (the first, then the others by metric and index).
      ordered = all6.isEmpty ? all4 : all6
    } else {
      ordered = []
      ordered.reserveCapacity(all4.count + all6.count)
      ordered.append(all4[0])
      ordered.append(all6[0])
      if all4.count > 1 || all6.count > 1 {
        ordered += (Array(all4.dropFirst()) + Array(all6.dropFirst())).sorted { a, b in
          if a.metric != b.metric { return a.metric < b.metric }
          if a.ipv4 != b.ipv4 { return a.ipv4 }
          return a.index < b.index
        }
      }
    }
    guard let first = ordered.first else {
      return NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: supportsDNS)
    }
    // Candidates are few (one per interface and family): linear scans beat hashing here.
    var interfaces: [NetworkInterface] = []
    interfaces.reserveCapacity(ordered.count)
    var gateways: [String] = []
    for (position, candidate) in ordered.enumerated() {
      let index = Int(candidate.index)
      if !interfaces.contains(where: { $0.index == index }) {
        interfaces.append(interface(candidate, state: state, eligible: known))
      }
      // A gateway once, where it first appears.
      if let gateway = candidate.gateway, !ordered[..<position].contains(where: { $0.gateway == gateway }) {
        gateways.append(gateway.description)
      }
    }
    return NetworkPath(
      status: .satisfied,
      availableInterfaces: interfaces,
      isExpensive: first.type == .cellular,
      isConstrained: false,
      supportsIPv4: !all4.isEmpty,
      supportsIPv6: !all6.isEmpty,
      supportsDNS: supportsDNS,
      gateways: gateways
    )
  }

  /// The path when no family has a candidate besides its primary (the common case): the rules of
  /// ``evaluate(state:answers:supportsDNS:filter:classify:)`` for at most one candidate per family, without the
  /// arrays that order more.
  private static func primariesPath(
    ipv4: Candidate?, ipv6: Candidate?, state: KernelState, eligible: [Eligible]?, supportsDNS: Bool
  ) -> NetworkPath {
    guard let first = ipv4 ?? ipv6 else {
      return NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: supportsDNS)
    }
    var interfaces = [interface(first, state: state, eligible: eligible)]
    // Made at its size, not grown from empty.
    var gateways = first.gateway.map { [$0.description] } ?? []
    // Both families: IPv6's primary second, its interface and gateway once.
    if ipv4 != nil, let second = ipv6 {
      if second.index != first.index {
        interfaces.append(interface(second, state: state, eligible: eligible))
      }
      if let gateway = second.gateway, gateway != first.gateway { gateways.append(gateway.description) }
    }
    return NetworkPath(
      status: .satisfied,
      availableInterfaces: interfaces,
      isExpensive: first.type == .cellular,
      isConstrained: false,
      supportsIPv4: ipv4 != nil,
      supportsIPv6: ipv6 != nil,
      supportsDNS: supportsDNS,
      gateways: gateways
    )
  }

  /// The path's interface for `candidate`, named from `state` (which has its link), or from `eligible` (eligible
  /// links of `state`) when its link is there: read in place, where the dictionary would copy the whole link.
  private static func interface(_ candidate: Candidate, state: KernelState, eligible: [Eligible]?) -> NetworkInterface {
    let index = Int(candidate.index)
    if let eligible {
      for position in eligible.indices where eligible[position].link.index == candidate.index {
        return NetworkInterface(name: eligible[position].link.name, index: index, type: candidate.type)
      }
    }
    return NetworkInterface(name: state.links[candidate.index]?.name ?? "", index: index, type: candidate.type)
  }

  /// The path when loopback is the required type: satisfied when a loopback interface is up.
  private static func loopbackPath(
    state: KernelState, supportsDNS: Bool, filter: InterfaceFilter, classify: (NetlinkLink) -> InterfaceType
  ) -> NetworkPath {
    let loopbacks = state.links.values.filter { $0.isUsable && classify($0) == .loopback && filter.allows(.loopback) }
      .sorted { $0.index < $1.index }
    guard !loopbacks.isEmpty else {
      return NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: supportsDNS)
    }
    let indexes = Set(loopbacks.map(\.index))
    let addresses = state.addresses.values.filter {
      indexes.contains($0.interfaceIndex) && $0.flags & (RTNL.IFA_F_TENTATIVE | RTNL.IFA_F_DADFAILED) == 0
    }
    return NetworkPath(
      status: .satisfied,
      availableInterfaces: loopbacks.map { NetworkInterface(name: $0.name, index: Int($0.index), type: .loopback) },
      supportsIPv4: addresses.contains { $0.address.isIPv4 },
      supportsIPv6: addresses.contains { !$0.address.isIPv4 },
      supportsDNS: supportsDNS
    )
  }
}
