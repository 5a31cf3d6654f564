import Synchronization

#if os(Linux)
  import CNetStatusShim
#endif

extension Mutex where Value: ~Copyable {
  /// `withLock`, made visible to ThreadSanitizer.
  ///
  /// On Linux, `Mutex` waits on a futex that ThreadSanitizer does not understand, so it reports every
  /// access made under the lock as a race. This tells TSan that the lock was acquired and released; without
  /// TSan the annotations do nothing (weak symbols). Everything in NetStatus locks through this method.
  @inline(__always)
  package borrowing func withLockedValue<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    #if os(Linux)
      // The mutex's own address names the lock for TSan; taking it touches no guarded state.
      let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
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
