#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

// Whether a path goes through a VPN, and over what: the `vpn` rule of `PathEvaluator` (PathEvaluator.swift).
extension PathEvaluator {
  /// The VPN of a path whose interfaces are `interfaces` (in the evaluator's order), in `state`.
  ///
  /// The rule: the path goes through a VPN when its first interface (the kernel's own choice, the one in use) is a
  /// tunnel (``NetlinkLink/isTunnel``). What it rides on is the first of the other interfaces, in the path's order
  /// (the kernel's per-interface lookups, by metric), that is not a tunnel: the interface through which the kernel
  /// would route off-link traffic if the tunnel were not there. The tunnel's own outer packets go to its server
  /// through a host route, which a lookup for the path's destination does not see; when no other interface could
  /// carry the default path (the tunnel is the only candidate), the underlying type is `nil`.
  ///
  /// A tunnel classifies as ``InterfaceType/other``: by its kind (NetlinkLink+InterfaceType.swift), or, without one,
  /// because it is not Ethernet and has no Wi-Fi or modem device (InterfaceClassifier), so a path over another type
  /// is settled without looking further. The tunnels are known when links change (``KernelState/tunnels``), so a
  /// route change reads no link: without a tunnel, the check is one empty array.
  package static func vpn(of interfaces: [NetworkInterface], state: KernelState) -> NetworkPath.VPN? {
    let tunnels = state.tunnels
    guard !tunnels.isEmpty, let first = interfaces.first, first.type == .other,
      tunnels.contains(Int32(truncatingIfNeeded: first.index))
    else { return nil }
    let underlying = interfaces.dropFirst().first { !tunnels.contains(Int32(truncatingIfNeeded: $0.index)) }
    return NetworkPath.VPN(interface: first, underlyingInterfaceType: underlying?.type)
  }
}
