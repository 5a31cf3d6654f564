/// Stand-in for `Network.NWProtocolIP`: a network protocol for configuring the Internet Protocol on connections.
/// Apple: `class NWProtocolIP : NWProtocol` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
///
/// Only its options' IP version, which the stand-in's connections honour (`StandInConnection.swift`): they resolve and
/// connect to the host's addresses of that version only.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public class NWProtocolIP: NWProtocol {
  /// Stand-in for `NWProtocolIP.Options`: a container of options for configuring how IP is used on a connection.
  /// Apple: `class Options : NWProtocolOptions` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
  public class Options: NWProtocolOptions {
    /// Stand-in for `NWProtocolIP.Options.Version`: IP versions to require on connections and listeners. Apple:
    /// `enum Version` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
    public enum Version {
      /// Allow any IP version. Apple: `case any`.
      case any
      /// Require IP version 4. Apple: `case v4`.
      case v4
      /// Require IP version 6. Apple: `case v6`.
      case v6
    }

    /// The version required, if one was set.
    private var required: Version?

    override init() {}

    /// A required IP version that disables all other versions for a connection. Apple:
    /// `var version: NWProtocolIP.Options.Version { get set }` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
    public var version: Version {
      get { required ?? .any }
      set { required = newValue }
    }

    /// Whether ``version`` was set, and to what (test hook).
    @_spi(TestHooks) public var versionWasSet: Version? { required }
  }
}
