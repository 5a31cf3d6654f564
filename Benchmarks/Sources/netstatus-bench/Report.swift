import Foundation

/// Everything one run measured, as written to JSON.
struct Report: Codable, Sendable {
  /// Where and how it ran.
  struct Machine: Codable, Sendable {
    var cpu: String
    var cores: Int
    var memoryMegabytes: Int
    var kernel: String
    var swift: String
    var build: String
  }

  /// A target and whether it was met.
  struct Target: Codable, Sendable {
    var target: String
    var measured: String
    var met: Bool
  }

  var date: String
  var machine: Machine
  var quick: Bool
  var latency: [LatencyBenchmark.Result]
  /// The same, with the benchmark and every observer confined to CPU 0 (no cross-CPU wake-ups).
  var latencyOneCPU: [LatencyBenchmark.Result] = []
  /// The cold path: 2–60 ms of quiet before each change (``LatencyBenchmark/Idle/cold``), the floors and `watch`.
  var latencyCold: [LatencyBenchmark.Result] = []
  var idle: IdleBenchmark.Result?
  var helloStartup: Summary?
  var startup: [StartupBenchmark.Result]
  var storm: [StormBenchmark.Result]
  var fanout: [FanoutBenchmark.Result]
  var routeBatch: [RouteBatchBenchmark.Result]
  var scale: ScaleBenchmark.Result?
  var lookupCost: [LookupCostBenchmark.Result] = []
  var footprint: FootprintBenchmark.Result?
  var manyNamespaces: ManyNamespacesBenchmark.Result?
  var folderChurn: FolderChurnBenchmark.Result?
  var textfile: TextfileBenchmark.Result?
  var targets: [Target]

