import Glibc

/// The calling thread's CPU affinity, for the one-CPU latency series: threads and processes started while it is
/// confined inherit it. `sched_setaffinity` through `dlsym`, as Glibc's Swift module does not declare it.
enum CPUAffinity {
  private typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
  /// Room for 1,024 CPUs, glibc's `cpu_set_t`.
  private static let setSize = 128

  private static func function(_ name: String) throws -> Call {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
      throw BenchError("\(name) is missing from the C library")
    }
    return unsafeBitCast(symbol, to: Call.self)
  }

  /// Runs `body` with the calling thread confined to `cpu` (numbered from 0), then restores its affinity.
  static func confined<Value>(toCPU cpu: Int, _ body: () throws -> Value) throws -> Value {
    let get = try function("sched_getaffinity")
    let set = try function("sched_setaffinity")
    var saved = [UInt8](repeating: 0, count: setSize)
    guard get(0, setSize, &saved) == 0 else { throw BenchError("sched_getaffinity: errno \(errno)") }
    var one = [UInt8](repeating: 0, count: setSize)
    one[cpu / 8] = 1 << UInt8(cpu % 8)
    guard set(0, setSize, &one) == 0 else { throw BenchError("sched_setaffinity(CPU \(cpu)): errno \(errno)") }
    defer { _ = set(0, setSize, &saved) }
    return try body()
  }
}
