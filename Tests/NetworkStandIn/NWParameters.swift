/// Stand-in for `Network.NWParameters`: an object that stores the protocols to use for connections, options for
/// sending data, and network path constraints. Apple: `final class NWParameters` (macOS 10.14, iOS 12).
///
/// Only TCP, and the path constraints. Deliberately not `Sendable`, so that code compiled against the stand-in does not
/// rely on a conformance the real class might lack.
public final class NWParameters {
  /// The interface type required, if one was set.
  private var required: NWInterface.InterfaceType?

  /// Whether the parameters are TCP's (the only protocol the stand-in's connections speak).
  @_spi(TestHooks) public let isTCP: Bool

  private init(tcp: Bool) {
    self.isTCP = tcp
  }

  /// Initializes an empty set of default parameters, with no protocols. Apple: `convenience init()`.
  public convenience init() {
    self.init(tcp: false)
  }

  /// The default parameters for a TCP connection or listener. Apple: `class var tcp: NWParameters { get }`.
  public class var tcp: NWParameters { NWParameters(tcp: true) }

  /// Requires a connection to use a specific interface type. Apple:
  /// `final var requiredInterfaceType: NWInterface.InterfaceType { get set }`.
  ///
  /// The stand-in records it (``requiredInterfaceTypeWasSet``) and does not apply it: Linux has no such types.
  public var requiredInterfaceType: NWInterface.InterfaceType {
    get { required ?? .other }
    set { required = newValue }
  }

  /// Whether ``requiredInterfaceType`` was set, and to what (test hook).
  @_spi(TestHooks) public var requiredInterfaceTypeWasSet: NWInterface.InterfaceType? { required }
}
