import Foundation
import Glibc

/// One `netstatus watch --all-netns --json` watching many namespaces (1,000 by default): its threads,
/// descriptors and memory, the time from its start to every namespace's first path, its CPU while nothing
/// changes, and the latency of a change in one namespace against `ip -n NS monitor route` and the design floor
/// (`netstatus-floor --netns NS`) for that namespace.
///
/// The namespaces are empty but for loopback (made with one `ip -batch`, named `nsbench-manyN-PID`); the
/// latency lab's pair (``LatencyBenchmark``) is among the watched ones. Every round restarts the watch, then
/// measures the observers one after the other (``LatencyBenchmark/measure(_:)``) in an order rotated from round to
/// round, as the main latency benchmark does: the ratio of a round depends on where the scheduler puts its
/// wake-ups, and a fixed order would give one observer the same place every time.
struct ManyNamespacesBenchmark {
  struct Result: Codable, Sendable {
    /// Named namespaces watched (the benchmark's and the latency lab's).
    var namespaces: Int
    /// Process start to the last namespace's first line, per round, in milliseconds.
    var startupMilliseconds: Summary
    /// Threads of the process once every first path is out.
    var threads: Int
    /// Open descriptors of the process then.
    var descriptors: Int
    /// What they are: `socket`, `anon_inode:[eventpoll]`, `pipe`, a file's path…, with their numbers.
    var descriptorKinds: [String: Int]
    /// Peak resident set size (VmHWM), KiB.
    var peakResidentKilobytes: Int
    /// CPU ticks used over ``idleSeconds`` with nothing changing.
    var idleCPUTicks: Int
    var idleSeconds: Double
    /// A change in one namespace, against `ip -n NS monitor route`.
    var latency: LatencyBenchmark.Result
    var floor: LatencyBenchmark.Result
    /// The design floor for that namespace, when it was measured (`--floor`); ``latency``'s `designFloor` holds
    /// the watch's ratios to it.
    var designFloor: LatencyBenchmark.Result?
  }

