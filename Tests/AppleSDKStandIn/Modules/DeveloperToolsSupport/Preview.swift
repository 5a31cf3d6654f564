// The DeveloperToolsSupport stand-in (Tests/AppleSDKStandIn/README.md): the types that `#Preview`'s expansion names,
// with Apple's signatures and availability (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1), for compiling only.
// SwiftUI re-exports it and adds the initializer for views.

/// Apple: `@MainActor struct Preview`, what a preview macro's expansion makes.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public struct Preview {
  /// What the frameworks' initializers (SwiftUI's: `init(_:traits:body:)`) make.
  public init(_compilingOnly: Void) {}
}

/// Apple: `protocol PreviewRegistry`, which a preview macro's expansion adopts.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public protocol PreviewRegistry {
  static var fileID: String { get }
  static var line: Int { get }
  static var column: Int { get }
  @MainActor static func makePreview() throws -> Preview
}
