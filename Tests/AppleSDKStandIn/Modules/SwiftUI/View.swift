// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties, UseSynthesizedInitializer

// (A stand-in copies Apple's declarations, names included, and nonisolated initialisers the compiler would not
// synthesise; Apple documents them, and each type and member that is not a conformance's requirement quotes Apple's
// declaration.)
// The SwiftUI stand-in (Tests/AppleSDKStandIn/README.md): the members NetStatusUI uses, with the Swift signatures,
// isolation and availability of Apple's SDK (Xcode 16 and later: `View` and `ViewModifier` are main-actor
// protocols), for compiling only. As in Apple's SDK, importing SwiftUI also imports Foundation.
@_exported import Foundation

/// Apple: `@MainActor @preconcurrency protocol View`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

/// Views that SwiftUI draws itself have no body.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol _PrimitiveView: View where Body == Never {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension _PrimitiveView {
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

/// Apple: `struct EmptyView`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct EmptyView: _PrimitiveView {
  public nonisolated init() {}
}

/// Apple: `struct TupleView<T>`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct TupleView<T>: _PrimitiveView {
  public nonisolated init(_ value: T) {}
}

/// Apple: `struct _ConditionalContent<TrueContent, FalseContent>`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {
  nonisolated init() {}
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Optional: View where Wrapped: View {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

/// Apple: `struct AnyView`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct AnyView: _PrimitiveView {
  public nonisolated init<V: View>(_ view: V) {}
}

/// Apple: `@resultBuilder struct ViewBuilder`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@resultBuilder
public struct ViewBuilder {
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)>
  {
    TupleView((repeat each content))
  }
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<
    TrueContent, FalseContent
  > {
    _ConditionalContent()
  }
  public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<
    TrueContent, FalseContent
  > {
    _ConditionalContent()
  }
  @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// Apple: `@MainActor @preconcurrency protocol ViewModifier`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency
public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// Apple: `struct _ViewModifier_Content<Modifier> where Modifier : ViewModifier`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct _ViewModifier_Content<Modifier: ViewModifier>: _PrimitiveView {}

/// Apple: `struct ModifiedContent<Content, Modifier>`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct ModifiedContent<Content, Modifier> {
  public var content: Content
  public var modifier: Modifier
  public nonisolated init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension View {
  /// Apple: `func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`.
  public nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
    ModifiedContent(content: self, modifier: modifier)
  }
}