  /// Makes `count` namespaces with one `ip -batch`, runs the rounds, deletes the namespaces.
  static func run(
    netstatus: String, designFloor floorBinary: String?, count: Int, flips: Int, rounds: Int, idleSeconds: Double
  ) throws -> Result {
    let names = (0..<count).map { "nsbench-many\($0)-\(getpid())" }
    BenchNamespace.registerBulk(names)
    defer { BenchNamespace.deleteBulk(names) }
    try BenchNamespace.addBulk(names)
    let lab = try LatencyBenchmark(flips: flips)
    defer { lab.delete() }
    let watched = lab.watched.name
    var floor: [LatencyBenchmark.Samples] = []
    var design: [LatencyBenchmark.Samples] = []
    var mine: [LatencyBenchmark.Samples] = []
    var startups: [Int64] = []
    var footprint: (threads: Int, descriptors: [String: Int], peak: Int, idleTicks: Int)?
    let expected = try Command.ip("netns list").split(separator: "\n").count
    // Each observer is measured alone: the watch is stopped before the floors run, and started after them.
    func measureFloors(_ round: Int) throws {
      var floors: [() throws -> Void] = [{ floor.append(try lab.measure(try lab.ipMonitor())) }]
      if let floorBinary { floors.append { design.append(try lab.measure(try lab.designFloor(binary: floorBinary))) } }
      if round % 4 >= 2 { floors.reverse() }
      for measure in floors { try measure() }
    }
    for round in 0..<rounds {
      // The floors first in even rounds, the watch first in odd ones (and their two orders in turn).
      if round % 2 == 0 { try measureFloors(round) }
      let firstLines = EventLog()
      let process = try ChildProcess([netstatus, "watch", "--all-netns", "--json"]) { line in
        if line.hasPrefix(#"{"status""#) { firstLines.append(line, at: Monotonic.now()) }
        return line.contains(#""netns":"\#(watched)""#)
      }
      guard firstLines.wait(forCount: expected, timeoutMilliseconds: 60_000) else {
        process.stop()
        throw BenchError("netstatus watch --all-netns printed \(firstLines.count) of \(expected) first paths in 60 s")
      }
      startups.append(firstLines.event(at: expected - 1).time - process.spawnedAt)
      if round == 0 {
        let sample = try ProcessSample(pid: "\(process.pid)")
        var descriptors: [String: Int] = [:]
        let folder = "/proc/\(process.pid)/fd"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
          let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry)) ?? "?"
          let kind = target.hasPrefix("socket:") ? "socket" : target.hasPrefix("pipe:") ? "pipe" : target
          descriptors[kind, default: 0] += 1
        }
        usleep(useconds_t(idleSeconds * 1_000_000))
        let later = try ProcessSample(pid: "\(process.pid)")
        footprint = (
          sample.threads.count, descriptors, later.peakResidentKilobytes, later.cpuTicks - sample.cpuTicks
        )
      }
      mine.append(
        try lab.measure(
          LatencyBenchmark.Observer(name: "netstatus watch --all-netns", log: process.lines, stop: process.stop)))
      if round % 2 == 1 { try measureFloors(round) }
    }
    let measured = footprint ?? (0, [:], 0, 0)
    return Result(
      namespaces: expected, startupMilliseconds: Summary(values: startups.map { Double($0) / 1_000_000 }),
      threads: measured.threads, descriptors: measured.descriptors.values.reduce(0, +),
      descriptorKinds: measured.descriptors, peakResidentKilobytes: measured.peak,
      idleCPUTicks: measured.idleTicks, idleSeconds: idleSeconds,
      latency: LatencyBenchmark.result(
        "netstatus watch --all-netns --json (\(expected) namespaces)", rounds: mine, floor: floor,
        designFloor: design.isEmpty ? nil : design),
      floor: LatencyBenchmark.result("ip -n NS monitor route", rounds: floor, floor: floor),
      designFloor: design.isEmpty
        ? nil : LatencyBenchmark.result(LatencyBenchmark.designFloorName, rounds: design, floor: floor))
  }

  /// The issue's targets for this benchmark.
  static func targets(_ result: Result) -> [Report.Target] {
    let n = result.namespaces
    return [
      Report.Target(
        target: "\(n) namespaces: threads ≤ 4", measured: "\(result.threads)", met: result.threads <= 4),
      Report.Target(
        target: "\(n) namespaces: descriptors ≤ \(n) + 16", measured: "\(result.descriptors)",
        met: result.descriptors <= n + 16),
      Report.Target(
        target: "\(n) namespaces: peak RSS ≤ 40 MB", measured: "\(result.peakResidentKilobytes) KiB",
        met: result.peakResidentKilobytes <= 40 * 1024),
      Report.Target(
        target: "\(n) namespaces: start to every first path ≤ 2 s",
        measured: String(
          format: "p50 %.0f ms, max %.0f ms", result.startupMilliseconds.p50, result.startupMilliseconds.max),
        met: result.startupMilliseconds.max <= 2_000),
    ] + latencyTargets(result) + [
      Report.Target(
        target: "\(n) namespaces: zero idle CPU",
        measured: String(format: "%d ticks in %.0f s", result.idleCPUTicks, result.idleSeconds),
        met: result.idleCPUTicks == 0)
    ]
  }

  /// A change in one namespace: against the design floor for that namespace, as the main latency target, when it
  /// was measured; against `ip -n NS monitor` otherwise (the earlier target, which asks the kernel nothing).
  static func latencyTargets(_ result: Result) -> [Report.Target] {
    let n = result.namespaces
    if let ratios = result.latency.designFloor, let design = result.designFloor {
      return [
        Report.Target(
          target: "\(n) namespaces: a change in one, p50 within 1.3× of the design floor",
          measured: String(
            format: "median of %d rounds' ratios %.2f×; pooled p50 %.0f µs vs %.0f µs (ip -n NS monitor %.0f µs)",
            result.latency.rounds, ratios.medianRatio, result.latency.latency.p50, design.latency.p50,
            result.floor.latency.p50),
          met: ratios.medianRatio <= 1.3)
      ]
    }
    return [
      Report.Target(
        target: "\(n) namespaces: a change in one, p50 within 1.5× of ip -n NS monitor",
        measured: String(
          format: "median of %d rounds' ratios %.2f×; pooled p50 %.0f µs vs %.0f µs", result.latency.rounds,
          result.latency.medianRatio, result.latency.latency.p50, result.floor.latency.p50),
        met: result.latency.medianRatio <= 1.5)
    ]
  }
}
