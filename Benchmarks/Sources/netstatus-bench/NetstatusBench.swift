import Dispatch
import Foundation
import Glibc

/// `netstatus-bench`: every benchmark of Benchmarks/README.md in one run, in `nsbench-` namespaces it makes
/// and deletes. Run it through `Benchmarks/run.sh`, which builds in release first.
///
/// Options: `--quick` (a smoke run with few samples), `--flips N` (removal/addition pairs per latency
/// observer and round, default 100), `--rounds N` (latency rounds, default 10), `--idle-seconds S` (default 10),
/// `--scale-routes N` (routes in the scale benchmark's large namespace, default 1,000,000; 20,000 with
/// `--quick`), `--batch-changes N` (route changes in the route batch, default 100,000; 10,000 with `--quick`),
/// `--output FILE` (JSON; default Benchmarks/results/netstatus-bench-DATE.json beside the package), `--static DIR`
/// (where the static netstatus and netstatus-bench-hello-core are, for the footprint benchmark; Benchmarks/run.sh
/// passes .build-static/release), `--footprint-only` (only the footprint benchmark), `--namespaces N` (namespaces
/// the many-namespaces benchmark makes, default 1,000; 50 with `--quick`), `--many-only` (only that benchmark),
/// `--latency-only` (only the latency benchmark and its targets), `--baseline NETSTATUS` (the latency benchmark
/// measures that netstatus binary's `watch --json` too, in the same rounds: an A/B comparison of two builds),
/// `--floor NETSTATUS_FLOOR` (the design floor, Benchmarks/Sources/netstatus-floor/main.c built: the latency
/// benchmark measures it in the same rounds and reports every observer's ratio to it; Benchmarks/run.sh builds it).
@main
struct NetstatusBench {
  static func main() {
    do {
      try run()
    } catch {
      BenchNamespace.deleteAll()
      FileHandle.standardError.write(Data("netstatus-bench: \(error)\n".utf8))
      exit(1)
    }
  }

