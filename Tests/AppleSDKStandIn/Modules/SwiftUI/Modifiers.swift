// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
/// Apple: `protocol ShapeStyle : Sendable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ShapeStyle: Sendable {}

/// Apple: `struct Material : Sendable, ShapeStyle` (macOS 12, iOS 15, tvOS 15, watchOS 8).
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
public struct Material: ShapeStyle {
  /// Apple: `static let ultraThin: Material` (`.ultraThinMaterial` is `ShapeStyle`'s, below).
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 10.0, *)
  public static let ultraThin = Material()
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 10.0, *)
extension ShapeStyle where Self == Material {
  /// Apple: `static var ultraThinMaterial: Material { get }`.
  public static var ultraThinMaterial: Material { Material() }
}

/// Apple: `struct AnyTransition`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct AnyTransition: Sendable {
  /// Apple: `static let opacity: AnyTransition`.
  public static let opacity = AnyTransition()
}

/// Apple: `@frozen struct Animation : Equatable, Sendable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct Animation: Equatable, Sendable {
  /// Apple: `static var easeInOut: Animation { get }`.
  public static var easeInOut: Animation { Animation() }
  /// Apple: `static let `default`: Animation`.
  public static let `default` = Animation()
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension View {
  /// Apple: `func frame(minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight:
  /// CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center) -> some
  /// View`.
  public nonisolated func frame(
    minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
    idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
  ) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `func background<S>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View where S :
  /// ShapeStyle` (macOS 12, iOS 15).
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  public nonisolated func background<S: ShapeStyle>(_ style: S) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `func transition(_ t: AnyTransition) -> some View`.
  public nonisolated func transition(_ t: AnyTransition) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `func animation<V>(_ animation: Animation?, value: V) -> some View where V : Equatable`.
  public nonisolated func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `func onAppear(perform action: (() -> Void)? = nil) -> some View`.
  public nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `nonisolated func onScrollVisibilityChange(threshold: Double = 0.5, _ action: @escaping (Bool) -> Void)
  /// -> some View` (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2).
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public nonisolated func onScrollVisibilityChange(
    threshold: Double = 0.5, _ action: @escaping (Bool) -> Void
  ) -> some View {
    modifier(_StandInModifier())
  }
}

/// What every modifier of the stand-in returns.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct _StandInModifier: ViewModifier {
  public nonisolated init() {}
  public func body(content: Content) -> some View { EmptyView() }
}
