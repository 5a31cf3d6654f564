import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the one clock every timestamp of the benchmarks uses, in this process and
/// (through the kernel) for the changes it makes.
enum Monotonic {
  /// Now, in nanoseconds since an arbitrary point (boot).
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
