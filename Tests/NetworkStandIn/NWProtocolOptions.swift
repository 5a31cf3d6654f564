/// Stand-in for `Network.NWProtocolOptions`: the abstract superclass for configuring the options of a network
/// protocol. Apple: `class NWProtocolOptions` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
///
/// Only its subclass ``NWProtocolIP/Options``, as ``NWParameters/ProtocolStack/internetProtocol`` holds it.
/// Deliberately not `Sendable` (which Apple's newest documentation lists), so that code compiled against the stand-in
/// does not rely on a conformance an older SDK might lack.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public class NWProtocolOptions {
  init() {}
}
