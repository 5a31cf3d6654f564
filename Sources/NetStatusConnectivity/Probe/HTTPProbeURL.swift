#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// An `http://` URL taken apart for a probe request. Pure.
///
/// Only plain HTTP: a captive portal can only intercept plain HTTP, and the toolchain has no portable TLS
/// API on Linux. User information (`user@`), and schemes other than `http`, are rejected.
package struct HTTPProbeURL: Sendable, Hashable {
  /// The host as written, lowercased: a name, an IPv4 address, or an IPv6 address without brackets.
  package let host: String
  /// Whether ``host`` was written in brackets: an IPv6 address.
  package let isIPv6Literal: Bool
  /// The port, 80 unless the URL names another.
  package let port: UInt16
  /// The request target: the path and query, `/` when the URL has none. The fragment is dropped.
  package let target: String

  /// The value of the `Host` header: the host (bracketed for IPv6), and the port when it is not 80.
  package var hostHeader: String {
    let name = isIPv6Literal ? "[\(host)]" : host
    return port == 80 ? name : "\(name):\(port)"
  }

  /// The URL in normal form: `http://` + ``hostHeader`` + ``target``.
  var normalized: String { "http://\(hostHeader)\(target)" }

  /// Parses `text`.
  ///
  /// - Throws: ``ConnectivityProbeError/unsupportedScheme(url:scheme:)`` for `https://` and other
  ///   schemes, ``ConnectivityProbeError/invalidURL(url:reason:)`` for anything else that is not a usable
  ///   `http://` URL.
  init(_ text: String) throws(ConnectivityProbeError) {
    func invalid(_ reason: String) -> ConnectivityProbeError { .invalidURL(url: text, reason: reason) }
    guard !text.isEmpty else { throw invalid("the URL is empty") }
    guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
      throw invalid("it contains spaces, control characters or non-ASCII characters; percent-encode them")
    }
    guard let schemeEnd = text.firstRange(of: "://") else {
      throw invalid("it does not start with http://")
    }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" else { throw .unsupportedScheme(url: text, scheme: scheme) }
    let rest = text[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    var target = String(rest[authorityEnd...])
    if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
    if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
    guard !authority.contains("@") else {
      throw invalid("user information (user@host) is not supported")
    }

    var hostPart: Substring
    var portPart: Substring?
    var bracketed = false
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw invalid("the IPv6 address has no closing ]") }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw invalid("unexpected text after the IPv6 address") }
        portPart = after.dropFirst()
      }
      guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
        throw invalid("the IPv6 address is not valid (zone identifiers are not supported)")
      }
      // ::ffff:a.b.c.d is IPv4 traffic on the wire: its checks would be counted as IPv6's.
      if let address = IPAddressBytes(text: hostPart), !address.isIPv4,
        address.bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
      {
        let ipv4 = address.bytes.suffix(4).map(String.init).joined(separator: ".")
        throw invalid("[\(hostPart)] is an IPv4-mapped address, whose traffic is IPv4: write \(ipv4) instead")
      }
      bracketed = true
    } else {
      if let colon = authority.firstIndex(of: ":") {
        hostPart = authority[..<colon]
        portPart = authority[authority.index(after: colon)...]
      } else {
        hostPart = authority
      }
      guard !hostPart.isEmpty else { throw invalid("it has no host") }
      guard hostPart.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }) else {
        throw invalid("the host '\(hostPart)' is not a host name or an IPv4 address")
      }
    }
    var port: UInt16 = 80
    if let portPart {
      guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = UInt16(portPart), number > 0
      else { throw invalid("the port '\(portPart)' is not a number from 1 to 65535") }
      port = number
    }
    self.host = hostPart.lowercased()
    self.isIPv6Literal = bracketed
    self.port = port
    self.target = target
  }

  /// Where a `Location` header points, as an absolute URL when it is relative to this one (`/login` →
  /// `http://host/login`); otherwise as given. `nil` for an empty location.
  func resolve(location: String) -> String? {
    let trimmed = location.trimmingHTTPWhitespace()
    guard !trimmed.isEmpty else { return nil }
    if trimmed.hasPrefix("//") { return "http:" + trimmed }
    if trimmed.hasPrefix("/") { return "http://\(hostHeader)\(trimmed)" }
    return trimmed
  }
}

extension IPFamily {
  /// The family of an IP literal host (`192.0.2.1`, or `2001:db8::1` as a URL gives it between brackets), or `nil`
  /// for a name: a literal can only be reached over its own family.
  static func ofLiteral(_ endpoint: HTTPProbeURL) -> IPFamily? {
    if endpoint.isIPv6Literal { return .ipv6 }
    let parts = endpoint.host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else { return nil }
    return .ipv4
  }
}
