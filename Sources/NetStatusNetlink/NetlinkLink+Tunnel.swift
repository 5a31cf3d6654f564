extension NetlinkLink {
  /// The link kinds (`IFLA_INFO_KIND`) of tunnels: a path through one goes through a VPN or tunnel.
  /// - `tun` (TUN and TAP devices, the kind of both): OpenVPN, wireguard-go, Tailscale, and other user-space VPNs;
  /// - `wireguard`: the kernel's WireGuard;
  /// - `ipip`, `gre`, `gretap`, `sit`, `ip6tnl`, `ip6gre`, `ip6gretap`: IP-in-IP and GRE tunnels;
  /// - `xfrm`, `vti`, `vti6`: IPsec interfaces;
  /// - `ppp`: PPP, which carries PPTP and L2TP VPNs (and DSL's PPPoE, which is a tunnel too).
  package static let tunnelKinds: Set<String> = [
    "tun", "wireguard", "ipip", "gre", "gretap", "sit", "ip6tnl", "ip6gre", "ip6gretap", "xfrm", "vti", "vti6", "ppp",
  ]

  /// Whether the link is a VPN or tunnel: its kind is one of ``tunnelKinds`` or, when the kernel gives no kind (a
  /// kernel or driver without `rtnl_link_ops`), its hardware type (`ifi_type`) is a tunnel's: PPP, IPv4 or IPv6
  /// tunnel, SIT, GRE, IPv6 GRE, or none (an IP device without a link layer: TUN, WireGuard, xfrm).
  package var isTunnel: Bool {
    if let kind, !kind.isEmpty { return Self.tunnelKinds.contains(kind) }
    switch hardwareType {
    case RTNL.ARPHRD_PPP, RTNL.ARPHRD_TUNNEL, RTNL.ARPHRD_TUNNEL6, RTNL.ARPHRD_SIT, RTNL.ARPHRD_IPGRE,
      RTNL.ARPHRD_IP6GRE, RTNL.ARPHRD_NONE:
      return true
    default:
      return false
    }
  }
}
