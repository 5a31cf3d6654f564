#if canImport(Network)
  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network, for the tests
  // (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatusCore
  #endif

  extension NWPathMonitorSource {
    /// The name prefixes of the tunnels `NWPath` lists: `utun` (Network Extension VPNs: IKEv2, WireGuard, Tailscale,
    /// OpenVPN Connect, iCloud Private Relay's tunnels…), `ipsec` (IPsec, Cisco IPSec), `ppp` (PPP, L2TP).
    static let tunnelNamePrefixes = ["utun", "ipsec", "ppp"]

    /// The VPN of a path whose interfaces `NWPath` gave, as a best effort: Network says neither which interface is a
    /// VPN nor what carries it. The path goes through a VPN when its first interface has type
    /// ``InterfaceType/other`` and a tunnel's name (``tunnelNamePrefixes``, followed by a digit); the underlying type
    /// is that of the first of the other interfaces that is not a tunnel, `nil` when there is none.
    static func vpn(of interfaces: [NetworkInterface]) -> NetworkPath.VPN? {
      guard let first = interfaces.first, isTunnel(first) else { return nil }
      let underlying = interfaces.dropFirst().first { !isTunnel($0) }
      return NetworkPath.VPN(interface: first, underlyingInterfaceType: underlying?.type)
    }

    /// Whether `interface` looks like a tunnel: type ``InterfaceType/other`` and a tunnel's name and number.
    static func isTunnel(_ interface: NetworkInterface) -> Bool {
      guard interface.type == .other else { return false }
      return tunnelNamePrefixes.contains { prefix in
        interface.name.hasPrefix(prefix) && interface.name.dropFirst(prefix.count).first?.isNumber == true
      }
    }
  }
#endif
