/// Apple: `class Bundle : NSObject, @unchecked Sendable`.
open class Bundle: NSObject, @unchecked Sendable {
  /// Apple: `class var main: Bundle { get }`.
  open class var main: Bundle { fatalError("The Foundation stand-in is for compiling only") }
  /// Apple: `convenience init?(path: String)`.
  public convenience init?(path: String) { self.init(url: URL(fileURLWithPath: path)) }
  /// Apple: `convenience init?(url: URL)`.
  public convenience init?(url: URL) { return nil }
  /// Apple: `var bundleURL: URL { get }`.
  open var bundleURL: URL { fatalError("The Foundation stand-in is for compiling only") }
  /// Apple: `var bundlePath: String { get }`.
  open var bundlePath: String { "" }
  /// Apple: `var resourceURL: URL? { get }`.
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
  open func url(forResource name: String?, withExtension ext: String?) -> URL? { nil }
}

/// Apple: `struct URL : Equatable, Hashable, Sendable`.
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

/// Apple (CoreFoundation, re-exported by Foundation): `struct CGFloat`, a `Double` on 64-bit platforms.
@frozen
public struct CGFloat: BinaryFloatingPoint, Sendable, Codable, CustomStringConvertible {
  public typealias RawSignificand = UInt64
  public typealias Exponent = Int
  public typealias Magnitude = CGFloat
  public typealias IntegerLiteralType = Int
  public typealias FloatLiteralType = Double
  public typealias Stride = CGFloat
  /// Apple: `var native: Double`.
  public var native: Double
  public init(_ value: Double) { native = value }
  public init() { native = 0 }
  public init(integerLiteral value: Int) { native = Double(value) }
  public init(floatLiteral value: Double) { native = value }
  public init<Source: BinaryInteger>(_ value: Source) { native = Double(value) }
  public init?<Source: BinaryInteger>(exactly value: Source) {
    guard let value = Double(exactly: value) else { return nil }
    native = value
  }
  public init(sign: FloatingPointSign, exponent: Int, significand: CGFloat) {
    native = Double(sign: sign, exponent: exponent, significand: significand.native)
  }
  public init(sign: FloatingPointSign, exponentBitPattern: UInt, significandBitPattern: UInt64) {
    native = Double(sign: sign, exponentBitPattern: exponentBitPattern, significandBitPattern: significandBitPattern)
  }
  public static var exponentBitCount: Int { Double.exponentBitCount }
  public static var significandBitCount: Int { Double.significandBitCount }
  public var exponentBitPattern: UInt { native.exponentBitPattern }
  public var significandBitPattern: UInt64 { native.significandBitPattern }
  public var binade: CGFloat { CGFloat(native.binade) }
  public var significandWidth: Int { native.significandWidth }
  public var sign: FloatingPointSign { native.sign }
  public var exponent: Int { native.exponent }
  public var significand: CGFloat { CGFloat(native.significand) }
  public var magnitude: CGFloat { CGFloat(native.magnitude) }
  public static var nan: CGFloat { CGFloat(Double.nan) }
  public static var signalingNaN: CGFloat { CGFloat(Double.signalingNaN) }
  public static var infinity: CGFloat { CGFloat(Double.infinity) }
  public static var greatestFiniteMagnitude: CGFloat { CGFloat(Double.greatestFiniteMagnitude) }
  public static var pi: CGFloat { CGFloat(Double.pi) }
  public static var leastNormalMagnitude: CGFloat { CGFloat(Double.leastNormalMagnitude) }
  public static var leastNonzeroMagnitude: CGFloat { CGFloat(Double.leastNonzeroMagnitude) }
  public var ulp: CGFloat { CGFloat(native.ulp) }
  public var nextUp: CGFloat { CGFloat(native.nextUp) }
  public var isNormal: Bool { native.isNormal }
  public var isFinite: Bool { native.isFinite }
  public var isZero: Bool { native.isZero }
  public var isSubnormal: Bool { native.isSubnormal }
  public var isInfinite: Bool { native.isInfinite }
  public var isNaN: Bool { native.isNaN }
  public var isSignalingNaN: Bool { native.isSignalingNaN }
  public var isCanonical: Bool { native.isCanonical }
  public var description: String { native.description }
  public mutating func round(_ rule: FloatingPointRoundingRule) { native.round(rule) }
  public mutating func formRemainder(dividingBy other: CGFloat) { native.formRemainder(dividingBy: other.native) }
  public mutating func formTruncatingRemainder(dividingBy other: CGFloat) {
    native.formTruncatingRemainder(dividingBy: other.native)
  }
  public mutating func formSquareRoot() { native.formSquareRoot() }
  public mutating func addProduct(_ lhs: CGFloat, _ rhs: CGFloat) { native.addProduct(lhs.native, rhs.native) }
  public func isEqual(to other: CGFloat) -> Bool { native.isEqual(to: other.native) }
  public func isLess(than other: CGFloat) -> Bool { native.isLess(than: other.native) }
  public func isLessThanOrEqualTo(_ other: CGFloat) -> Bool { native.isLessThanOrEqualTo(other.native) }
  public func isTotallyOrdered(belowOrEqualTo other: CGFloat) -> Bool {
    native.isTotallyOrdered(belowOrEqualTo: other.native)
  }
  public func distance(to other: CGFloat) -> CGFloat { CGFloat(native.distance(to: other.native)) }
  public func advanced(by amount: CGFloat) -> CGFloat { CGFloat(native.advanced(by: amount.native)) }
  public static func + (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native + rhs.native) }
  public static func - (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native - rhs.native) }
  public static func * (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native * rhs.native) }
  public static func / (lhs: CGFloat, rhs: CGFloat) -> CGFloat { CGFloat(lhs.native / rhs.native) }
  public static func += (lhs: inout CGFloat, rhs: CGFloat) { lhs.native += rhs.native }
  public static func -= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native -= rhs.native }
  public static func *= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native *= rhs.native }
  public static func /= (lhs: inout CGFloat, rhs: CGFloat) { lhs.native /= rhs.native }
}
