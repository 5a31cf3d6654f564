extension NetworkPath {
  /// The VPN or tunnel a path goes through: its interface, and the type of the interface it rides on.
  ///
  /// A path has one when the traffic of one of its address families goes through a tunnel: the interface the kernel
  /// chose for it is a tunnel. Usually that is the interface in use (the first of
  /// ``NetworkPath/availableInterfaces``); when a tunnel carries only IPv6, it is IPv6's. A family the path carries
  /// that goes around the tunnel is said: ``isBypassedByIPv4`` and ``isBypassedByIPv6`` (a tunnel with only an IPv4
  /// default route leaves IPv6 to the physical interface, where it leaks). ``NetworkPath/interfaceType`` keeps
  /// `NWPath`'s meaning: a tunnel's own type is ``InterfaceType/other``; what carries it is
  /// ``underlyingInterfaceType``.
  ///
  /// - On Linux the tunnel is told by its link kind (`IFLA_INFO_KIND`: `tun`/`tap`, which covers OpenVPN,
  ///   wireguard-go and Tailscale; `wireguard`; `ipip`, `gre`, `sit`, `ip6tnl`; `xfrm`, `vti`; `ppp`) or, when the
  ///   kernel gives no kind, by its hardware type (PPP, IP tunnels, GRE, or none). Each family is judged by the
  ///   kernel's own route lookup for it (`ip route get`). The underlying type is that of the first interface of the
  ///   path that is not a tunnel: the kernel's route lookups for the other interfaces (see
  ///   ``NetworkPath/availableInterfaces``), so `nil` when the tunnel is the path's only interface.
  /// - On Apple platforms it is a best effort from the names `NWPath` gives (`utun…`, `ipsec…`, `ppp…`) and their
  ///   type ``InterfaceType/other``: Network does not say which interface is a VPN, nor what carries it, nor where
  ///   each family goes, so no family is said to bypass it.
  ///
  /// In JSON: `"vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet","bypassedByIPv4":false,
  /// "bypassedByIPv6":true}`, or `"vpn":null`.
  ///
  /// ```swift
  /// if let vpn = path.vpn, !vpn.isBypassed {
  ///   print("every family goes through \(vpn.interface.name)")
  /// }
  /// ```
  public struct VPN: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The tunnel's interface: one of the path's ``NetworkPath/availableInterfaces``, the one in use.
    public var interface: NetworkInterface
    /// The type of the interface the tunnel rides on, or `nil` when the path does not say (the tunnel is its only
    /// interface).
    public var underlyingInterfaceType: InterfaceType?
    /// Whether the path carries IPv4 and its IPv4 traffic goes around every tunnel: the kernel routes it through
    /// an interface that is not one.
    public var isBypassedByIPv4: Bool
    /// Whether the path carries IPv6 and its IPv6 traffic goes around every tunnel: the kernel routes it through
    /// an interface that is not one (a tunnel with an IPv4 default route only leaves IPv6 there).
    public var isBypassedByIPv6: Bool

    /// Whether a family the path carries goes around the tunnel (``isBypassedByIPv4`` or ``isBypassedByIPv6``):
    /// `false` when all the path's traffic goes through tunnels, which is what `netstatus wait --vpn` waits for.
    @inlinable public var isBypassed: Bool { isBypassedByIPv4 || isBypassedByIPv6 }

    /// Creates a description of the VPN a path goes through, which every family of the path goes through.
    @inlinable public init(interface: NetworkInterface, underlyingInterfaceType: InterfaceType?) {
      self.init(
        interface: interface, underlyingInterfaceType: underlyingInterfaceType, isBypassedByIPv4: false,
        isBypassedByIPv6: false)
    }

    /// Creates a description of the VPN a path goes through, saying which families go around it.
    @inlinable public init(
      interface: NetworkInterface, underlyingInterfaceType: InterfaceType?, isBypassedByIPv4: Bool,
      isBypassedByIPv6: Bool
    ) {
      self.interface = interface
      self.underlyingInterfaceType = underlyingInterfaceType
      self.isBypassedByIPv4 = isBypassedByIPv4
      self.isBypassedByIPv6 = isBypassedByIPv6
    }

    /// `tun0 over wiredEthernet`, `tun0` when the underlying type is unknown, then `, bypassed by IPv6` when a
    /// family goes around it.
    public var description: String {
      var text = interface.name.escapingControlCharacters()
      if let underlyingInterfaceType { text += " over \(underlyingInterfaceType)" }
      if isBypassedByIPv4 { text += ", bypassed by IPv4" }
      if isBypassedByIPv6 { text += ", bypassed by IPv6" }
      return text
    }

    /// The JSON keys, in the order they are written.
    package enum CodingKeys: String, CodingKey, CaseIterable {
      case interface, underlyingInterfaceType, bypassedByIPv4, bypassedByIPv6
    }

    /// Decodes `{"interface":"tun0","underlyingInterfaceType":…,"bypassedByIPv4":…,"bypassedByIPv6":…}`. JSON
    /// holds the interface's name only: the interface is named, index 0, type ``InterfaceType/other``, until a path's
    /// decoder finds it among its interfaces. JSON without the `bypassedBy…` keys (written before they existed)
    /// decodes as bypassed by no family.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        interface: NetworkInterface(
          name: try container.decode(String.self, forKey: .interface), index: 0, type: .other),
        underlyingInterfaceType: try container.decodeIfPresent(InterfaceType.self, forKey: .underlyingInterfaceType),
        isBypassedByIPv4: try container.decodeIfPresent(Bool.self, forKey: .bypassedByIPv4) ?? false,
        isBypassedByIPv6: try container.decodeIfPresent(Bool.self, forKey: .bypassedByIPv6) ?? false)
    }

    /// Encodes `{"interface":"tun0","underlyingInterfaceType":…,"bypassedByIPv4":…,"bypassedByIPv6":…}`, `null`
    /// included.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(interface.name, forKey: .interface)
      if let underlyingInterfaceType {
        try container.encode(underlyingInterfaceType, forKey: .underlyingInterfaceType)
      } else {
        try container.encodeNil(forKey: .underlyingInterfaceType)
      }
      try container.encode(isBypassedByIPv4, forKey: .bypassedByIPv4)
      try container.encode(isBypassedByIPv6, forKey: .bypassedByIPv6)
    }
  }
}
