import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Stand-in for `os.OSAllocatedUnfairLock`, for Mutex+ThreadSanitizer.swift's Apple half (compiled here through a
/// symlink): only what that file uses, `init()`, `lock()` and `unlock()` where `State == ()`, with Apple's documented
/// signatures (developer.apple.com/documentation/os/osallocatedunfairlock).
///
/// As strict as the real lock, whose `os_unfair_lock` traps when the thread that holds it locks it again and when a
/// thread that does not hold it unlocks it: an error-checking pthread mutex (NetStatusCore's `CallOutLock`), which
/// traps on both. Copies share the lock, as the real one's do.
struct OSAllocatedUnfairLock<State>: @unchecked Sendable {
  /// The mutex, shared by copies. `@unchecked Sendable`: a pthread mutex is for threads.
  private let storage: CallOutLock
}

extension OSAllocatedUnfairLock where State == () {
  /// Creates a lock object that doesn't protect state data. Apple: `init()`.
  init() {
    storage = CallOutLock()
  }

  /// Acquires a lock. Apple: `func lock()`.
  func lock() {
    storage.lock()
    HeldLocks.count += 1
  }

  /// Ends the lock. Apple: `func unlock()`.
  func unlock() {
    HeldLocks.count -= 1
    storage.unlock()
  }
}

/// How many `OSAllocatedUnfairLock`s the calling thread holds (a test hook the real lock does not have): tests check
/// that no Network call is made while one is held.
enum HeldLocks {
  /// The thread-specific key under which each thread's count is kept (as a pointer's bits).
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create")
    return key
  }()

  /// The calling thread's count.
  static var count: Int {
    get { Int(bitPattern: pthread_getspecific(key)) }
    set { precondition(pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) == 0, "pthread_setspecific") }
  }
}
