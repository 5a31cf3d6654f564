/// The kind of link a network interface uses.
///
/// NetStatus's own enumeration, so that it can be `CaseIterable`, `Codable` and identical on every
/// platform. On Apple platforms it maps one to one to `NWInterface.InterfaceType`.
///
/// ```swift
/// if NetworkMonitor.shared.interfaceType == .cellular {
///     lowerImageQuality()
/// }
/// ```
public enum InterfaceType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// A virtual or unknown interface: a VPN tunnel, a bridge, a veth pair, a PPP link.
  case other
  /// A Wi-Fi (IEEE 802.11) interface.
  case wifi
  /// A cellular (WWAN) interface.
  case cellular
  /// A wired Ethernet interface backed by a real device.
  case wiredEthernet
  /// The loopback interface.
  case loopback

  /// The JSON spelling: `other`, `wifi`, `cellular`, `wiredEthernet` or `loopback`.
  public var description: String { rawValue }
}
