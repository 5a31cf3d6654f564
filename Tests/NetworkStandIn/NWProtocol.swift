/// Stand-in for `Network.NWProtocol`: the abstract superclass used by Network framework protocols and by custom network
/// protocols that you define. Apple: `class NWProtocol` (macOS 10.14, iOS 12, tvOS 12, watchOS 5, visionOS 1).
///
/// Only what ``NWProtocolIP`` inherits from: nothing. Deliberately not `Sendable` (which Apple's newest documentation
/// lists), so that code compiled against the stand-in does not rely on a conformance an older SDK might lack.
@available(macOS 10.14, iOS 12.0, tvOS 12.0, watchOS 5.0, *)
public class NWProtocol {
  init() {}
}
