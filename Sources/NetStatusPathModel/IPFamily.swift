/// An IP address family, as a connectivity check is restricted to one: the probe host's A (IPv4) or AAAA (IPv6)
/// addresses.
package enum IPFamily: Sendable, Hashable, CaseIterable {
  case ipv4
  case ipv6

  /// `IPv4`, `IPv6`.
  package var label: String { self == .ipv4 ? "IPv4" : "IPv6" }

  /// Whether `path` supports the family (``NetworkPath/supportsIPv4``, ``NetworkPath/supportsIPv6``).
  package func isSupported(by path: NetworkPath) -> Bool {
    self == .ipv4 ? path.supportsIPv4 : path.supportsIPv6
  }
}
