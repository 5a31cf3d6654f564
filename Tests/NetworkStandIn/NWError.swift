#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stand-in for dnssd's `DNSServiceErrorType`, which Network's `NWError.dns` carries. Apple (dnssd):
/// `typealias DNSServiceErrorType = Int32`.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public typealias DNSServiceErrorType = Int32

/// Stand-in for `Network.NWError`: the errors returned by objects in the Network framework.
/// Apple: `enum NWError : Error, Equatable, CustomDebugStringConvertible, Sendable` (macOS 10.14, iOS 12).
///
/// Without `case tls(OSStatus)`: NetStatus makes no TLS connection. The enum is not frozen, so code that switches
/// over it needs `@unknown default` here as against the real SDK, and must handle the case it does not know.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public enum NWError: Error, Equatable, CustomDebugStringConvertible, Sendable {
  /// A POSIX error, which is used for most network protocol and routing errors. Apple: `case posix(POSIXErrorCode)`.
  case posix(POSIXErrorCode)
  /// A DNS error encountered in resolving, browsing, or advertising. Apple: `case dns(DNSServiceErrorType)`.
  case dns(DNSServiceErrorType)

  /// A textual representation, for debugging. Apple: `var debugDescription: String { get }`.
  public var debugDescription: String {
    switch self {
    case .posix(let code): return "POSIXErrorCode(rawValue: \(code.rawValue))"
    case .dns(let code): return "DNSServiceErrorType(\(code))"
    }
  }
}

extension NWError {
  /// dnssd's `kDNSServiceErr_NoSuchRecord`: the name exists but has no address of the kind asked (test hook: what the
  /// stand-in reports for a name its resolver finds no address for).
  @_spi(TestHooks) public static let noSuchRecord: DNSServiceErrorType = -65554
}
