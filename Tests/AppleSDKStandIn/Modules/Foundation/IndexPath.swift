// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The Foundation types UIKit's table views and view controllers name (Examples/UIKitSample): index paths and coders.

/// Apple: `struct IndexPath`, `Equatable`, `Hashable` and `Sendable` (its collection conformances are left out: no
/// example uses them). UIKit adds `row` and `section`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
public struct IndexPath: Equatable, Hashable, Sendable {
  private var indexes: [Int] = []
}

/// Apple: `class NSCoder : NSObject`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class NSCoder: NSObject {}
