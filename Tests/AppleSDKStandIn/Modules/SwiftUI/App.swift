// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// An app's entry point and its scenes, as Examples/SwiftUIApp uses them: `App` (with the `main()` that `@main` calls),
// `Scene`, `SceneBuilder` and `WindowGroup`.

/// Apple: `@MainActor @preconcurrency protocol App`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public protocol App {
  associatedtype Body: Scene
  /// Apple: `@SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }`.
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
  /// Apple: `@MainActor @preconcurrency init()`.
  @MainActor @preconcurrency init()
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension App {
  /// Apple: `@MainActor @preconcurrency static func main()`, what `@main` on an `App` calls.
  @MainActor @preconcurrency
  public static func main() {
    fatalError("The SwiftUI stand-in is for compiling only")
  }
}

/// Apple: `@MainActor @preconcurrency protocol Scene`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public protocol Scene {
  associatedtype Body: Scene
  /// Apple: `@SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }`.
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// Apple: `@resultBuilder struct SceneBuilder`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@resultBuilder
public struct SceneBuilder {
  /// Apple (SDK interface; the documentation's `buildBlock(_:)` page shows the variadic overload of the same group):
  /// `static func buildBlock<Content>(_ content: Content) -> Content where Content : Scene`.
  public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// Apple: `struct WindowGroup<Content> where Content : View`, a `Scene`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public struct WindowGroup<Content: View>: Scene {
  /// Apple: `nonisolated init(@ViewBuilder content: () -> Content)` (newer documentation: `@ContentBuilder`).
  public nonisolated init(@ViewBuilder content: () -> Content) {}
  /// Apple: `@MainActor @preconcurrency var body: some Scene { get }`.
  public var body: some Scene { self }
}
