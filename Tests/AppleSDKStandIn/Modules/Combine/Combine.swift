// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties
// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The Combine stand-in (Tests/AppleSDKStandIn/README.md): Apple's Swift signatures and availability (macOS 10.15,
// iOS 13, tvOS 13, watchOS 6), for compiling only.

/// Apple: `protocol Publisher<Output, Failure>`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
  func receive<S: Subscriber>(subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input
}

/// Apple: `protocol Subscriber<Input, Failure> : CustomCombineIdentifierConvertible`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  associatedtype Input
  associatedtype Failure: Error
  func receive(subscription: any Subscription)
  func receive(_ input: Self.Input) -> Subscribers.Demand
  func receive(completion: Subscribers.Completion<Self.Failure>)
}

/// Apple: `protocol Subscription : Cancellable, CustomCombineIdentifierConvertible`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  func request(_ demand: Subscribers.Demand)
}

/// Apple: `protocol Cancellable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Cancellable {
  func cancel()
}

/// Apple: `protocol CustomCombineIdentifierConvertible`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol CustomCombineIdentifierConvertible {
  var combineIdentifier: CombineIdentifier { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// Apple: a class's identifier is its object identity.
  public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

/// Apple: `struct CombineIdentifier : Hashable, CustomStringConvertible`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
  private let value: UInt64
  /// Apple: `init()`.
  public init() { value = 0 }
  /// Apple: `init(_ obj: AnyObject)`.
  public init(_ obj: AnyObject) { value = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue)) }
  public var description: String { "0x\(String(value, radix: 16))" }
}

/// Apple: `enum Subscribers`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Subscribers {
  /// Apple: `struct Subscribers.Demand : Equatable, Comparable, Hashable, Codable, CustomStringConvertible`.
  @frozen
  public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
    private let rawValue: UInt
    private init(rawValue: UInt) { self.rawValue = rawValue }
    /// Apple: `static let unlimited: Subscribers.Demand`.
    public static let unlimited = Demand(rawValue: .max)
    /// Apple: `static let none: Subscribers.Demand`.
    public static let none = Demand(rawValue: 0)
    /// Apple: `static func max(_ value: Int) -> Subscribers.Demand`.
    public static func max(_ value: Int) -> Demand { Demand(rawValue: UInt(value)) }
    /// Apple: `var max: Int? { get }`: `nil` for unlimited.
    public var max: Int? { rawValue == .max ? nil : Int(rawValue) }
    public var description: String { max.map { "max(\($0))" } ?? "unlimited" }
    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: Demand, rhs: Demand) -> Demand { lhs }
    public static func += (lhs: inout Demand, rhs: Demand) {}
  }

  /// Apple: `enum Subscribers.Completion<Failure> where Failure : Error`.
  @frozen
  public enum Completion<Failure: Error> {
    case finished
    case failure(Failure)
  }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers.Completion: Sendable where Failure: Sendable {}

/// Apple: `final class AnyCancellable : Cancellable, Hashable`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public final class AnyCancellable: Cancellable, Hashable {
  /// Apple: `init(_ cancel: @escaping () -> Void)`.
  public init(_ cancel: @escaping () -> Void) {}
  /// Apple: `init<C>(_ canceller: C) where C : Cancellable`.
  public init<C: Cancellable>(_ canceller: C) {}
  public func cancel() {}
  /// Apple: `final func store(in set: inout Set<AnyCancellable>)`.
  public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher {
  /// Apple: `func map<T>(_ transform: @escaping (Self.Output) -> T) -> Publishers.Map<Self, T>`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }

  /// Apple: `func sink(receiveValue: @escaping ((Self.Output) -> Void)) -> AnyCancellable` where `Failure == Never`.
  public func sink(receiveValue: @escaping ((Output) -> Void)) -> AnyCancellable where Failure == Never {
    AnyCancellable {}
  }

  /// Apple: `func sink(receiveCompletion: @escaping ((Subscribers.Completion<Self.Failure>) -> Void), receiveValue:
  /// @escaping ((Self.Output) -> Void)) -> AnyCancellable`.
  public func sink(
    receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
    receiveValue: @escaping ((Output) -> Void)
  ) -> AnyCancellable {
    AnyCancellable {}
  }
}

/// Apple: `enum Publishers`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Publishers {
  /// Apple: `struct Publishers.Map<Upstream, Output> : Publisher where Upstream : Publisher`.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let transform: (Upstream.Output) -> Output
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {}
  }
}