  static func run() throws {
    guard getuid() == 0 else { throw BenchError("run as root: the benchmarks make network namespaces") }
    var arguments = CommandLine.arguments.dropFirst()
    var quick = false
    var flips = 100
    var rounds = 10
    var idleSeconds = 10.0
    var scaleRoutes: Int?
    var batchChanges: Int?
    var output: String?
    var staticDirectory: String?
    var footprintOnly = false
    var manyOnly = false
    var folderChurnOnly = false
    var textfileOnly = false
    var latencyOnly = false
    var coldOnly = false
    var baseline: String?
    var designFloor: String?
    var namespaceCount: Int?
    while let argument = arguments.popFirst() {
      switch argument {
      case "--quick": quick = true
      case "--flips": flips = arguments.popFirst().flatMap(Int.init) ?? flips
      case "--rounds": rounds = max(1, arguments.popFirst().flatMap(Int.init) ?? rounds)
      case "--idle-seconds": idleSeconds = arguments.popFirst().flatMap(Double.init) ?? idleSeconds
      case "--scale-routes": scaleRoutes = arguments.popFirst().flatMap(Int.init).map { min(max(1, $0), 4_000_000) }
      case "--batch-changes": batchChanges = arguments.popFirst().flatMap(Int.init).map { min(max(2, $0), 131_072) }
      case "--output": output = arguments.popFirst()
      case "--static": staticDirectory = arguments.popFirst()
      case "--footprint-only": footprintOnly = true
      case "--many-only": manyOnly = true
      case "--folder-churn-only": folderChurnOnly = true
      case "--textfile-only": textfileOnly = true
      case "--latency-only": latencyOnly = true
      case "--cold-only": coldOnly = true
      case "--baseline": baseline = arguments.popFirst()
      case "--floor": designFloor = arguments.popFirst()
      case "--namespaces": namespaceCount = arguments.popFirst().flatMap(Int.init).map { min(max(1, $0), 4_000) }
      default:
        throw BenchError(
          "unknown option \(argument) (--quick, --flips N, --rounds N, --idle-seconds S, --scale-routes N, "
            + "--batch-changes N, --output FILE, --static DIR, --footprint-only, --namespaces N, --many-only, "
            + "--folder-churn-only, --textfile-only, --latency-only, --cold-only, --baseline NETSTATUS, "
            + "--floor NETSTATUS_FLOOR)")
      }
    }
    if quick {
      flips = min(flips, 20)
      rounds = min(rounds, 2)
      idleSeconds = min(idleSeconds, 2)
    }
    let startupRuns = quick ? 3 : 15
    let fanoutSubscribers = quick ? 1_000 : 10_000
    let fanoutPublishes = quick ? 5 : 30
    let routeBatchChanges = batchChanges ?? (quick ? 10_000 : 100_000)
    let routeBatchRounds = quick ? 1 : 3
    let scaleRouteCount = scaleRoutes ?? (quick ? 20_000 : 1_000_000)
    let scaleRuns = quick ? 5 : 21
    let scaleShowRuns = quick ? 1 : 3

    let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let netstatus = binaries.appendingPathComponent("netstatus").path
    let hello = binaries.appendingPathComponent("netstatus-bench-hello").path
    let helloCore = binaries.appendingPathComponent("netstatus-bench-hello-core").path
    var footprintPrograms = [
      FootprintBenchmark.Program(
        label: "netstatus watch --json (release, dynamic)", path: netstatus, isNetstatus: true),
      FootprintBenchmark.Program(label: "hello, Foundation", path: hello, isNetstatus: false),
      FootprintBenchmark.Program(label: "hello, no Foundation", path: helloCore, isNetstatus: false),
    ]
    if let staticDirectory {
      footprintPrograms.insert(
        FootprintBenchmark.Program(
          label: "netstatus (static, stripped: Scripts/build-static.sh)", path: staticDirectory + "/netstatus",
          isNetstatus: true), at: 1)
      footprintPrograms.append(
        FootprintBenchmark.Program(
          label: "hello, no Foundation, static", path: staticDirectory + "/netstatus-bench-hello-core",
          isNetstatus: false))
    }
    for binary in [netstatus, hello] + footprintPrograms.map(\.path) + (designFloor.map { [$0] } ?? [])
    where !FileManager.default.isExecutableFile(atPath: binary) {
      throw BenchError("\(binary) is missing: build every product first (Benchmarks/run.sh does)")
    }

    // Ctrl-C or SIGTERM: delete the namespaces made so far before leaving.
    let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        BenchNamespace.deleteAll()
        exit(130)
      }
      source.resume()
      return source
    }
    defer { for signal in signals { signal.cancel() } }
    BenchNamespace.deleteStale()

    func step(_ text: String) { FileHandle.standardError.write(Data("· \(text)\n".utf8)) }

    let footprintRuns = quick ? 3 : 21
    let manyCount = namespaceCount ?? (quick ? 50 : 1_000)
    let manyRounds = quick ? 1 : 10
    func many() throws -> ManyNamespacesBenchmark.Result {
      step("many namespaces: \(manyCount) watched by one netstatus watch --all-netns, \(manyRounds) rounds")
      return try ManyNamespacesBenchmark.run(
        netstatus: netstatus, designFloor: designFloor, count: manyCount, flips: quick ? 20 : 100,
        rounds: manyRounds,
        idleSeconds: quick ? 2 : 10)
    }
    func folderChurn() throws -> FolderChurnBenchmark.Result {
      let (files, seconds) = quick ? (500, 2.0) : (5_000, 11.0)
      step("folder churn: watch --all-netns over \(files) plain files, the mount table churning for \(seconds) s")
      return try FolderChurnBenchmark.run(netstatus: netstatus, files: files, mountsPerSecond: 180, seconds: seconds)
    }
    func textfile() throws -> TextfileBenchmark.Result {
      let (textfileRounds, churnSeconds) = quick ? (1, 3.0) : (5, 30.0)
      step(
        "textfile: watch --all-netns over \(manyCount) namespaces with and without --textfile, \(textfileRounds) rounds; "
          + "\(churnSeconds) s of namespace churn")
      return try TextfileBenchmark.run(
        netstatus: netstatus, count: manyCount, rounds: textfileRounds, churnSeconds: churnSeconds)
    }
    if textfileOnly {
      for target in TextfileBenchmark.targets(try textfile()) {
        print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      }
      return
    }
    if folderChurnOnly {
      let target = FolderChurnBenchmark.target(try folderChurn())
      print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      return
    }
    if manyOnly {
      let result = try many()
      print((Report.manyNamespacesTable(result) + ["", "Targets"]).joined(separator: "\n"))
      for target in ManyNamespacesBenchmark.targets(result) {
        print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      }
      return
    }
    if footprintOnly {
      step("footprint: \(footprintRuns) starts of each program")
      let footprint = try FootprintBenchmark.run(programs: footprintPrograms, runs: footprintRuns)
      print((footprint.table() + ["", "Targets"]).joined(separator: "\n"))
      for target in footprint.targets() {
        print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      }
      return
    }

    step("latency: \(rounds) rounds of \(flips) removals and \(flips) additions of the default route per observer")
    let lab = try LatencyBenchmark(flips: flips)
    defer { lab.delete() }
    // The floor first; every round measures all of them, starting one further along each time.
    var observers: [(String, () throws -> LatencyBenchmark.Observer)] = [
      ("ip monitor route", lab.ipMonitor), ("netstatus watch --json", { try lab.netstatusWatch(binary: netstatus) }),
      ("library: PathSink (source thread)", lab.sourceSink),
      (LatencyBenchmark.besideHungSessionName, lab.sourceSinkBesideHungSession),
      ("library: pathUpdateHandler", lab.pathUpdateHandler), ("library: for await monitor.paths", lab.pathsSequence),
    ]
    if let designFloor {
      observers.insert((LatencyBenchmark.designFloorName, { try lab.designFloor(binary: designFloor) }), at: 1)
    }
    if let baseline {
      observers.append(("baseline: netstatus watch --json", { try lab.netstatusWatch(binary: baseline) }))
    }
    // The cold path's own rows: the floors, `watch` as built here (release, the Swift runtime in shared libraries),
    // and the static `watch` users install, on which its target is judged (at ~31 ms per change, every observer
    // would take minutes).
    var coldObservers = observers.filter {
      ["ip monitor route", LatencyBenchmark.designFloorName, "netstatus watch --json"].contains($0.0)
        || $0.0.hasPrefix("baseline:")
    }
    if let staticDirectory {
      coldObservers.append(
        (LatencyBenchmark.installedWatchName, { try lab.netstatusWatch(binary: staticDirectory + "/netstatus") }))
    }
    func measureLatency(
      _ observers: [(String, () throws -> LatencyBenchmark.Observer)], idle: LatencyBenchmark.Idle = .warm
    ) throws -> [LatencyBenchmark.Result] {
      var samples = Array(repeating: [LatencyBenchmark.Samples](), count: observers.count)
      for round in 0..<rounds {
        for offset in 0..<observers.count {
          let index = (round + offset) % observers.count
          samples[index].append(try lab.measure(try observers[index].1(), idle: idle))
        }
      }
      return observers.indices.map { index in
        LatencyBenchmark.result(
          observers[index].0, rounds: samples[index], floor: samples[0],
          designFloor: designFloor == nil ? nil : samples[1])
      }
    }
    // --cold-only: the cold path's series alone (its target's rows), to compare builds with --baseline.
    if coldOnly {
      step("latency after idle (cold path): 2–60 ms of quiet before each change")
      let latencyCold = try measureLatency(coldObservers, idle: .cold)
      lab.delete()
      print((Report.latencyTable(latencyCold, cold: true) + ["", "Targets"]).joined(separator: "\n"))
      for target in targets(latency: latencyCold, cold: true) {
        print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      }
      print("\nRatios to the design floor by round")
      for row in latencyCold.dropFirst(2) {
        guard let mine = row.designFloor else { continue }
        print("  \(row.observer): " + mine.p50RatioByRound.map { String(format: "%.2f", $0) }.joined(separator: " "))
      }
      return
    }
    let latency = try measureLatency(observers)
    // Again with the benchmark and every observer on CPU 0: what the work costs, without the cross-CPU wake-ups
    // whose cost (and whether the scheduler makes them) moves the first series from round to round.
    step("latency on one CPU: the same rounds, the benchmark and every observer confined to CPU 0")
    let latencyOneCPU = try CPUAffinity.confined(toCPU: 0) { try measureLatency(observers) }
    // The cold path: 2–60 ms of quiet before each change, as a network change comes after seconds of quiet.
    step("latency after idle (cold path): the same rounds, 2–60 ms of quiet before each change")
    let latencyCold = try measureLatency(coldObservers, idle: .cold)
    lab.delete()
    if latencyOnly {
      print(
        (Report.latencyTable(latency) + [""] + Report.latencyTable(latencyOneCPU, oneCPU: true) + [""]
          + Report.latencyTable(latencyCold, cold: true) + ["", "Targets"])
          .joined(separator: "\n"))
      for target in targets(latency: latency) + targets(latency: latencyCold, cold: true) {
        print("  \(target.met ? "met " : "MISS")  \(target.target): \(target.measured)")
      }
      print("\nRatios to the floor by round (one CPU: after the slash)")
      for (row, oneCPU) in zip(latency, latencyOneCPU).dropFirst() {
        print(
          "  \(row.observer): " + row.p50RatioByRound.map { String(format: "%.2f", $0) }.joined(separator: " ")
            + " / " + oneCPU.p50RatioByRound.map { String(format: "%.2f", $0) }.joined(separator: " "))
      }
      if latency.count > 1, latency[1].observer == LatencyBenchmark.designFloorName {
        print("\nRatios to the design floor by round (one CPU: after the slash)")
        for (row, oneCPU) in zip(latency, latencyOneCPU).dropFirst(2) {
          guard let mine = row.designFloor, let theirs = oneCPU.designFloor else { continue }
          print(
            "  \(row.observer): " + mine.p50RatioByRound.map { String(format: "%.2f", $0) }.joined(separator: " ")
              + " / " + theirs.p50RatioByRound.map { String(format: "%.2f", $0) }.joined(separator: " "))
        }
      }
      return
    }

    step("idle and memory: netstatus watch over \(idleSeconds) s")
    let idle = try IdleBenchmark.run(netstatus: netstatus, hello: helloCore, seconds: idleSeconds)

    step("startup: \(startupRuns) runs per namespace")
    let helloStartup = try StartupBenchmark.hello(binary: helloCore, runs: startupRuns)
    var startup = [try StartupBenchmark.run(netstatus: netstatus, extraInterfaces: 0, routes: 0, runs: startupRuns)]
    startup.append(
      try StartupBenchmark.run(
        netstatus: netstatus, extraInterfaces: quick ? 20 : 199, routes: quick ? 500 : 5_000, runs: startupRuns))

    step("storm: \(StormBenchmark.batch.count) route changes in one burst")
    let storm = [
      try StormBenchmark.ipMonitor(), try StormBenchmark.netstatus(binary: netstatus), try StormBenchmark.library(),
    ]

    step("fan-out: \(fanoutSubscribers) subscribers")
    let fanout = [
      try FanoutBenchmark.pathsIterators(count: fanoutSubscribers, publishes: fanoutPublishes),
      try FanoutBenchmark.networkUpdateStreams(count: fanoutSubscribers, publishes: fanoutPublishes),
    ]

    step(
      "route batch: \(routeBatchChanges) route changes in one ip -batch per observer, \(routeBatchRounds) round"
        + (routeBatchRounds == 1 ? "" : "s"))
    let routeBatch = try RouteBatchBenchmark.run(
      netstatus: netstatus, changes: routeBatchChanges, rounds: routeBatchRounds)

    step("scale: \(scaleRouteCount) routes added with ip -batch, then \(scaleRuns) starts per namespace")
    let scale = try ScaleBenchmark.run(
      netstatus: netstatus, routes: scaleRouteCount, runs: scaleRuns, showRuns: scaleShowRuns)

    let lookupCount = quick ? 5_000 : 100_000
    step("lookup cost: \(lookupCount) route lookups on one netlink socket")
    let lookupCost = try LookupCostBenchmark.run(count: lookupCount)

    step("footprint: \(footprintRuns) starts of each program")
    let footprint = try FootprintBenchmark.run(programs: footprintPrograms, runs: footprintRuns)

    let manyNamespaces = try many()
    let folderChurnResult = try folderChurn()
    let textfileResult = try textfile()

    let date = ISO8601DateFormatter().string(from: Date())
    let report = Report(
      date: date, machine: Report.currentMachine(), quick: quick, latency: latency, latencyOneCPU: latencyOneCPU,
      latencyCold: latencyCold, idle: idle,
      helloStartup: helloStartup, startup: startup, storm: storm, fanout: fanout, routeBatch: routeBatch,
      scale: scale, lookupCost: lookupCost, footprint: footprint, manyNamespaces: manyNamespaces,
      folderChurn: folderChurnResult, textfile: textfileResult,
      targets: targets(latency: latency, idle: idle, storm: storm, routeBatch: routeBatch, scale: scale)
        + targets(latency: latencyCold, cold: true)
        + footprint.targets() + ManyNamespacesBenchmark.targets(manyNamespaces)
        + [FolderChurnBenchmark.target(folderChurnResult)] + TextfileBenchmark.targets(textfileResult))
    print(report.table())

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let file = output.map { URL(fileURLWithPath: $0) } ?? defaultOutput(date: date)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try encoder.encode(report).write(to: file)
    print("\nJSON: \(file.path)")
  }

  static func targets(
    latency: [LatencyBenchmark.Result], idle: IdleBenchmark.Result, storm: [StormBenchmark.Result],
    routeBatch: [RouteBatchBenchmark.Result], scale: ScaleBenchmark.Result
  ) -> [Report.Target] {
    var targets = targets(latency: latency)
    targets += otherTargets(idle: idle, storm: storm, routeBatch: routeBatch, scale: scale)
    return targets
  }

  /// The latency targets: p50 within 1.5× of the floor (the median of the rounds' ratios), p99 under 2 ms; and
  /// `netstatus watch`'s p50 within 1.3× of the design floor's, when it was measured. For the `cold` series (after
  /// idle), the design floor's target only, judged on the installed (static) `watch` when it was measured, by the
  /// pooled ratio (all changes' p50 against the floor's): the issue that set it defines it so, as an independent
  /// harness measures it (the median of three runs' pooled ratios; one run is one sample of it). The rounds' median
  /// is printed beside it.
  static func targets(latency: [LatencyBenchmark.Result], cold: Bool = false) -> [Report.Target] {
    var targets: [Report.Target] = []
    let series = cold ? ", after idle" : ""
    let floor = latency[0].latency.p50
    let designFloor = latency.first { $0.observer == LatencyBenchmark.designFloorName }
    let judged =
      cold ? [LatencyBenchmark.installedWatchName, "netstatus watch --json"] : ["netstatus watch --json"]
    if let designFloor, let row = judged.lazy.compactMap({ name in latency.first { $0.observer == name } }).first,
      let ratios = row.designFloor
    {
      targets.append(
        Report.Target(
          target: "latency p50 within 1.3× of the design floor (\(row.observer)\(series))",
          measured: String(format: "median of %d rounds' ratios %.2f× (rounds: ", row.rounds, ratios.medianRatio)
            + String(
              format: "%.2f–%.2f); removals %.2f×, additions %.2f×; pooled p50 %.0f µs vs %.0f µs (%.2f×)",
              ratios.p50RatioByRound.min() ?? 0, ratios.p50RatioByRound.max() ?? 0, ratios.removalsMedianRatio,
              ratios.additionsMedianRatio, row.latency.p50, designFloor.latency.p50,
              row.latency.p50 / designFloor.latency.p50),
          met: cold ? row.latency.p50 / designFloor.latency.p50 <= 1.3 : ratios.medianRatio <= 1.3))
    }
    if !cold, let row = latency.first(where: { $0.observer == LatencyBenchmark.besideHungSessionName }) {
      targets.append(
        Report.Target(
          target: "every change within 10 ms beside a session whose kernel never answers (\(row.observer))",
          measured: String(
            format: "max %.0f µs, p50 %.0f µs, %d changes", row.latency.max, row.latency.p50, row.changes),
          met: row.latency.max < 10_000 && row.anomalies == 0))
    }
    for row in latency.dropFirst() where !cold && row.observer != LatencyBenchmark.designFloorName {
      let ratio = row.medianRatio
      let range = String(
        format: "%.2f–%.2f", row.p50RatioByRound.min() ?? ratio, row.p50RatioByRound.max() ?? ratio)
      targets.append(
        Report.Target(
          target: "latency p50 within 1.5× of ip monitor (\(row.observer))",
          measured: String(format: "median of %d rounds' ratios %.2f× (rounds: ", row.rounds, ratio) + range
            + String(format: "); pooled p50 %.0f µs vs %.0f µs", row.latency.p50, floor),
          met: ratio <= 1.5))
      targets.append(
        Report.Target(
          target: "latency p99 under 2 ms (\(row.observer))", measured: String(format: "%.0f µs", row.latency.p99),
          met: row.latency.p99 < 2_000))
    }
    return targets
  }

  static func otherTargets(
    idle: IdleBenchmark.Result, storm: [StormBenchmark.Result], routeBatch: [RouteBatchBenchmark.Result],
    scale: ScaleBenchmark.Result
  ) -> [Report.Target] {
    var targets: [Report.Target] = []
    for (index, window) in idle.windows.enumerated() {
      targets.append(
        Report.Target(
          target: "zero idle CPU (netstatus watch, \(index == 0 ? "first" : "second") quiet window)",
          measured:
            "\(window.cpuTicks) ticks, \(String(format: "%.0f", window.cpuMicroseconds)) µs, \(window.wakeups) wake-ups",
          met: window.cpuTicks == 0 && window.wakeups == 0))
    }
    for row in storm where row.finalPathIsTruth != nil {
      targets.append(
        Report.Target(
          target: "storm: final path equals the truth (\(row.observer))",
          measured: row.finalPathIsTruth! ? "yes" : "no",
          met: row.finalPathIsTruth!))
    }
    let ratios = RouteBatchBenchmark.ratiosByRound(routeBatch)
    if let ratio = ratios.isEmpty ? nil : Summary.median(ratios) {
      let cpu = { (observer: String) in
        Summary.median(routeBatch.filter { $0.observer == observer }.map(\.cpuMilliseconds))
      }
      targets.append(
        Report.Target(
          target: "route batch: netstatus CPU ≤ ip monitor CPU (\(routeBatch[0].changes) changes)",
          measured: String(format: "median of %d rounds' ratios %.2f× (rounds: ", ratios.count, ratio)
            + ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ")
            + String(
              format: "); median CPU %.0f ms vs %.0f ms", cpu("netstatus watch --json"), cpu("ip monitor route")),
          met: ratio <= 1))
    }
    targets.append(
      Report.Target(
        target: "scale: start-up p50 with \(scale.large.routes) routes within 10% of \(scale.small.routes)",
        measured: String(
          format: "%.2f× (%.0f µs vs %.0f µs)", scale.startupRatio, scale.large.netstatusStartup.p50,
          scale.small.netstatusStartup.p50),
        met: scale.startupRatio <= 1.1))
    targets.append(
      Report.Target(
        target: "scale: peak RSS with \(scale.large.routes) routes within 10% of \(scale.small.routes)",
        measured: String(
          format: "%.2f× (p50 %.0f KiB vs %.0f KiB)", scale.residentRatio,
          scale.large.netstatusPeakResidentKilobytes.p50,
          scale.small.netstatusPeakResidentKilobytes.p50),
        met: scale.residentRatio <= 1.1))
    return targets
  }

  /// Benchmarks/results/netstatus-bench-DATE.json in the package, found from this file's path.
  static func defaultOutput(date: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("results").appendingPathComponent(
        "netstatus-bench-\(date.replacingOccurrences(of: ":", with: "")).json")
  }
}
