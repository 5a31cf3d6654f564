import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Stand-in for `Network.NWEndpoint`: a local or remote endpoint in a network connection.
///
/// Only the case NetStatus reads (`hostPort`) and one other, so that code must handle endpoints of other kinds.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
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
  public struct Port: Sendable, Hashable, RawRepresentable, ExpressibleByIntegerLiteral, CustomDebugStringConvertible {
    /// The port number. Apple: `var rawValue: UInt16`.
    public let rawValue: UInt16

    /// Initializes a port with a number. Apple: `init?(rawValue: UInt16)`.
    public init?(rawValue: UInt16) {
      self.rawValue = rawValue
    }

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

/// Stand-in for `Network.IPv4Address`: a structure containing an IPv4 address.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public struct IPv4Address: Sendable, Hashable, CustomDebugStringConvertible {
  /// The raw data of an IPv4 address, 4 bytes in network order. Apple: `var rawValue: Data { get }`.
  public var rawValue: Data { Data(bytes) }
  /// The interface associated with this address. Apple: `let interface: NWInterface?`.
  public let interface: NWInterface?

  private let bytes: [UInt8]

  /// Initializes an IPv4 address with a string; fails if the string is not an IPv4 address.
  /// Apple: `init?(_ string: String)`.
  public init?(_ string: String) {
    guard let (bytes, interface) = parseAddress(string, family: AF_INET, size: 4) else { return nil }
    self.bytes = bytes
    self.interface = interface
  }

  /// Initializes an IPv4 address with data, which must be 4 bytes.
  /// Apple: `init?(_ rawValue: Data, _ interface: NWInterface? = nil)`.
  public init?(_ rawValue: Data, _ interface: NWInterface? = nil) {
    guard rawValue.count == 4 else { return nil }
    self.bytes = Array(rawValue)
    self.interface = interface
  }

  /// The address in its usual dotted text form. Apple: `var debugDescription: String { get }`.
  public var debugDescription: String { formatAddress(bytes, family: AF_INET, interface: nil) }
}

/// Stand-in for `Network.IPv6Address`: a structure containing an IPv6 address.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public struct IPv6Address: Sendable, Hashable, CustomDebugStringConvertible {
  /// The raw data of an IPv6 address, 16 bytes in network order. Apple: `var rawValue: Data { get }`.
  public var rawValue: Data { Data(bytes) }
  /// The IPv6 scoped interface associated with this address. Apple: `let interface: NWInterface?`.
  public let interface: NWInterface?

  private let bytes: [UInt8]

  /// Initializes an IPv6 address with a string (a `%` scope names the interface, with index 0 and type `other`
  /// here); fails if the string is not an IPv6 address. Apple: `init?(_ string: String)`.
  public init?(_ string: String) {
    guard let (bytes, interface) = parseAddress(string, family: AF_INET6, size: 16) else { return nil }
    self.bytes = bytes
    self.interface = interface
  }

  /// Initializes an IPv6 address with data, which must be 16 bytes, and its scope.
  /// Apple: `init?(_ rawValue: Data, _ interface: NWInterface? = nil)`.
  public init?(_ rawValue: Data, _ interface: NWInterface? = nil) {
    guard rawValue.count == 16 else { return nil }
    self.bytes = Array(rawValue)
    self.interface = interface
  }

  /// The address in its usual (compressed) text form, with `%` and the scope's interface name when it has one,
  /// as Apple's prints a link-local address: `fe80::1%en0`. Apple: `var debugDescription: String { get }`.
  public var debugDescription: String { formatAddress(bytes, family: AF_INET6, interface: interface) }
}

private func parseAddress(_ string: String, family: Int32, size: Int) -> ([UInt8], NWInterface?)? {
  let parts = string.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
  var bytes = [UInt8](repeating: 0, count: size)
  let parsed = bytes.withUnsafeMutableBytes { inet_pton(family, String(parts[0]), $0.baseAddress) }
  guard parsed == 1 else { return nil }
  guard parts.count == 2 else { return (bytes, nil) }
  guard family == AF_INET6, !parts[1].isEmpty else { return nil }
  return (bytes, NWInterface(name: String(parts[1]), index: 0, type: .other))
}

private func formatAddress(_ bytes: [UInt8], family: Int32, interface: NWInterface?) -> String {
  var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
  let length = socklen_t(text.count)
  _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, length) }
  let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  guard let interface else { return address }
  return "\(address)%\(interface.name)"
}
