// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
/// Apple: `protocol EnvironmentKey`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol EnvironmentKey {
  associatedtype Value
  static var defaultValue: Self.Value { get }
}

/// Apple: `struct EnvironmentValues : CustomStringConvertible`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct EnvironmentValues: CustomStringConvertible {
  public init() {}
  /// Apple: `subscript<K>(key: K.Type) -> K.Value where K : EnvironmentKey { get set }`.
  public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
    get { K.defaultValue }
    set {}
  }
  public var description: String { "EnvironmentValues" }
}

/// Apple: `@frozen @propertyWrapper struct Environment<Value> : DynamicProperty`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper
public struct Environment<Value>: DynamicProperty {
  /// Apple: `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`.
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
  /// Apple: `@inlinable var wrappedValue: Value { get }`.
  public var wrappedValue: Value { fatalError("The SwiftUI stand-in is for compiling only") }
}

/// Apple: `@frozen @propertyWrapper struct State<Value> : DynamicProperty`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
  /// Apple: `init(wrappedValue value: Value)`.
  public init(wrappedValue value: Value) {}
  /// Apple: `init()` where `Value: ExpressibleByNilLiteral`.
  public init() where Value: ExpressibleByNilLiteral {}
  /// Apple: `var wrappedValue: Value { get nonmutating set }`.
  public var wrappedValue: Value {
    get { fatalError("The SwiftUI stand-in is for compiling only") }
    nonmutating set {}
  }
}

/// Apple: `protocol DynamicProperty`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol DynamicProperty {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension View {
  /// Apple: `func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View`.
  public nonisolated func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
    modifier(_StandInModifier())
  }
}
