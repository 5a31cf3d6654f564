/// Stand-in for `Network.NWInterface`: an interface that a network connection uses to send and receive data.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public struct NWInterface: Sendable, Hashable, CustomDebugStringConvertible {
  /// Stand-in for `NWInterface.InterfaceType`: types of network interfaces, based on their link layer media types.
  public enum InterfaceType: Sendable, Hashable {
    /// A virtual or otherwise unknown interface type.
    case other
    /// The network interface type used for communication over Wi-Fi networks.
    case wifi
    /// The network interface type used for communication over cellular networks.
    case cellular
    /// The network interface type used for communication over wired Ethernet networks.
    case wiredEthernet
    /// The network interface type used for communication over local loopback networks.
    case loopback
  }

  /// The type of the interface, such as Wi-Fi or loopback. Apple: `var type: NWInterface.InterfaceType { get }`.
  public var type: InterfaceType { storedType }
  /// The name of the interface. Apple: `var name: String { get }`.
  public var name: String { storedName }
  /// The system interface index associated with the interface. Apple: `var index: Int { get }`.
  public var index: Int { storedIndex }

  private let storedType: InterfaceType
  private let storedName: String
  private let storedIndex: Int

  /// Test hook (Apple's `NWInterface` has no public initializer).
  @_spi(TestHooks) public init(name: String, index: Int, type: InterfaceType) {
    self.storedName = name
    self.storedIndex = index
    self.storedType = type
  }

  /// A textual representation, for debugging.
  public var debugDescription: String { name }
}
