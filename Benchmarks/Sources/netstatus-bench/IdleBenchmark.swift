import Glibc

/// The idle cost and memory of `netstatus watch`: CPU time and wake-ups over a quiet interval, and peak RSS
/// compared with a hello-world Swift program that links the same toolchain modules (netstatus-bench-hello-core: no
/// Foundation, as netstatus).
struct IdleBenchmark {
  /// One quiet interval.
  struct Window: Codable, Sendable {
    /// When it started, in seconds after the first path was printed.
    var startSeconds: Double
    /// Its length, in seconds.
    var seconds: Double
    /// utime + stime of the whole process (exited threads included), in clock ticks (1/100 s here).
    var cpuTicks: Int
    /// CPU time of the threads alive at the end, in microseconds (scheduler clock, nanosecond resolution).
    var cpuMicroseconds: Double
    /// Context switches (voluntary + involuntary) of the threads alive at the end, plus one per thread that
    /// ended (it woke up to end): wake-ups.
    var wakeups: Int
    /// Threads at the start and at the end.
    var threadsBefore: Int
    var threadsAfter: Int
    /// Threads that ended during the window (idle dispatch workers time out and exit).
    var threadsEnded: [String]
    /// Live threads that used CPU or switched during the window.
    var busyThreads: [ThreadDelta]
  }

  /// The result.
  struct Result: Codable, Sendable {
    /// Two consecutive quiet windows: the first starts a second after the first path (start-up's idle
    /// dispatch workers still time out in it), the second is the steady state.
    var windows: [Window]
    /// VmHWM of `netstatus watch` after the windows, KiB.
    var peakResidentKilobytes: Int
    /// VmHWM of the hello-world program, KiB.
    var helloPeakResidentKilobytes: Int
    /// The difference, KiB.
    var monitorAddsKilobytes: Int
    /// RssAnon (private heap and stacks) of `netstatus watch` and of the hello-world program, KiB.
    var anonymousKilobytes: Int
    var helloAnonymousKilobytes: Int
  }

  /// Runs `netstatus watch --json` in a namespace with one veth and a default route, waits for its first
  /// path and a settling second, then samples it over `seconds` of quiet.
  static func run(netstatus: String, hello: String, seconds: Double) throws -> Result {
    let (watched, peer) = try BenchNamespace.vethPair("idle")
    defer {
      watched.delete()
      peer.delete()
    }

    let process = try ChildProcess([netstatus, "watch", "--json", "--netns", watched.name])
    defer { process.stop() }
    try process.waitForFirstLine()
    usleep(1_000_000)  // let start-up work (first allocations, handler dispatches) finish: it is not idle cost
    var windows: [Window] = []
    var start = 1.0
    for _ in 0..<2 {
      let before = try ProcessSample(pid: "\(process.pid)")
      usleep(useconds_t(seconds * 1_000_000))
      let after = try ProcessSample(pid: "\(process.pid)")
      let deltas = after.threadDeltas(since: before)
      let ended = before.threads.filter { after.threads[$0.key] == nil }.map { "\($0.key) '\($0.value.name)'" }
      let liveBefore = before.threads.filter { after.threads[$0.key] != nil }.values
      windows.append(
        Window(
          startSeconds: start, seconds: seconds, cpuTicks: after.cpuTicks - before.cpuTicks,
          cpuMicroseconds: Double(after.threadRunNanoseconds - liveBefore.reduce(0) { $0 + $1.runNanoseconds }) / 1_000,
          wakeups: deltas.reduce(0) { $0 + $1.voluntarySwitches + $1.involuntarySwitches } + ended.count,
          threadsBefore: before.threads.count, threadsAfter: after.threads.count, threadsEnded: ended.sorted(),
          busyThreads: deltas))
      start += seconds
    }
    let final = try ProcessSample(pid: "\(process.pid)")
    guard process.lines.count == 1 else { throw BenchError("netstatus printed during the quiet windows") }

    let helloProcess = try ChildProcess([hello])
    defer { helloProcess.stop() }
    try helloProcess.waitForFirstLine()
    let helloSample = try ProcessSample(pid: "\(helloProcess.pid)")

    return Result(
      windows: windows, peakResidentKilobytes: final.peakResidentKilobytes,
      helloPeakResidentKilobytes: helloSample.peakResidentKilobytes,
      monitorAddsKilobytes: final.peakResidentKilobytes - helloSample.peakResidentKilobytes,
      anonymousKilobytes: final.anonymousKilobytes, helloAnonymousKilobytes: helloSample.anonymousKilobytes)
  }
}
