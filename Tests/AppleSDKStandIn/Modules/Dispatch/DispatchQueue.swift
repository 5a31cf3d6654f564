// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties
// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The Dispatch stand-in (Tests/AppleSDKStandIn/README.md): Apple's Swift signatures (the Dispatch overlay), for
// compiling only; nothing here runs.

/// Apple: `class DispatchObject`, the base class of dispatch's objects.
open class DispatchObject: @unchecked Sendable {
  init() {}
}

/// Apple: `class DispatchQueue : DispatchObject, @unchecked Sendable`.
public final class DispatchQueue: DispatchObject, @unchecked Sendable {
  /// Apple: `struct DispatchQueue.Attributes : OptionSet, Sendable`.
  public struct Attributes: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let concurrent = Attributes(rawValue: 1 << 1)
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
    public static let initiallyInactive = Attributes(rawValue: 1 << 2)
  }

  /// Apple: `enum DispatchQueue.AutoreleaseFrequency`.
  public enum AutoreleaseFrequency: Sendable {
    case inherit
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
    case workItem
    @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
    case never
  }

  /// Apple: `convenience init(label: String, qos: DispatchQoS = .unspecified, attributes: DispatchQueue.Attributes
  /// = [], autoreleaseFrequency: DispatchQueue.AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil)`.
  public convenience init(
    label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
    autoreleaseFrequency: AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil
  ) {
    self.init(compilingOnly: ())
  }

  init(compilingOnly: Void) {}

  /// Apple: `class var main: DispatchQueue { get }`.
  public class var main: DispatchQueue { fatalError("The Dispatch stand-in is for compiling only") }

  /// Apple: `class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue`.
  @available(macOS 10.10, iOS 8.0, *)
  public class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
    fatalError("The Dispatch stand-in is for compiling only")
  }

  /// Apple: `var label: String { get }`.
  public var label: String { "" }

  /// Apple: `func async(group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags =
  /// [], execute work: @escaping @Sendable @convention(block) () -> Void)`.
  public func async(
    group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
    execute work: @escaping @Sendable @convention(block) () -> Void
  ) {}

  /// Apple: `func asyncAfter(deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags =
  /// [], execute work: @escaping @Sendable @convention(block) () -> Void)`.
  public func asyncAfter(
    deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
    execute work: @escaping @Sendable @convention(block) () -> Void
  ) {}

  /// Apple: `func asyncAfter(deadline: DispatchTime, execute: DispatchWorkItem)`.
  @available(macOS 10.10, iOS 8.0, *)
  public func asyncAfter(deadline: DispatchTime, execute: DispatchWorkItem) {}

  /// Apple: `func sync<T>(execute work: () throws -> T) rethrows -> T`.
  public func sync<T>(execute work: () throws -> T) rethrows -> T { try work() }
}

/// Apple: `class DispatchGroup : DispatchObject, @unchecked Sendable`.
public final class DispatchGroup: DispatchObject, @unchecked Sendable {
  /// Apple: `init()`.
  @available(macOS 10.6, iOS 4.0, watchOS 2.0, *)
  public override init() {}

  /// Apple: `func wait()`.
  public func wait() {}
}

/// Apple: `class DispatchWorkItem`.
@available(macOS 10.10, iOS 8.0, *)
public class DispatchWorkItem {
  /// Apple: `init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], block: @escaping
  /// @convention(block) () -> Void)` (the documentation prints the block without its convention; its symbol's
  /// mangling, `yyXL`, is a block).
  public init(
    qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], block: @escaping @convention(block) () -> Void
  ) {}

  /// Apple: `func cancel()`.
  public func cancel() {}
}

/// Apple: `struct DispatchWorkItemFlags : OptionSet, RawRepresentable, Sendable`.
public struct DispatchWorkItemFlags: OptionSet, RawRepresentable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let barrier = DispatchWorkItemFlags(rawValue: 0x1)
}

/// Apple: `struct DispatchQoS : Equatable, Sendable`.
public struct DispatchQoS: Equatable, Sendable {
  /// Apple: `enum DispatchQoS.QoSClass`.
  public enum QoSClass: Sendable {
    @available(macOS 10.10, iOS 8.0, *)
    case background
    @available(macOS 10.10, iOS 8.0, *)
    case utility
    @available(macOS 10.10, iOS 8.0, *)
    case `default`
    @available(macOS 10.10, iOS 8.0, *)
    case userInitiated
    @available(macOS 10.10, iOS 8.0, *)
    case userInteractive
    case unspecified
  }
  public let qosClass: QoSClass
  public let relativePriority: Int
  public init(qosClass: QoSClass, relativePriority: Int) {
    self.qosClass = qosClass
    self.relativePriority = relativePriority
  }
  @available(macOS 10.10, iOS 8.0, *)
  public static let background = DispatchQoS(qosClass: .background, relativePriority: 0)
  @available(macOS 10.10, iOS 8.0, *)
  public static let utility = DispatchQoS(qosClass: .utility, relativePriority: 0)
  @available(macOS 10.10, iOS 8.0, *)
  public static let `default` = DispatchQoS(qosClass: .default, relativePriority: 0)
  @available(macOS 10.10, iOS 8.0, *)
  public static let userInitiated = DispatchQoS(qosClass: .userInitiated, relativePriority: 0)
  @available(macOS 10.10, iOS 8.0, *)
  public static let userInteractive = DispatchQoS(qosClass: .userInteractive, relativePriority: 0)
  public static let unspecified = DispatchQoS(qosClass: .unspecified, relativePriority: 0)
}

/// Apple: `struct DispatchTime : Comparable, Sendable`.
public struct DispatchTime: Comparable, Sendable {
  /// Apple: `let rawValue: dispatch_time_t`.
  public let rawValue: UInt64
  /// Apple: `static func now() -> DispatchTime`.
  public static func now() -> DispatchTime { DispatchTime(rawValue: 0) }
  /// Apple: `init(uptimeNanoseconds: UInt64)`.
  public init(uptimeNanoseconds: UInt64) { rawValue = uptimeNanoseconds }
  init(rawValue: UInt64) { self.rawValue = rawValue }
  /// Apple: `var uptimeNanoseconds: UInt64 { get }`.
  public var uptimeNanoseconds: UInt64 { rawValue }
  public static func < (lhs: DispatchTime, rhs: DispatchTime) -> Bool { lhs.rawValue < rhs.rawValue }
  /// Apple: `static func + (time: DispatchTime, seconds: Double) -> DispatchTime`.
  public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }
  /// Apple: `static func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime`.
  public static func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime { time }
}

/// Apple: `enum DispatchTimeInterval : Equatable, Sendable`.
public enum DispatchTimeInterval: Equatable, Sendable {
  case seconds(Int)
  case milliseconds(Int)
  case microseconds(Int)
  case nanoseconds(Int)
  case never
}

/// Apple: `enum DispatchTimeoutResult : Sendable`.
public enum DispatchTimeoutResult: Sendable {
  case success
  case timedOut
}

/// Apple: `class DispatchSemaphore : DispatchObject, @unchecked Sendable`.
public final class DispatchSemaphore: DispatchObject, @unchecked Sendable {
  /// Apple: `init(value: Int)`.
  @available(macOS 10.6, iOS 4.0, watchOS 2.0, *)
  public init(value: Int) {}
  /// Apple: `func wait()`.
  public func wait() {}
  /// Apple: `func wait(timeout: DispatchTime) -> DispatchTimeoutResult`.
  public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { .success }
  /// Apple: `@discardableResult func signal() -> Int`.
  @discardableResult public func signal() -> Int { 0 }
}
