// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The views and modifiers Examples/SwiftUIApp builds its list with. Where newer documentation writes `@ContentBuilder`,
// the Xcode 16 SDK this stand-in follows has `@ViewBuilder`.

/// Apple: `struct NavigationPath`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct NavigationPath {}

/// Apple: `struct NavigationStack<Data, Root> where Root : View`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct NavigationStack<Data, Root: View>: _PrimitiveView {
  /// Apple: `nonisolated init(@ViewBuilder root: () -> Root) where Data == NavigationPath`.
  public nonisolated init(@ViewBuilder root: () -> Root) where Data == NavigationPath {}
}

/// Apple: `struct Section<Parent, Content, Footer>`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct Section<Parent, Content, Footer> {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Section: View where Parent: View, Content: View, Footer: View {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension Section where Parent == Text, Content: View, Footer == EmptyView {
  /// Apple: `init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content)`.
  public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
}

/// Apple: `struct LabeledContent<Label, Content>`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct LabeledContent<Label, Content> {}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension LabeledContent: View where Label: View, Content: View {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension LabeledContent where Label == Text, Content == Text {
  /// Apple: `init<S>(_ titleKey: LocalizedStringKey, value: S) where S : StringProtocol`.
  public init<S: StringProtocol>(_ titleKey: LocalizedStringKey, value: S) {}

  /// Apple: `@_disfavoredOverload init<S1, S2>(_ title: S1, value: S2) where S1 : StringProtocol, S2 :
  /// StringProtocol`.
  @_disfavoredOverload
  public init<S1: StringProtocol, S2: StringProtocol>(_ title: S1, value: S2) {}
}

/// Apple: `struct ProgressView<Label, CurrentValueLabel> where Label : View, CurrentValueLabel : View`.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension ProgressView where CurrentValueLabel == EmptyView {
  /// Apple: `nonisolated init(_ titleKey: LocalizedStringKey) where Label == Text`.
  public nonisolated init(_ titleKey: LocalizedStringKey) where Label == Text {}
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension Label where Title == Text, Icon == Image {
  /// Apple: `nonisolated init(_ titleKey: LocalizedStringKey, systemImage name: String)`.
  public nonisolated init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ForEach where Content: View {
  /// Apple: `init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) ->
  /// Content)`.
  public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
extension View {
  /// Apple: `nonisolated func navigationTitle(_ titleKey: LocalizedStringKey) -> some View`.
  public nonisolated func navigationTitle(_ titleKey: LocalizedStringKey) -> some View {
    modifier(_StandInModifier())
  }

  /// Apple: `nonisolated func badge(_ key: LocalizedStringKey?) -> some View` (macOS 12, iOS 15, visionOS 1; not in
  /// tvOS or watchOS).
  @available(macOS 12.0, iOS 15.0, *)
  @available(tvOS, unavailable)
  @available(watchOS, unavailable)
  public nonisolated func badge(_ key: LocalizedStringKey?) -> some View {
    modifier(_StandInModifier())
  }
}
