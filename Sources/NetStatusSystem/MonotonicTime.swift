#if os(Linux)
  import Glibc

  /// The monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds: what the event loop's deadlines are measured on. A change
  /// of the wall clock neither shortens nor extends them.
  package enum MonotonicTime {
    /// Now, in nanoseconds since an unspecified start (the boot, on Linux).
    package static func now() -> UInt64 {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
  }
#endif
