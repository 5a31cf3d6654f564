// The os stand-in (Tests/AppleSDKStandIn/README.md): Apple's signatures and availability, for compiling only.

/// Apple: `struct OSAllocatedUnfairLock<State>`, macOS 13, iOS 16, tvOS 16, watchOS 9.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@frozen
public struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
  /// Apple: `init(uncheckedState initialState: State)`.
  public init(uncheckedState initialState: State) {}

  /// Apple: `init(initialState: State)` where `State: Sendable`.
  public init(initialState: State) where State: Sendable {}

  /// Apple: `func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R`.
  public func withLockUnchecked<R>(_ body: (inout State) throws -> R) rethrows -> R {
    fatalError("The os stand-in is for compiling only")
  }

  /// Apple: `func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R where R: Sendable`.
  public func withLock<R>(_ body: @Sendable (inout State) throws -> R) rethrows -> R where R: Sendable {
    fatalError("The os stand-in is for compiling only")
  }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension OSAllocatedUnfairLock where State == () {
  /// Apple: `init()`.
  public init() {}

  // Only where `State == ()`, and not from async code: the SDK declares them so (a lock held across an `await` may
  // be released on another thread, which `os_unfair_lock` traps on).

  /// Apple: `func lock()`, `@available(*, noasync)`.
  @available(*, noasync, message: "Use async-safe scoped locking instead")
  public func lock() {}
  /// Apple: `func unlock()`, `@available(*, noasync)`.
  @available(*, noasync, message: "Use async-safe scoped locking instead")
  public func unlock() {}
  /// Apple: `func lockIfAvailable() -> Bool`, `@available(*, noasync)`.
  @available(*, noasync, message: "Use async-safe scoped locking instead")
  public func lockIfAvailable() -> Bool { true }

  /// Apple: `func withLockUnchecked<R>(_ body: () throws -> R) rethrows -> R`.
  public func withLockUnchecked<R>(_ body: () throws -> R) rethrows -> R { try body() }

  /// Apple: `func withLock<R>(_ body: @Sendable () throws -> R) rethrows -> R where R: Sendable`.
  public func withLock<R>(_ body: @Sendable () throws -> R) rethrows -> R where R: Sendable { try body() }
}

/// Apple: `struct OSAllocatedUnfairLockFlags`, an `OptionSet`, macOS 15, iOS 18, tvOS 18, watchOS 11. NetStatus does
/// not use it: it is the os API above the deployment floor that the availability gate's self-test needs.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public struct OSAllocatedUnfairLockFlags: OptionSet {
  /// The flags' bits, as C's `os_unfair_lock_flags_t` (`uint32_t`) has them; Apple's page names no raw type.
  public let rawValue: UInt32
  /// Makes flags from their bits (`OptionSet`'s requirement).
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Apple: `static let adaptiveSpin: OSAllocatedUnfairLockFlags`.
  nonisolated(unsafe) public static let adaptiveSpin = OSAllocatedUnfairLockFlags(rawValue: 0x0004_0000)
}
