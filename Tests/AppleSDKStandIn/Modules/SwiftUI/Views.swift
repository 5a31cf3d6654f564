// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
/// Apple: `struct LocalizedStringKey : Equatable, ExpressibleByStringInterpolation`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
  private let key: String
  /// Apple: `init(_ value: String)`.
  public init(_ value: String) { key = value }
  public init(stringLiteral value: String) { key = value }
  public init(stringInterpolation: StringInterpolation) { key = stringInterpolation.key }

  /// Apple: `struct LocalizedStringKey.StringInterpolation : StringInterpolationProtocol`.
  public struct StringInterpolation: StringInterpolationProtocol, Sendable {
    var key = ""
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) { key += literal }
    public mutating func appendInterpolation(_ string: String) { key += "%@" }
    public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) { key += "%lld" }
  }
}

/// Apple: `protocol _FormatSpecifiable : Equatable` (integers and floating-point numbers in string keys).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol _FormatSpecifiable: Equatable {}
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Int: _FormatSpecifiable {}
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Double: _FormatSpecifiable {}

/// Apple: `@frozen struct Text : Equatable, Sendable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct Text: _PrimitiveView, Equatable, Sendable {
  @usableFromInline let storage: String
  /// Apple: `init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString?
  /// = nil)`.
  public nonisolated init(
    _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
  ) {
    storage = ""
  }
  /// Apple: `init<S>(_ content: S) where S : StringProtocol`.
  @_disfavoredOverload
  public nonisolated init<S: StringProtocol>(_ content: S) { storage = String(content) }
  /// Apple: `init(verbatim content: String)`.
  public nonisolated init(verbatim content: String) { storage = content }
}

/// Apple: `struct Image : Equatable, Sendable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct Image: _PrimitiveView, Equatable, Sendable {
  /// Apple: `init(systemName: String)` (macOS 11).
  @available(macOS 11.0, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
  public nonisolated init(systemName: String) {}
}

/// Apple: `struct Label<Title, Icon> where Title : View, Icon : View` (macOS 11, iOS 14).
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
public struct Label<Title: View, Icon: View>: _PrimitiveView {
  /// Apple: `init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon)`.
  public nonisolated init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
}

/// Apple: `@frozen struct ZStack<Content> where Content : View`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct ZStack<Content: View>: _PrimitiveView {
  /// Apple: `init(alignment: Alignment = .center, @ViewBuilder content: () -> Content)`.
  public nonisolated init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
}

/// Apple: `@frozen struct VStack<Content> where Content : View`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct VStack<Content: View>: _PrimitiveView {
  /// Apple: `init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () ->
  /// Content)`.
  public nonisolated init(spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}

/// Apple: `struct List<SelectionValue, Content> where SelectionValue : Hashable, Content : View`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct List<SelectionValue: Hashable, Content: View>: _PrimitiveView {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension List where SelectionValue == Never {
  /// Apple: `init(@ViewBuilder content: () -> Content)`.
  public nonisolated init(@ViewBuilder content: () -> Content) {}

  /// Apple: `init<RowContent>(_ data: Range<Int>, @ViewBuilder rowContent: @escaping (Int) -> RowContent) where
  /// Content == ForEach<Range<Int>, Int, RowContent>, RowContent : View`.
  public nonisolated init<RowContent: View>(_ data: Range<Int>, @ViewBuilder rowContent: @escaping (Int) -> RowContent)
  where Content == ForEach<Range<Int>, Int, RowContent> {}
}

/// Apple: `struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ForEach: View where Content: View {
  public typealias Body = Never
  public var body: Never { fatalError("The SwiftUI stand-in is for compiling only") }
}

/// Apple: `struct ContentUnavailableView<Label, Description, Actions> where Label : View, Description : View, Actions
/// : View` (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: _PrimitiveView {
  /// Apple: `init(@ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
  /// @ViewBuilder actions: () -> Actions = { EmptyView() })`.
  public nonisolated init(
    @ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
    @ViewBuilder actions: () -> Actions = { EmptyView() }
  ) {}
}

/// Apple: `@frozen struct Alignment : Equatable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct Alignment: Equatable, Sendable {
  public static let center = Alignment()
}

/// Apple: `@MainActor @preconcurrency struct Link<Label> where Label : View` (macOS 11, iOS 14, tvOS 14, watchOS 7).
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public struct Link<Label: View>: _PrimitiveView {
  /// Apple: `@MainActor @preconcurrency init(destination: URL, @ViewBuilder label: () -> Label)`.
  @MainActor @preconcurrency public init(destination: URL, @ViewBuilder label: () -> Label) {}
}
