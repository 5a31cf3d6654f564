// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
/// Apple (CoreFoundation, re-exported by Foundation): `struct CGFloat`, a `Double` on 64-bit platforms.
@frozen
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 1.0, *)
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
