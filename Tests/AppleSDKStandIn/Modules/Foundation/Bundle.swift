// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
/// Apple: `class Bundle : NSObject, @unchecked Sendable`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class Bundle: NSObject, @unchecked Sendable {
  /// Apple: `class var main: Bundle { get }`.
  open class var main: Bundle { fatalError("The Foundation stand-in is for compiling only") }
  /// Apple: `convenience init?(path: String)`.
  public convenience init?(path: String) { self.init(url: URL(fileURLWithPath: path)) }
  /// Apple: `convenience init?(url: URL)`.
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  public convenience init?(url: URL) { return nil }
  /// Apple: `var bundleURL: URL { get }`.
  open var bundleURL: URL { fatalError("The Foundation stand-in is for compiling only") }
  /// Apple: `var bundlePath: String { get }`.
  open var bundlePath: String { "" }
  /// Apple: `var resourceURL: URL? { get }`.
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  open var resourceURL: URL? { nil }
  /// Apple: `var bundleIdentifier: String? { get }`.
  open var bundleIdentifier: String? { nil }
  /// Apple: `var preferredLocalizations: [String] { get }`.
  open var preferredLocalizations: [String] { [] }
  /// Apple: `var localizations: [String] { get }`.
  open var localizations: [String] { [] }
  /// Apple: `func localizedString(forKey key: String, value: String?, table tableName: String?) -> String`.
  open func localizedString(forKey key: String, value: String?, table tableName: String?) -> String { key }
  /// Apple: `func url(forResource name: String?, withExtension ext: String?) -> URL?`.
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  open func url(forResource name: String?, withExtension ext: String?) -> URL? { nil }
}

/// Apple: `struct URL : Equatable, Hashable, Sendable`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
public struct URL: Equatable, Hashable, Sendable {
  private let text: String
  /// Apple: `init(fileURLWithPath path: String)`.
  public init(fileURLWithPath path: String) { text = path }
  /// Apple: `init?(string: String)`.
  public init?(string: String) { text = string }
  /// Apple: `var path: String { get }`.
  public var path: String { text }
  /// Apple: `var absoluteString: String { get }`.
  public var absoluteString: String { text }
  /// Apple: `func appendingPathComponent(_ pathComponent: String) -> URL`.
  public func appendingPathComponent(_ pathComponent: String) -> URL {
    URL(fileURLWithPath: text + "/" + pathComponent)
  }
  /// Apple: `func appendingPathComponent(_ pathComponent: String, isDirectory: Bool) -> URL`.
  public func appendingPathComponent(_ pathComponent: String, isDirectory: Bool) -> URL {
    appendingPathComponent(pathComponent)
  }
  /// Apple: `func deletingLastPathComponent() -> URL`.
  public func deletingLastPathComponent() -> URL { self }
}

/// Apple: `struct Data : Equatable, Hashable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
/// Sendable` of bytes.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
public struct Data: Equatable, Hashable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
  Sendable
{
  private var bytes: [UInt8]
  public init() { bytes = [] }
  /// Apple: `init<S>(_ elements: S) where S : Sequence, S.Element == UInt8`.
  public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { bytes = Array(elements) }
  public var startIndex: Int { bytes.startIndex }
  public var endIndex: Int { bytes.endIndex }
  public subscript(position: Int) -> UInt8 {
    get { bytes[position] }
    set { bytes[position] = newValue }
  }
  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == UInt8 {
    bytes.replaceSubrange(subrange, with: newElements)
  }
}
