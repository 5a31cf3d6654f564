import Foundation

/// `netstatus watch --json` in a namespace with a large IPv4 routing table (a million routes in a full run)
/// against the same set-up with its 2 routes: start-up (posix_spawn to the first line) and peak RSS. And, for
/// contrast, `ip -4 route show` in both, which reads the whole table.
///
/// NetStatus mirrors links and addresses only and asks the kernel's route lookup
/// (Sources/NetStatusNetlink/KernelState.swift, RouteLookup.swift), so neither should grow with the table.
/// None of the routes contains the lookup destinations (8.8.8.8 and 2001:4860:4860::8888).
struct ScaleBenchmark {
  /// One namespace's figures.
  struct Namespace: Codable, Sendable {
    /// What it holds.
    var configuration: String
    /// IPv4 routes in its main table: the lines `ip -4 route show` printed.
    var routes: Int
    /// `netstatus watch --json --netns NS`: posix_spawn to the first line read, in microseconds.
    var netstatusStartup: Summary
    /// Its VmHWM (peak RSS) read from /proc/PID/status right after the first line, in KiB.
    var netstatusPeakResidentKilobytes: Summary
    /// `ip -n NS -4 route show`, standard output drained through a pipe, each run.
    var ipRouteShow: [TimedCommand.Result]
  }

  /// The result.
  struct Result: Codable, Sendable {
    /// Routes added to the large namespace.
    var routesAdded: Int
    /// How they were added: `ip -batch` runs of at most ``linesPerBatch`` lines each.
    var batches: Int
    var linesPerBatch: Int
    /// The `ip -batch` runs' wall time, added up, in seconds (writing the files is not included).
    var buildSeconds: Double
    /// Their CPU time (user + system; most of it the kernel adding routes), in seconds.
    var buildCPUSeconds: Double
    /// The largest peak RSS of one `ip -batch` run, in KiB (`nil` without /usr/bin/time).
    var buildPeakResidentKilobytes: Int?
    /// netstatus starts per namespace (alternating between the two; an odd count, so that p50 is the median).
    var runs: Int
    /// The set-up alone (a veth with an address and a default route: 2 routes).
    var small: Namespace
    /// The same set-up plus ``routesAdded`` routes.
    var large: Namespace
    /// The large namespace's start-up p50 over the small one's.
    var startupRatio: Double
    /// The large namespace's peak RSS p50 over the small one's (the same binary).
    var residentRatio: Double
  }

  /// Lines per `ip -batch` run. iproute2 6.1's `ip -batch` grows by about 4 KiB per line it runs, so one
  /// run of a million lines reaches 4 GB and takes twice as long as twenty runs of 50,000.
  static let linesPerBatch = 50_000

  /// The `index`th route's prefix: the 65,536 /24s of 10.0.0.0/8, then the 16,384 /24s of 100.64.0.0/10,
  /// then /32s from 100.64.0.0 upwards (inside those /24s; a million routes reach 100.78.x.x). None contains
  /// 8.8.8.8.
  static func prefix(_ index: Int) -> String {
    if index < 65_536 { return "10.\(index >> 8).\(index & 255).0/24" }
    if index < 81_920 {
      let offset = index - 65_536
      return "100.\(64 + (offset >> 8)).\(offset & 255).0/24"
    }
    let offset = index - 81_920
    precondition(offset < 1 << 22, "more routes than 100.64.0.0/10 has /32s")
    return "100.\(64 + (offset >> 16)).\((offset >> 8) & 255).\(offset & 255)/32"
  }

  /// A namespace with veth0 (192.0.2.10/24, default route via 192.0.2.1) whose peer is up in a second one.
  private static func site(_ label: String) throws -> (BenchNamespace, BenchNamespace) {
    let watched = try BenchNamespace(label)
    let peer = try BenchNamespace("\(label)p")
    try watched.ip("link add veth0 type veth peer name veth1 netns \(peer.name)")
    try peer.ip("link set veth1 up")
    try watched.ip("link set veth0 up")
    try watched.ip("addr add 192.0.2.10/24 dev veth0")
    try watched.ip("route add default via 192.0.2.1 dev veth0")
    return (watched, peer)
  }

  /// Builds both namespaces, then measures `runs` netstatus starts in each (alternating, so that a slow
  /// phase of the machine weighs on both) and `showRuns` runs of `ip route show` in each.
  static func run(netstatus: String, routes: Int, runs: Int, showRuns: Int) throws -> Result {
    let (small, smallPeer) = try site("scalesmall")
    defer {
      small.delete()
      smallPeer.delete()
    }
    let (large, largePeer) = try site("scalelarge")
    defer {
      large.delete()
      largePeer.delete()
    }

    var build: [TimedCommand.Result] = []
    var start = 0
    while start < routes {
      let count = min(linesPerBatch, routes - start)
      let offset = start
      let file = try BatchFile("scale", count: count) { "route add \(prefix(offset + $0)) via 192.0.2.1 dev veth0" }
      defer { file.remove() }
      build.append(try large.batch(file))
      start += count
    }

    var startup: [[Int64]] = [[], []]
    var resident: [[Double]] = [[], []]
    let namespaces = [small, large]
    for run in 0..<runs {
      for offset in 0..<2 {
        let index = (run + offset) % 2
        let process = try ChildProcess([netstatus, "watch", "--json", "--netns", namespaces[index].name])
        defer { process.stop() }
        try process.waitForFirstLine()
        let sample = try ProcessSample(pid: "\(process.pid)")
        startup[index].append(process.lines.event(at: 0).time - process.spawnedAt)
        resident[index].append(Double(sample.peakResidentKilobytes))
      }
    }

    var shows: [[TimedCommand.Result]] = [[], []]
    for run in 0..<showRuns {
      for offset in 0..<2 {
        let index = (run + offset) % 2
        shows[index].append(try TimedCommand.run([Command.ip, "-n", namespaces[index].name, "-4", "route", "show"]))
      }
    }
    let counts = shows.map { $0.first?.lines ?? 0 }
    guard counts[1] == counts[0] + routes else {
      throw BenchError("scale: \(counts[1]) routes in \(large.name), expected \(counts[0] + routes)")
    }

    let results = (0..<2).map { index in
      Namespace(
        configuration: "\(counts[index]) routes", routes: counts[index],
        netstatusStartup: Summary(nanoseconds: startup[index]),
        netstatusPeakResidentKilobytes: Summary(values: resident[index]), ipRouteShow: shows[index])
    }
    return Result(
      routesAdded: routes, batches: build.count, linesPerBatch: linesPerBatch,
      buildSeconds: build.reduce(0) { $0 + $1.wallMilliseconds } / 1_000,
      buildCPUSeconds: build.reduce(0) { $0 + $1.cpuMilliseconds } / 1_000,
      buildPeakResidentKilobytes: build.compactMap(\.peakResidentKilobytes).max(), runs: runs, small: results[0],
      large: results[1], startupRatio: results[1].netstatusStartup.p50 / results[0].netstatusStartup.p50,
      residentRatio: results[1].netstatusPeakResidentKilobytes.p50 / results[0].netstatusPeakResidentKilobytes.p50)
  }
}
