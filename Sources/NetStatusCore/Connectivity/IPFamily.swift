/// An IP address family, as a connectivity check is restricted to one: the probe host's A (IPv4) or AAAA (IPv6)
/// addresses.
package enum IPFamily: Sendable, Hashable, CaseIterable {
  case ipv4
  case ipv6

  /// `IPv4`, `IPv6`.
  package var label: String { self == .ipv4 ? "IPv4" : "IPv6" }

  /// Whether `path` supports the family (``NetworkPath/supportsIPv4``, ``NetworkPath/supportsIPv6``).
  func isSupported(by path: NetworkPath) -> Bool {
    self == .ipv4 ? path.supportsIPv4 : path.supportsIPv6
  }

  /// The family of an IP literal host (`192.0.2.1`, or `2001:db8::1` as a URL gives it between brackets), or `nil`
  /// for a name: a literal can only be reached over its own family.
  static func ofLiteral(_ endpoint: HTTPProbeURL) -> IPFamily? {
    if endpoint.isIPv6Literal { return .ipv6 }
    let parts = endpoint.host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else { return nil }
    return .ipv4
  }
}
