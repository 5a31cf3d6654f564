// The one lock NetStatus uses: `Locked`, a value behind a lock. On Apple platforms it is an `OSAllocatedUnfairLock`
// (iOS 16, macOS 13, tvOS 16, watchOS 9), so that the deployment targets are not held at iOS 18 and macOS 15 by
// `Synchronization.Mutex` (they are iOS 17 and macOS 14, Package.swift); elsewhere it is the `Mutex` itself, made
// visible to ThreadSanitizer on Linux by the `withLockedValue(_:)` below. Code uses only `init(_:)` and
// `withLockedValue(_:)`, which both offer with the same signature, so that code that compiles on Linux compiles on
// Apple platforms: the Apple `Locked` has nothing else, and `Mutex.withLock` is called in this file only
// (Tests/NetStatusTests/LockDisciplineTests.swift checks the sources). The Apple half cannot be built here:
// NetStatusAppleLogic compiles this very file (a symlink) with NETSTATUS_NETWORK_STAND_IN defined, against a stand-in
// OSAllocatedUnfairLock that traps on a recursive lock as the real one does
// (Tests/NetStatusAppleLogic/OSAllocatedUnfairLockStandIn.swift), and its tests run it.

#if canImport(os) || NETSTATUS_NETWORK_STAND_IN
  #if canImport(os)
    import os
  #endif

  /// A value that is only read or written with its lock held: an `OSAllocatedUnfairLock` on Apple platforms.
  ///
  /// Not recursive: locking it again on the thread that holds it traps. Copyable, unlike the `Mutex` version
  /// (copies share the lock and the value, as `OSAllocatedUnfairLock`'s do); NetStatus never copies one.
  package struct Locked<Value>: @unchecked Sendable {
    /// The value's storage; only touched with `lock` held.
    private final class Storage {
      var value: Value

      init(_ value: consuming Value) {
        self.value = value
      }
    }

    private let lock = OSAllocatedUnfairLock()
    private let storage: Storage

    /// Creates the lock, holding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
      storage = Storage(initialValue)
    }

    /// Runs `body` with the value, the lock held. `body` must not lock the same `Locked` again.
    @inline(__always)
    package borrowing func withLockedValue<Result: ~Copyable, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      lock.lock()
      defer { lock.unlock() }
      return try body(&storage.value)
    }
  }
#else
  import Synchronization

  #if os(Linux)
    import CNetStatusShim
  #endif
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// A value that is only read or written with its lock held: the `Mutex` itself, locked through its
  /// `withLockedValue(_:)` below, which ThreadSanitizer sees on Linux.
  ///
  /// Not recursive: locking it again on the thread that holds it traps.
  package typealias Locked<Value> = Mutex<Value>

  #if DEBUG && (canImport(Glibc) || canImport(Musl))
    /// How many locks (``Locked`` or `Mutex`, locked through `withLockedValue(_:)`) the calling thread holds, in
    /// debug builds: on Apple platforms a `Locked` is an `OSAllocatedUnfairLock`, under which no call may go out to
    /// Network, UIKit or AppKit (they may block, or call back into NetStatus on the same thread). Tests read it from
    /// inside a path source's start and stop, which is where those calls go out
    /// (Tests/NetStatusTests/CallOutLockTests.swift). Every lock counts, not only a `Locked`: stricter than the
    /// Apple rule, and the Linux-only locks are never held across a source's start or stop either.
    @usableFromInline package enum LockedDepth {
      /// A thread-specific slot, holding the depth as the pointer's bit pattern (`nil`: 0).
      private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for LockedDepth")
        return key
      }()

      /// How many locks the calling thread holds now.
      package static var current: Int { Int(bitPattern: pthread_getspecific(key)) }

      @usableFromInline static func change(by delta: Int) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: current + delta))
      }
    }
  #endif

  extension Mutex where Value: ~Copyable {
    /// `withLock`, made visible to ThreadSanitizer.
    ///
    /// On Linux, `Mutex` waits on a futex that ThreadSanitizer does not understand, so it reports every
    /// access made under the lock as a race. This tells TSan that the lock was acquired and released; without
    /// TSan the annotations do nothing (weak symbols). Everything in NetStatus locks through this method: through
    /// `Locked` in code for every platform, directly in Linux-only code; `withLock` is called here only
    /// (Tests/NetStatusTests/LockDisciplineTests.swift checks the sources).
    ///
    /// Inlinable, so that a caller in another module (the CLI's) gets it specialized for its value, as callers in
    /// this module do.
    @inlinable
    package borrowing func withLockedValue<Result: ~Copyable, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      #if DEBUG && (canImport(Glibc) || canImport(Musl))
        LockedDepth.change(by: 1)
        defer { LockedDepth.change(by: -1) }
      #endif
      #if os(Linux)
        // The mutex's own address names the lock for TSan (taking it touches no guarded state); without
        // ThreadSanitizer linked in, there is nothing to tell it, and no address to work out.
        let address =
          cnetstatus_tsan_linked() != 0 ? withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) } : nil
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
          cnetstatus_tsan_acquire(address)
          defer { cnetstatus_tsan_release(address) }
          return try body(&value)
        }
      #else
        return try withLock(body)
      #endif
    }
  }
#endif
