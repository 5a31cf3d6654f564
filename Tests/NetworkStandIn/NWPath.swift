/// Stand-in for `Network.NWPath`: the properties of the network that a connection uses or that are available.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public struct NWPath: Sendable, Equatable, CustomDebugStringConvertible {
  /// Stand-in for `NWPath.Status`: whether a path can be used by connections.
  public enum Status: Sendable, Hashable {
    /// The path is available to establish connections and send data.
    case satisfied
    /// The path is not available for use.
    case unsatisfied
    /// The path is not currently available, but establishing a new connection may activate the path.
    case requiresConnection
  }

  /// Stand-in for `NWPath.UnsatisfiedReason` (macOS 11, iOS 14.2, tvOS 14.2, watchOS 7.1).
  @available(macOS 11.0, iOS 14.2, tvOS 14.2, watchOS 7.1, *)
  public enum UnsatisfiedReason: Sendable, Hashable {
    /// No reason is given.
    case notAvailable
    /// The user has disabled cellular.
    case cellularDenied
    /// The user has disabled Wi-Fi.
    case wifiDenied
    /// The user has disabled local network access.
    case localNetworkDenied
    /// A required VPN is not active.
    case vpnInactive
  }

  /// Stand-in for `NWPath.LinkQuality`: the link quality measurement of the link layer network attachment.
  /// Apple: `enum LinkQuality` (macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26), Equatable, Hashable, Sendable.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  public enum LinkQuality: Sendable, Hashable {
    /// No link quality measurement is available. Apple: `case unknown`.
    case unknown
    /// Link quality is minimal. Apple: `case minimal`.
    case minimal
    /// Link quality is moderate. Apple: `case moderate`.
    case moderate
    /// Link quality is good. Apple: `case good`.
    case good
  }

  /// A status indicating whether a path can be used by connections. Apple: `let status: NWPath.Status`.
  public let status: Status
  /// Why the path is unsatisfied. Apple: `var unsatisfiedReason: NWPath.UnsatisfiedReason { get }`.
  @available(macOS 11.0, iOS 14.2, tvOS 14.2, watchOS 7.1, *)
  public var unsatisfiedReason: UnsatisfiedReason { storedUnsatisfiedReason }
  /// All interfaces available to the path, in order of preference. Apple: `let availableInterfaces: [NWInterface]`.
  public let availableInterfaces: [NWInterface]
  /// Whether the path uses an interface considered expensive. Apple: `let isExpensive: Bool`.
  public let isExpensive: Bool
  /// Whether the path uses an interface in Low Data Mode. Apple: `var isConstrained: Bool { get }`.
  @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
  public var isConstrained: Bool { storedIsConstrained }
  /// Whether the path can route IPv4 traffic. Apple: `let supportsIPv4: Bool`.
  public let supportsIPv4: Bool
  /// Whether the path can route IPv6 traffic. Apple: `let supportsIPv6: Bool`.
  public let supportsIPv6: Bool
  /// Whether the path has a DNS server configured. Apple: `let supportsDNS: Bool`.
  public let supportsDNS: Bool
  /// The gateways configured on the interfaces available to the path. Apple: `var gateways: [NWEndpoint] { get }`.
  @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
  public var gateways: [NWEndpoint] { storedGateways }
  /// Whether the path uses an interface considered ultra-constrained by user preference. Apple:
  /// `var isUltraConstrained: Bool { get }`.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  public var isUltraConstrained: Bool { storedIsUltraConstrained }
  /// The link quality measurement of the link layer network attachment. Apple:
  /// `var linkQuality: NWPath.LinkQuality { get }`.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  public var linkQuality: LinkQuality {
    #if canImport(Darwin)
      switch storedLinkQuality {
      case .unknown: .unknown
      case .minimal: .minimal
      case .moderate: .moderate
      case .good: .good
      }
    #else
      storedLinkQuality
    #endif
  }

  private let storedUnsatisfiedReason: UnsatisfiedReason
  private let storedIsConstrained: Bool
  private let storedGateways: [NWEndpoint]
  private let storedLinkQuality: TestLinkQuality
  private let storedIsUltraConstrained: Bool

  #if canImport(Darwin)
    /// The type of the test hook's `linkQuality` when compiled for an Apple target (the stand-in SDK, where nothing
    /// runs and availability is enforced): ``LinkQuality`` is newer than the deployment floor, so the initializer
    /// below, available at the floor, cannot name it; these are its cases (test hook).
    @_spi(TestHooks) public enum TestLinkQuality: Sendable, Hashable {
      case unknown, minimal, moderate, good
    }
  #else
    /// The type of the test hook's `linkQuality`: ``LinkQuality`` itself on Linux, where the hook is used (test hook).
    @_spi(TestHooks) public typealias TestLinkQuality = LinkQuality
  #endif

  /// Whether connections using the path may send traffic over an interface of the given type.
  /// Apple: `func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool`.
  public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool {
    availableInterfaces.contains { $0.type == type }
  }

  /// Test hook (Apple's `NWPath` has no public initializer).
  @_spi(TestHooks) public init(
    status: Status,
    unsatisfiedReason: UnsatisfiedReason = .notAvailable,
    availableInterfaces: [NWInterface] = [],
    isExpensive: Bool = false,
    isConstrained: Bool = false,
    supportsIPv4: Bool = false,
    supportsIPv6: Bool = false,
    supportsDNS: Bool = false,
    gateways: [NWEndpoint] = [],
    linkQuality: TestLinkQuality = .unknown,
    isUltraConstrained: Bool = false
  ) {
    self.status = status
    self.storedUnsatisfiedReason = unsatisfiedReason
    self.availableInterfaces = availableInterfaces
    self.isExpensive = isExpensive
    self.storedIsConstrained = isConstrained
    self.supportsIPv4 = supportsIPv4
    self.supportsIPv6 = supportsIPv6
    self.supportsDNS = supportsDNS
    self.storedGateways = gateways
    self.storedLinkQuality = linkQuality
    self.storedIsUltraConstrained = isUltraConstrained
  }

  /// A textual representation, for debugging.
  public var debugDescription: String {
    "\(status) via \(availableInterfaces.map(\.name).joined(separator: ","))"
  }
}
