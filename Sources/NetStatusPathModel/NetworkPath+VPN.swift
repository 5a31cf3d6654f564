extension NetworkPath {
  /// The VPN or tunnel a path goes through: its interface, and the type of the interface it rides on.
  ///
  /// A path has one when its interface in use (the first of ``NetworkPath/availableInterfaces``) is a tunnel.
  /// ``NetworkPath/interfaceType`` keeps `NWPath`'s meaning: a tunnel's own type is ``InterfaceType/other``; what
  /// carries it is ``underlyingInterfaceType``.
  ///
  /// - On Linux the tunnel is told by its link kind (`IFLA_INFO_KIND`: `tun`/`tap`, which covers OpenVPN,
  ///   wireguard-go and Tailscale; `wireguard`; `ipip`, `gre`, `sit`, `ip6tnl`; `xfrm`, `vti`; `ppp`) or, when the
  ///   kernel gives no kind, by its hardware type (PPP, IP tunnels, GRE, or none). The underlying type is that of
  ///   the first interface of the path that is not a tunnel: the kernel's route lookups for the other interfaces
  ///   (see ``NetworkPath/availableInterfaces``), so `nil` when the tunnel is the path's only interface.
  /// - On Apple platforms it is a best effort from the names `NWPath` gives (`utun…`, `ipsec…`, `ppp…`) and their
  ///   type ``InterfaceType/other``: Network does not say which interface is a VPN, nor what carries it.
  ///
  /// In JSON: `"vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet"}`, or `"vpn":null`.
  public struct VPN: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The tunnel's interface: one of the path's ``NetworkPath/availableInterfaces``, the one in use.
    public var interface: NetworkInterface
    /// The type of the interface the tunnel rides on, or `nil` when the path does not say (the tunnel is its only
    /// interface).
    public var underlyingInterfaceType: InterfaceType?

    /// Creates a description of the VPN a path goes through.
    @inlinable public init(interface: NetworkInterface, underlyingInterfaceType: InterfaceType?) {
      self.interface = interface
      self.underlyingInterfaceType = underlyingInterfaceType
    }

    /// `tun0 over wiredEthernet`, or `tun0` when the underlying type is unknown.
    public var description: String {
      let name = interface.name.escapingControlCharacters()
      guard let underlyingInterfaceType else { return name }
      return "\(name) over \(underlyingInterfaceType)"
    }

    /// The JSON keys, in the order they are written.
    package enum CodingKeys: String, CodingKey, CaseIterable {
      case interface, underlyingInterfaceType
    }

    /// Decodes `{"interface":"tun0","underlyingInterfaceType":…}`. JSON holds the interface's name only: the
    /// interface is named, index 0, type ``InterfaceType/other``, until a path's decoder finds it among its
    /// interfaces.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        interface: NetworkInterface(
          name: try container.decode(String.self, forKey: .interface), index: 0, type: .other),
        underlyingInterfaceType: try container.decodeIfPresent(InterfaceType.self, forKey: .underlyingInterfaceType))
    }

    /// Encodes `{"interface":"tun0","underlyingInterfaceType":…}`, `null` included.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(interface.name, forKey: .interface)
      if let underlyingInterfaceType {
        try container.encode(underlyingInterfaceType, forKey: .underlyingInterfaceType)
      } else {
        try container.encodeNil(forKey: .underlyingInterfaceType)
      }
    }
  }
}
