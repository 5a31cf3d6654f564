/// Stand-in for `Network.NWParameters`: an object that stores the protocols to use for connections, options for
/// sending data, and network path constraints. Apple: `final class NWParameters` (macOS 10.14, iOS 12).
///
/// Only TCP, the path constraints, and the IP version of the default protocol stack. Deliberately not `Sendable`, so
/// that code compiled against the stand-in does not rely on a conformance the real class might lack.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public final class NWParameters {
  /// The interface type required, if one was set.
  private var required: NWInterface.InterfaceType?
  /// The interface required, if one was set.
  private var requiredExactly: NWInterface?

  /// Whether the parameters are TCP's (the only protocol the stand-in's connections speak).
  @_spi(TestHooks) public let isTCP: Bool

  /// Stand-in for `NWParameters.ProtocolStack`: an ordered set of protocol options that define the protocols that
  /// connections and listeners use. Apple: `class ProtocolStack` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
  ///
  /// Only its Internet Protocol options. Deliberately not `Sendable` (which Apple's newest documentation lists), so
  /// that code compiled against the stand-in does not rely on a conformance an older SDK might lack.
  public class ProtocolStack {
    /// The Internet Protocol options used by connections and listeners. Apple:
    /// `var internetProtocol: NWProtocolOptions? { get set }` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
    public var internetProtocol: NWProtocolOptions?

    init(internetProtocol: NWProtocolOptions?) {
      self.internetProtocol = internetProtocol
    }
  }

  /// The protocol stack used by connections and listeners. Apple:
  /// `final var defaultProtocolStack: NWParameters.ProtocolStack { get }` (macOS 10.14, iOS 12, tvOS 12, watchOS 5,
  /// visionOS 1).
  ///
  /// TCP's holds IP options (``NWProtocolIP/Options``), as Apple's does; the empty parameters' holds none. The same
  /// stack each time, so that what is set on it stays set.
  public var defaultProtocolStack: ProtocolStack { stack }

  private let stack: ProtocolStack

  private init(tcp: Bool) {
    self.isTCP = tcp
    self.stack = ProtocolStack(internetProtocol: tcp ? NWProtocolIP.Options() : nil)
  }

  /// Initializes an empty set of default parameters, with no protocols. Apple: `init()`.
  public init() {
    self.isTCP = false
    self.stack = ProtocolStack(internetProtocol: nil)
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

  /// A specific interface to require on connections, listeners, and browsers. Apple:
  /// `final var requiredInterface: NWInterface? { get set }` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
  ///
  /// Honoured on Linux: the connection's socket is bound to the interface by name (`SO_BINDTODEVICE`), so that it
  /// leaves through that interface only; an interface that no longer exists fails every attempt with `ENODEV`, and
  /// the connection waits (`.waiting(.posix(.ENODEV))`), as Apple's waits for an interface that is not available.
  public var requiredInterface: NWInterface? {
    get { requiredExactly }
    set { requiredExactly = newValue }
  }

  /// The interface ``requiredInterface`` was set to, if any (test hook).
  @_spi(TestHooks) public var requiredInterfaceWasSet: NWInterface? { requiredExactly }

  /// Whether ``requiredInterfaceType`` was set, and to what (test hook).
  @_spi(TestHooks) public var requiredInterfaceTypeWasSet: NWInterface.InterfaceType? { required }

  /// The IP version set on the default protocol stack's IP options (``NWProtocolIP/Options/version``), if one was set
  /// (test hook).
  @_spi(TestHooks) public var ipVersionWasSet: NWProtocolIP.Options.Version? {
    (defaultProtocolStack.internetProtocol as? NWProtocolIP.Options)?.versionWasSet
  }

  /// The IP version the stand-in's connections honour: the one set, else any.
  var requiredIPVersion: NWProtocolIP.Options.Version { ipVersionWasSet ?? .any }
}
