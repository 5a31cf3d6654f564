// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, DontRepeatTypeInStaticProperties

// (A stand-in copies Apple's declarations, names included; Apple documents them, and each type and member that
// is not a conformance's requirement quotes Apple's declaration.)
// The Foundation stand-in (Tests/AppleSDKStandIn/README.md): the members NetStatus's Apple code and SwiftPM's
// generated resource accessor use, with Apple's Swift signatures, for compiling only. As in Apple's SDK, importing
// Foundation also imports Darwin and Dispatch.
@_exported import Darwin
@_exported import Dispatch

/// Apple (ObjectiveC): `protocol NSObjectProtocol`.
public protocol NSObjectProtocol: AnyObject {}

/// Apple (ObjectiveC): `class NSObject : NSObjectProtocol, Hashable`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 1.0, *)
open class NSObject: NSObjectProtocol, Hashable {
  public init() {}
  public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Apple: `protocol NSLocking`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
public protocol NSLocking {
  func lock()
  func unlock()
}

@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
extension NSLocking {
  /// Apple: `func withLock<R>(_ body: () throws -> R) rethrows -> R` (macOS 10.10, iOS 8).
  public func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// Apple: `class NSLock : NSObject, NSLocking, @unchecked Sendable`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class NSLock: NSObject, NSLocking, @unchecked Sendable {
  public override init() {}
  open func lock() {}
  open func unlock() {}
  /// Apple: `func `try`() -> Bool`.
  open func `try`() -> Bool { true }
}

/// Apple: `class NSNotification : NSObject, NSCopying, NSSecureCoding`; Swift code uses ``Notification``.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class NSNotification: NSObject, @unchecked Sendable {
  /// Apple: `struct NSNotification.Name : Hashable, Equatable, RawRepresentable, @unchecked Sendable`.
  public struct Name: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
  }
}

/// Apple: `struct Notification : ReferenceConvertible, Equatable, Hashable, @unchecked Sendable`.
@available(macOS 10.10, iOS 8.0, tvOS 9.0, watchOS 2.0, *)
public struct Notification: Equatable, Hashable, @unchecked Sendable {
  /// Apple: `typealias Notification.Name = NSNotification.Name`.
  public typealias Name = NSNotification.Name
  /// Apple: `var name: Notification.Name`.
  public var name: Name
  /// Apple: `var object: Any?`.
  public var object: Any?
  /// Apple: `var userInfo: [AnyHashable : Any]?`.
  public var userInfo: [AnyHashable: Any]?

  /// Apple: `init(name: Notification.Name, object: Any? = nil, userInfo: [AnyHashable : Any]? = nil)`.
  public init(name: Name, object: Any? = nil, userInfo: [AnyHashable: Any]? = nil) {
    self.name = name
    self.object = object
    self.userInfo = userInfo
  }

  public static func == (lhs: Notification, rhs: Notification) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Apple: `class OperationQueue : NSObject, ProgressReporting, @unchecked Sendable`.
@available(macOS 10.5, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class OperationQueue: NSObject, @unchecked Sendable {
  /// Apple: `class var main: OperationQueue { get }` (macOS 10.6, iOS 4).
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  open class var main: OperationQueue { fatalError("The Foundation stand-in is for compiling only") }

  /// Apple: `func addOperation(_ block: @escaping @Sendable () -> Void)` (macOS 10.6, iOS 4).
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  open func addOperation(_ block: @escaping @Sendable () -> Void) {}
}

/// Apple: `class NotificationCenter : NSObject, @unchecked Sendable`.
@available(macOS 10.0, iOS 2.0, tvOS 9.0, watchOS 2.0, *)
open class NotificationCenter: NSObject, @unchecked Sendable {
  /// Apple: `class var `default`: NotificationCenter { get }`.
  open class var `default`: NotificationCenter { fatalError("The Foundation stand-in is for compiling only") }

  /// Apple: `func post(name aName: NSNotification.Name, object anObject: Any?, userInfo aUserInfo: [AnyHashable :
  /// Any]? = nil)`.
  open func post(name aName: NSNotification.Name, object anObject: Any?, userInfo aUserInfo: [AnyHashable: Any]? = nil)
  {}

  /// Apple: `func post(_ notification: Notification)`.
  open func post(_ notification: Notification) {}

  /// Apple: `func addObserver(forName name: NSNotification.Name?, object obj: Any?, queue: OperationQueue?, using
  /// block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol` (macOS 10.6, iOS 4).
  @available(macOS 10.6, iOS 4.0, tvOS 9.0, watchOS 2.0, *)
  open func addObserver(
    forName name: NSNotification.Name?, object obj: Any?, queue: OperationQueue?,
    using block: @escaping @Sendable (Notification) -> Void
  ) -> any NSObjectProtocol {
    fatalError("The Foundation stand-in is for compiling only")
  }

  /// Apple: `func removeObserver(_ observer: Any)`.
  open func removeObserver(_ observer: Any) {}

  /// Apple: `func notifications(named name: Notification.Name, object: (any AnyObject & Sendable)? = nil) ->
  /// NotificationCenter.Notifications` (macOS 12, iOS 15).
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  public func notifications(named name: Notification.Name, object: (any AnyObject & Sendable)? = nil) -> Notifications {
    Notifications()
  }

  /// Apple: `final class NotificationCenter.Notifications : AsyncSequence`.
  @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
  public final class Notifications: AsyncSequence, @unchecked Sendable {
    public typealias Element = Notification
    init() {}
    /// Apple: `struct NotificationCenter.Notifications.Iterator : AsyncIteratorProtocol`.
    public struct Iterator: AsyncIteratorProtocol {
      public mutating func next() async -> Notification? { nil }
    }
    public func makeAsyncIterator() -> Iterator { Iterator() }
  }
}
