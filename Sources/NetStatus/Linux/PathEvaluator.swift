/// Turns the kernel's state into a ``NetworkPath``. Pure: the same inputs always give the same path.
///
/// The rules (DESIGN.md, "Linux rules"):
/// - A default route (destination length 0), in any table but `local`, counts when its type is unicast
///   (not unreachable, blackhole, prohibit or throw), it has a next hop with an outgoing interface, that next
///   hop is not flagged RTNH_F_LINKDOWN or RTNH_F_DEAD, and the interface is up with carrier
///   (``NetlinkLink/isUsable``). Each next hop of a multipath route counts on its own.
/// - The filter is applied here: next hops through interfaces it does not allow do not count, so a path
///   only a disallowed interface could carry is unsatisfied (`notAvailable`). Loopback never carries a
///   default path; when loopback is the required type, the path is satisfied by an up loopback interface.
/// - Preference: routes in tables other than `main` and `default` first (policy routing consults them
///   before `main`, which is how full-tunnel VPNs such as wg-quick take over), then `main`, then `default`;
///   within that, the lowest metric first; then IPv4 before IPv6, then the lower interface index.
/// - `availableInterfaces`: the interfaces with a counted default route, in that order. Interfaces that are
///   up but have no default route are not listed: they cannot carry traffic beyond their own link.
/// - `supportsIPv4`/`supportsIPv6`: one of the available interfaces has both a counted default route of
///   that family and a usable address of that family (not tentative, not dadfailed, not link-local).
/// - `isExpensive`: the preferred interface is cellular. `isConstrained`: always false on Linux.
/// - `gateways`: the counted default routes' gateways, in preference order, without repeats.
enum PathEvaluator {
  /// A counted default-route next hop.
  struct Candidate: Sendable, Hashable {
    var link: NetlinkLink
    var type: InterfaceType
    var family: UInt8
    var gateway: IPAddressBytes?
    var tableRank: Int
    var metric: UInt32
  }

  /// The path for this state.
  ///
  /// - Parameters:
  ///   - state: The kernel's links, addresses and routes.
  ///   - supportsDNS: Whether a resolver is configured.
  ///   - filter: The interface types the path may use.
  ///   - classify: The type of a link (see ``InterfaceClassifier``).
  static func evaluate(
    state: KernelState, supportsDNS: Bool, filter: InterfaceFilter = .none,
    classify: (NetlinkLink) -> InterfaceType
  ) -> NetworkPath {
    if filter.requiredInterfaceType == .loopback {
      return loopbackPath(state: state, supportsDNS: supportsDNS, filter: filter, classify: classify)
    }
    let candidates = defaultRouteCandidates(state: state, filter: filter, classify: classify)
    guard let first = candidates.first else {
      return NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: supportsDNS)
    }
    // Candidates are few (one per default-route next hop): linear scans beat hashing here, and this runs on
    // every change.
    var interfaces: [NetworkInterface] = []
    var gatewayBytes: [IPAddressBytes] = []
    for candidate in candidates {
      let index = Int(candidate.link.index)
      if !interfaces.contains(where: { $0.index == index }) {
        interfaces.append(NetworkInterface(name: candidate.link.name, index: index, type: candidate.type))
      }
      if let gateway = candidate.gateway, !gatewayBytes.contains(gateway) {
        gatewayBytes.append(gateway)
      }
    }
    // A family is supported when an interface has both a counted default route and a usable address of it.
    var supportsIPv4 = false
    var supportsIPv6 = false
    for address in state.addresses.values where address.isUsableBeyondLink {
      let family = address.address.isIPv4 ? RTNL.AF_INET : RTNL.AF_INET6
      guard family == RTNL.AF_INET ? !supportsIPv4 : !supportsIPv6,
        candidates.contains(where: { $0.link.index == address.interfaceIndex && $0.family == family })
      else { continue }
      if family == RTNL.AF_INET { supportsIPv4 = true } else { supportsIPv6 = true }
      if supportsIPv4 && supportsIPv6 { break }
    }
    return NetworkPath(
      status: .satisfied,
      availableInterfaces: interfaces,
      isExpensive: first.type == .cellular,
      isConstrained: false,
      supportsIPv4: supportsIPv4,
      supportsIPv6: supportsIPv6,
      supportsDNS: supportsDNS,
      gateways: gatewayBytes.map(\.description)
    )
  }

  /// The counted default-route next hops, most preferred first.
  static func defaultRouteCandidates(
    state: KernelState, filter: InterfaceFilter, classify: (NetlinkLink) -> InterfaceType
  ) -> [Candidate] {
    var candidates: [Candidate] = []
    for route in state.routes.values
    where route.destinationLength == 0 && route.type == RTNL.RTN_UNICAST && route.table != RTNL.RT_TABLE_LOCAL {
      for hop in route.nextHops {
        guard hop.flags & (RTNL.RTNH_F_LINKDOWN | RTNL.RTNH_F_DEAD) == 0,
          let index = hop.interfaceIndex, let link = state.links[index], link.isUsable
        else { continue }
        let type = classify(link)
        guard type != .loopback, filter.allows(type) else { continue }
        candidates.append(
          Candidate(
            link: link, type: type, family: route.family, gateway: hop.gateway, tableRank: tableRank(route.table),
            metric: route.priority))
      }
    }
    return candidates.sorted { a, b in
      if a.tableRank != b.tableRank { return a.tableRank < b.tableRank }
      if a.metric != b.metric { return a.metric < b.metric }
      if a.family != b.family { return a.family < b.family }
      if a.link.index != b.link.index { return a.link.index < b.link.index }
      return (a.gateway?.description ?? "") < (b.gateway?.description ?? "")
    }
  }

  /// Policy tables first, then `main`, then `default`: the order of the usual rule set.
  private static func tableRank(_ table: UInt32) -> Int {
    switch table {
    case RTNL.RT_TABLE_MAIN: return 1
    case RTNL.RT_TABLE_DEFAULT: return 2
    default: return 0
    }
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