  /// The machine this runs on.
  static func currentMachine() -> Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }.map {
        $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces)
      } ?? "unknown CPU"
    let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
    let memory =
      meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }.flatMap {
        Int($0.split(separator: " ", omittingEmptySubsequences: true)[1])
      } ?? 0
    let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "?")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return Machine(
      cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, memoryMegabytes: memory / 1024,
      kernel: "Linux \(kernel)", swift: ProcessInfo.processInfo.environment["NETSTATUS_BENCH_SWIFT"] ?? "unknown",
      build: Self.buildConfiguration)
  }

  #if DEBUG
    static let buildConfiguration = "debug (numbers are not representative: use Benchmarks/run.sh)"
  #else
    static let buildConfiguration = "release"
  #endif

  /// The table printed at the end of a run.
  /// The many-namespaces benchmark's lines.
  static func manyNamespacesTable(_ many: ManyNamespacesBenchmark.Result) -> [String] {
    [
      "Many namespaces: one netstatus watch --all-netns --json over \(many.namespaces) named namespaces",
      "  threads \(many.threads), descriptors \(many.descriptors), peak RSS \(many.peakResidentKilobytes) KiB, "
        + String(format: "idle CPU %d ticks in %.0f s", many.idleCPUTicks, many.idleSeconds),
      "  descriptors: "
        + many.descriptorKinds.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        .map { "\($0.value) \($0.key)" }.joined(separator: ", "),
      String(
        format: "  start to every first path: p50 %.0f ms, max %.0f ms (%d rounds)", many.startupMilliseconds.p50,
        many.startupMilliseconds.max, many.startupMilliseconds.count),
      String(
        format: "  a change in one namespace: p50 %.0f µs, p99 %.0f µs vs ip -n NS monitor p50 %.0f µs: %.2f×",
        many.latency.latency.p50, many.latency.latency.p99, many.floor.latency.p50, many.latency.medianRatio)
        + (many.designFloor.map { design in
          String(
            format: "; vs the design floor p50 %.0f µs: %.2f× (rounds' median)", design.latency.p50,
            many.latency.designFloor?.medianRatio ?? 0)
        } ?? ""),
    ]
  }

  /// The latency benchmark's lines: one row per observer, the floor first.
  static func latencyTable(
    _ latency: [LatencyBenchmark.Result], oneCPU: Bool = false, cold: Bool = false
  ) -> [String] {
    guard let floor = latency.first else { return [] }
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    func number(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
    func right(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    var out = [
      (oneCPU
        ? "Latency on one CPU (the benchmark and each observer confined to CPU 0): "
        : cold ? "Latency after idle (cold path: \(LatencyBenchmark.Idle.cold.label)): " : "Latency: ")
        + "default route removed/added → notification (µs, CLOCK_MONOTONIC; \(floor.changes) changes each, "
        + "in \(floor.rounds) rounds; × floor: the median of the rounds' p50 ratios)",
      "  " + pad("observer", 36) + right("p50", 8) + right("p90", 8) + right("p99", 8) + right("max", 8)
        + right("× floor p50", 13) + right("lost", 6),
    ]
    for row in latency {
      out.append(
        "  " + pad(row.observer, 36) + right(number(row.latency.p50), 8) + right(number(row.latency.p90), 8)
          + right(number(row.latency.p99), 8) + right(number(row.latency.max), 8)
          + right(number(row.medianRatio, 2) + "×", 13) + right("\(row.anomalies)", 6))
    }
    // Against the design floor (netstatus-floor: epoll, one route lookup per batch), in the same rounds: all
    // changes, and removals and additions alone (the medians of the rounds' p50 ratios).
    if latency.contains(where: { $0.designFloor != nil }) {
      out.append(
        "  " + pad("× design floor (p50, rounds' median)", 36) + right("all", 8) + right("removal", 9)
          + right("addition", 10))
      for row in latency where row.observer != LatencyBenchmark.designFloorName {
        guard let ratios = row.designFloor else { continue }
        out.append(
          "  " + pad(row.observer, 36) + right(number(ratios.medianRatio, 2) + "×", 8)
            + right(number(ratios.removalsMedianRatio, 2) + "×", 9)
            + right(number(ratios.additionsMedianRatio, 2) + "×", 10))
      }
    }
    return out
  }

  func table() -> String {
    var out: [String] = []
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    func number(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
    func right(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
    out.append("NetStatus benchmarks, \(date)\(quick ? " (quick smoke run: too few samples to quote)" : "")")
    out.append(
      "Machine: \(machine.cpu), \(machine.cores) cores, \(machine.memoryMegabytes) MB, \(machine.kernel), "
        + "\(machine.swift), \(machine.build) build")
    if !latency.isEmpty {
      out.append("")
      out += Self.latencyTable(latency)
    }
    if !latencyOneCPU.isEmpty {
      out.append("")
      out += Self.latencyTable(latencyOneCPU, oneCPU: true)
    }
    if !latencyCold.isEmpty {
      out.append("")
      out += Self.latencyTable(latencyCold, cold: true)
    }
    if let idle {
      out.append("")
      out.append("Idle: netstatus watch with no changes (one veth, a default route)")
      for window in idle.windows {
        out.append(
          "  \(number(window.startSeconds))–\(number(window.startSeconds + window.seconds)) s after its first path: CPU "
            + "\(window.cpuTicks) ticks (\(number(window.cpuMicroseconds)) µs thread time), \(window.wakeups) wake-ups, "
            + "threads \(window.threadsBefore) → \(window.threadsAfter)"
            + (window.threadsEnded.isEmpty ? "" : " (ended: \(window.threadsEnded.joined(separator: ", ")))"))
        for thread in window.busyThreads {
          out.append(
            "    thread \(thread.thread) '\(thread.name)': \(number(thread.cpuMicroseconds)) µs, "
              + "\(thread.voluntarySwitches) voluntary + \(thread.involuntarySwitches) involuntary switches")
        }
      }
      out.append(
        "Memory: netstatus watch peak RSS \(idle.peakResidentKilobytes) KiB; hello-world (no Foundation, as "
          + "netstatus: Dispatch, Synchronization, a Task) \(idle.helloPeakResidentKilobytes) KiB; the monitor adds "
          + "\(idle.monitorAddsKilobytes) KiB, of which private (RssAnon \(idle.anonymousKilobytes) vs "
          + "\(idle.helloAnonymousKilobytes)): \(idle.anonymousKilobytes - idle.helloAnonymousKilobytes) KiB, the rest "
          + "code pages (the netstatus binary, more of libswiftCore); the target compares the static builds (Footprint)"
      )
    }
    if !startup.isEmpty {
      out.append("")
      out.append("Startup: process start → first path printed (µs)")
      out.append("  " + pad("namespace", 36) + pad("", 26) + right("p50", 8) + right("p90", 8) + right("max", 8))
      if let hello = helloStartup {
        out.append(
          "  " + pad("(hello-world, no Foundation, floor)", 62) + right(number(hello.p50), 8)
            + right(number(hello.p90), 8) + right(number(hello.max), 8))
      }
      for row in startup {
        out.append(
          "  " + pad(row.configuration, 36) + pad("netstatus watch --json", 26) + right(number(row.netstatus.p50), 8)
            + right(number(row.netstatus.p90), 8) + right(number(row.netstatus.max), 8))
        out.append(
          "  " + pad("", 36) + pad("library: init + start()", 26) + right(number(row.library.p50), 8)
            + right(number(row.library.p90), 8) + right(number(row.library.max), 8))
      }
    }
    if let scale {
      out.append("")
      out.append(
        "Scale: the same namespace with \(scale.small.routes) and with \(scale.large.routes) IPv4 routes (\(scale.routesAdded) "
          + "added by \(scale.batches) ip -batch runs of up to \(scale.linesPerBatch) lines: \(number(scale.buildSeconds, 1)) s, "
          + "\(number(scale.buildCPUSeconds, 1)) s CPU, ip's peak RSS "
          + "\(scale.buildPeakResidentKilobytes.map { "\($0) KiB" } ?? "unknown (no /usr/bin/time)"))")
      out.append(
        "  netstatus watch --json: posix_spawn → first line (µs) and VmHWM after it (KiB), \(scale.runs) runs each; "
          + "ip -4 route show (stdout to a pipe): wall and CPU ms (medians), peak RSS KiB (largest)")
      out.append(
        "  " + pad("routes", 20) + right("start p50", 10) + right("p90", 8) + right("max", 8) + right("RSS p50", 9)
          + right("ip show ms", 13) + right("CPU ms", 8) + right("RSS", 8))
      for row in [scale.small, scale.large] {
        let shows = row.ipRouteShow
        out.append(
          "  " + pad("\(row.routes)", 20) + right(number(row.netstatusStartup.p50), 10)
            + right(number(row.netstatusStartup.p90), 8) + right(number(row.netstatusStartup.max), 8)
            + right(number(row.netstatusPeakResidentKilobytes.p50), 9)
            + right(shows.isEmpty ? "" : number(Summary.median(shows.map(\.wallMilliseconds)), 1), 13)
            + right(shows.isEmpty ? "" : number(Summary.median(shows.map(\.cpuMilliseconds)), 1), 8)
            + right(shows.compactMap(\.peakResidentKilobytes).max().map { "\($0)" } ?? "?", 8))
      }
      out.append(
        "  " + pad("large ÷ small", 20) + right(number(scale.startupRatio, 2) + "×", 10) + pad("", 16)
          + right(number(scale.residentRatio, 2) + "×", 9))
    }
    if !storm.isEmpty {
      out.append("")
      out.append("Storm: \(storm[0].changes) route changes in one ip -batch")
      out.append(
        "  " + pad("observer", 36) + right("CPU ms", 9) + right("µs/change", 11) + right("wall ms", 9)
          + right("batch ms", 10) + right("reports", 9) + "  final path = truth")
      for row in storm {
        let truth = row.finalPathIsTruth.map { $0 ? "yes" : "NO: \(row.mismatch ?? "")" } ?? "n/a"
        out.append(
          "  " + pad(row.observer, 36) + right(number(row.cpuMilliseconds, 1), 9)
            + right(number(row.cpuMicrosecondsPerChange, 2), 11) + right(number(row.wallMilliseconds), 9)
            + right(number(row.batchMilliseconds), 10) + right("\(row.reports)", 9) + "  " + truth)
      }
    }
    if let first = routeBatch.first {
      out.append("")
      out.append(
        "Route batch: \(first.changes) route changes in one ip -batch (none contains 8.8.8.8 but the last, a new "
          + "default route); CPU from the batch's start until the observer is quiet after reporting the last one")
      out.append(
        "  " + pad("observer", 26) + right("round", 6) + right("CPU ms", 9) + right("µs/change", 11)
          + right("thread ms", 11) + right("batch ms", 10) + right("reported ms", 13) + right("lines", 8)
          + right("dropped", 9))
      for row in routeBatch.sorted(by: { ($0.round, $0.observer) < ($1.round, $1.observer) }) {
        out.append(
          "  " + pad(row.observer, 26) + right("\(row.round + 1)", 6) + right(number(row.cpuMilliseconds), 9)
            + right(number(row.cpuMicrosecondsPerChange, 2), 11) + right(number(row.threadCPUMilliseconds), 11)
            + right(number(row.batchMilliseconds), 10) + right(number(row.reportedAfterMilliseconds), 13)
            + right("\(row.lines)", 8) + right("\(row.kernelDrops)", 9))
      }
    }
    if !fanout.isEmpty {
      out.append("")
      out.append("Fan-out: one path published to N subscribers (ScriptedPathSource, in process; µs)")
      out.append(
        "  " + pad("subscribers", 44) + right("send p50", 10) + right("all p50", 10) + right("all p99", 10)
          + right("ns/sub", 8) + right("KiB", 8))
      for row in fanout {
        out.append(
          "  " + pad("\(row.count) × \(row.subscribers)", 44) + right(number(row.publishCall.p50), 10)
            + right(number(row.allDelivered.p50), 10) + right(number(row.allDelivered.p99), 10)
            + right(number(row.nanosecondsPerSubscriber), 8) + right("\(row.residentKilobytes)", 8))
      }
    }
    if !lookupCost.isEmpty {
      out.append("")
      out.append(
        "Lookup cost: one request sent and its answer read on a netlink socket, in a namespace (ns per request)")
      for row in lookupCost {
        out.append(
          "  " + pad(row.request, 44) + right(number(row.nanosecondsPerRequest), 10) + "  (\(row.count) requests)")
      }
    }
    if let footprint {
      out.append("")
      out.append(contentsOf: footprint.table())
    }
    if let manyNamespaces {
      out.append("")
      out.append(contentsOf: Self.manyNamespacesTable(manyNamespaces))
    }
    out.append("")
    out.append("Targets")
    for target in targets { out.append("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)") }
    return out.joined(separator: "\n")
  }
}
