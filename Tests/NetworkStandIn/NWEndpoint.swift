#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Stand-in for `Network.NWEndpoint`: a local or remote endpoint in a network connection.
///
/// Only the case NetStatus reads (`hostPort`) and one other, so that code must handle endpoints of other kinds.
public enum NWEndpoint: Sendable, Hashable, CustomDebugStringConvertible {
  /// An endpoint represented as a host and port. Apple: `case hostPort(host: NWEndpoint.Host, port: NWEndpoint.Port)`.
  case hostPort(host: NWEndpoint.Host, port: NWEndpoint.Port)
  /// An endpoint represented as a UNIX domain path. Apple: `case unix(path: String)`.
  case unix(path: String)

  /// Stand-in for `NWEndpoint.Host`: a name or address that identifies a network endpoint.
  public enum Host: Sendable, Hashable, CustomDebugStringConvertible {
    /// A host represented as a name. Apple: `case name(String, NWInterface?)`.
    case name(String, NWInterface?)
    /// A host represented as an IPv4 address. Apple: `case ipv4(IPv4Address)`.
    case ipv4(IPv4Address)
    /// A host represented as an IPv6 address. Apple: `case ipv6(IPv6Address)`.
    case ipv6(IPv6Address)

    /// Initializes a host with a string: an IPv4 or IPv6 address if it parses as one, else a name.
    /// Apple: `init(_ string: String)`.
    public init(_ string: String) {
      if let address = IPv4Address(string) {
        self = .ipv4(address)
      } else if let address = IPv6Address(string) {
        self = .ipv6(address)
      } else {
        self = .name(string, nil)
      }
    }

    /// A textual representation, for debugging: the name or the address.
    public var debugDescription: String {
      switch self {
      case .name(let name, _): return name
      case .ipv4(let address): return address.debugDescription
      case .ipv6(let address): return address.debugDescription
      }
    }
  }

  /// Stand-in for `NWEndpoint.Port`: a port number you use along with a host to identify a network endpoint.
  public struct Port: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomDebugStringConvertible {
    private let rawValue: UInt16

    /// The unspecified port (port 0). Apple: `static let any: NWEndpoint.Port`.
    public static let any: Port = 0

    /// Initializes a port with a string of digits. Apple: `init?(_ service: String)`.
    public init?(_ service: String) {
      guard let value = UInt16(service) else { return nil }
      self.rawValue = value
    }

    /// Creates a port from an integer literal. Apple: `init(integerLiteral value: NWEndpoint.Port.IntegerLiteralType)`.
    public init(integerLiteral value: UInt16) {
      self.rawValue = value
    }

    /// A textual representation, for debugging: the port number.
    public var debugDescription: String { String(rawValue) }
  }

  /// A textual representation, for debugging.
  public var debugDescription: String {
    switch self {
    case .hostPort(let host, let port): return "\(host.debugDescription):\(port.debugDescription)"
    case .unix(let path): return path
    }
  }
}

/// Stand-in for `Network.IPv4Address`.
public struct IPv4Address: Sendable, Hashable, CustomDebugStringConvertible {
  private let bytes: [UInt8]

  /// Initializes an IPv4 address with a string; fails if the string is not an IPv4 address.
  /// Apple: `init?(_ string: String)`.
  public init?(_ string: String) {
    guard let bytes = parseAddress(string, family: AF_INET, size: 4) else { return nil }
    self.bytes = bytes
  }

  /// The address in its usual text form. Apple: `var debugDescription: String { get }`.
  public var debugDescription: String { formatAddress(bytes, family: AF_INET) }
}

/// Stand-in for `Network.IPv6Address`.
public struct IPv6Address: Sendable, Hashable, CustomDebugStringConvertible {
  private let bytes: [UInt8]

  /// Initializes an IPv6 address with a string; fails if the string is not an IPv6 address.
  /// Apple: `init?(_ string: String)`.
  public init?(_ string: String) {
    guard let bytes = parseAddress(string, family: AF_INET6, size: 16) else { return nil }
    self.bytes = bytes
  }

  /// The address in its usual (compressed) text form. Apple: `var debugDescription: String { get }`.
  public var debugDescription: String { formatAddress(bytes, family: AF_INET6) }
}

private func parseAddress(_ string: String, family: Int32, size: Int) -> [UInt8]? {
  var bytes = [UInt8](repeating: 0, count: size)
  let parsed = bytes.withUnsafeMutableBytes { inet_pton(family, string, $0.baseAddress) }
  return parsed == 1 ? bytes : nil
}

private func formatAddress(_ bytes: [UInt8], family: Int32) -> String {
  var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
  let length = socklen_t(text.count)
  _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, length) }
  return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
