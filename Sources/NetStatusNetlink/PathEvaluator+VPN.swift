#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// Whether a path goes through a VPN, over what, and which of its families go around it: the `vpn` rule of
// `PathEvaluator` (PathEvaluator.swift).
extension PathEvaluator {
  /// Each family's first candidate: the interface the kernel sends that family's traffic through (or, for a
  /// filtered monitor, the first the filter allows), `nil` when the family has no path.
  package struct FamilyFirsts: Sendable, Equatable {
    package var ipv4: Candidate?
    package var ipv6: Candidate?

    package init(ipv4: Candidate? = nil, ipv6: Candidate? = nil) {
      self.ipv4 = ipv4
      self.ipv6 = ipv6
    }
  }

  /// The VPN of a path whose interfaces are `interfaces` (in the evaluator's order) and whose families go first
  /// through `firsts`, in `state`.
  ///
  /// The rule, per family, from the kernel's own lookup for it: a family goes through a tunnel when its first
  /// candidate is one (``NetlinkLink/isTunnel``). The path goes through a VPN when a family does; the VPN's interface
  /// is IPv4's tunnel, or IPv6's when only IPv6 goes through one. A family the path carries whose first candidate is
  /// not a tunnel bypasses it: a tunnel with an IPv4 default route only leaves IPv6 to the physical interface. What
  /// the VPN rides on is the first of the path's interfaces, in its order (the kernel's per-interface lookups, by
  /// metric), that is not a tunnel: the interface through which the kernel would route off-link traffic if the
  /// tunnel were not there. The tunnel's own outer packets go to its server through a host route, which a lookup
  /// for the path's destination does not see; when no other interface could carry the default path (the tunnel is
  /// the only candidate), the underlying type is `nil`.
  ///
  /// A tunnel classifies as ``InterfaceType/other``: by its kind (NetlinkLink+InterfaceType.swift), or, without one,
  /// because it is not Ethernet and has no Wi-Fi or modem device (InterfaceClassifier), so a family over another
  /// type is settled without looking further. The tunnels are known when links change (``KernelState/tunnels``), so
  /// a route change reads no link: without a tunnel, the check is one empty array.
  package static func vpn(
    of interfaces: [NetworkInterface], firsts: FamilyFirsts, state: KernelState
  ) -> NetworkPath.VPN? {
    let tunnels = state.tunnels
    guard !tunnels.isEmpty else { return nil }
    func isTunnel(_ candidate: Candidate?) -> Bool {
      guard let candidate, candidate.type == .other else { return false }
      return tunnels.contains(candidate.index)
    }
    let ipv4 = isTunnel(firsts.ipv4)
    let ipv6 = isTunnel(firsts.ipv6)
    guard let tunnel = ipv4 ? firsts.ipv4 : ipv6 ? firsts.ipv6 : nil,
      let interface = interfaces.first(where: { $0.index == Int(tunnel.index) })
    else { return nil }
    let underlying = underlyingInterface(of: interfaces, state: state)
    return NetworkPath.VPN(
      interface: interface, underlyingInterfaceType: underlying?.type,
      isBypassedByIPv4: firsts.ipv4 != nil && !ipv4, isBypassedByIPv6: firsts.ipv6 != nil && !ipv6)
  }

  /// What a VPN among `interfaces` rides on: the first of them that is not a tunnel (see ``vpn(of:firsts:state:)``).
  package static func underlyingInterface(of interfaces: [NetworkInterface], state: KernelState) -> NetworkInterface? {
    interfaces.first { !state.tunnels.contains(Int32(truncatingIfNeeded: $0.index)) }
  }
}
