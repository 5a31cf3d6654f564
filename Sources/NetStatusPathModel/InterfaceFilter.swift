/// Which interface types a monitor may use, as `NWPathMonitor(requiredInterfaceType:)` and
/// `NWPathMonitor(prohibitedInterfaceTypes:)` define them.
///
/// A path that only a prohibited type, or only a type other than the required one, could satisfy is
/// unsatisfied.
///
/// ```swift
/// let wifiOnly = InterfaceFilter(requiredInterfaceType: .wifi)
/// wifiOnly.allows(.cellular)  // false
/// ```
public struct InterfaceFilter: Sendable, Hashable {
  /// The only interface type the path may use, or `nil` for any.
  public var requiredInterfaceType: InterfaceType?
  /// Interface types the path may not use.
  public var prohibitedInterfaceTypes: Set<InterfaceType>

  /// A filter that allows every interface type.
  public static let unrestricted = InterfaceFilter()

  /// Creates a filter.
  public init(requiredInterfaceType: InterfaceType? = nil, prohibitedInterfaceTypes: Set<InterfaceType> = []) {
    self.requiredInterfaceType = requiredInterfaceType
    self.prohibitedInterfaceTypes = prohibitedInterfaceTypes
  }

  /// Whether the filter lets a path use an interface of this type.
  @inlinable public func allows(_ type: InterfaceType) -> Bool {
    if let requiredInterfaceType, type != requiredInterfaceType { return false }
    return !prohibitedInterfaceTypes.contains(type)
  }

  /// Applies the filter to a path computed without it.
  ///
  /// Interfaces the filter does not allow are removed. When none is left, a satisfied path becomes
  /// unsatisfied with reason `notAvailable`, and its gateways and address-family support are cleared.
  /// When the preferred interface was removed, the path is kept satisfied over the next allowed one and
  /// `isExpensive` follows that interface's type (cellular is expensive), its ``NetworkPath/linkQuality`` is not
  /// known (``NetworkPath/LinkQuality/unknown``), and the path has no ``NetworkPath/vpn``
  /// when the VPN's interface was removed. Sources that know more (the Linux
  /// evaluator, NWPathMonitor) filter before this step, so applying it again changes nothing.
  public func apply(to path: NetworkPath) -> NetworkPath {
    if self == .unrestricted { return path }
    var result = path
    result.availableInterfaces = path.availableInterfaces.filter { allows($0.type) }
    if let vpn = path.vpn, !result.availableInterfaces.contains(vpn.interface) { result.vpn = nil }
    guard path.status == .satisfied else { return result }
    if result.availableInterfaces.isEmpty {
      return NetworkPath(
        status: .unsatisfied,
        unsatisfiedReason: .notAvailable,
        isConstrained: path.isConstrained,
        supportsDNS: path.supportsDNS
      )
    }
    if result.availableInterfaces.first != path.availableInterfaces.first {
      result.isExpensive = result.availableInterfaces.first?.type == .cellular
      result.expenseSource = result.isExpensive ? .cellular : nil
      // The quality was the removed interface's; the next one's is not known.
      result.linkQuality = .unknown
    }
    return result
  }
}
