#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A lock that may be held while calling out to code that is not NetStatus's own: a path source's start and stop,
/// and through them Network's `start(queue:)` and `cancel()`, or the join of a Linux source's thread.
///
/// A `pthread_mutex_t` on every platform, error-checking (locking it again on the thread that holds it traps), whose
/// waiters sleep. Never an `OSAllocatedUnfairLock` (``Locked`` on Apple platforms), which must not be held across
/// calls into the system's frameworks: those may block, or call back into NetStatus on the same thread. Holds no
/// value: it orders operations, and ``Locked`` guards the state they change. ThreadSanitizer understands it as it
/// is.
package final class CallOutLock: @unchecked Sendable {
  /// The mutex, allocated once so that it never moves. `@unchecked Sendable`: a pthread mutex is for threads.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  package init() {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held. `body` must not take this lock again.
  package func withLock<Result: ~Copyable, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Takes the lock; traps if the calling thread holds it already.
  package func lock() {
    let result = pthread_mutex_lock(mutex)
    precondition(result == 0, result == EDEADLK ? "a lock taken again by its holder" : "pthread_mutex_lock: \(result)")
  }

  /// Releases the lock; traps if the calling thread does not hold it.
  package func unlock() {
    let result = pthread_mutex_unlock(mutex)
    precondition(
      result == 0, result == EPERM ? "a lock released by a thread that does not hold it" : "unlock: \(result)")
  }
}
