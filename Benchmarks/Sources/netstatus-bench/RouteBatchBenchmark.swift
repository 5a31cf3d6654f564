import Foundation
import Glibc

/// A large batch of route changes (100,000 in a full run, in one `ip -batch`) that do not contain the lookup
/// destinations, while one observer watches the namespace: the CPU time it costs `netstatus watch --json`
/// and `ip monitor route`.
///
/// NetStatus decodes each route notification and drops it, asking no lookup, unless its prefix contains a
/// lookup destination (`RouteLookupRequest.mayChangeAnswers` in Sources/NetStatusNetlink/RouteLookup.swift); `ip monitor`
/// decodes and prints each one. The batch ends by replacing the default route, which both must report: once
/// that report has arrived (rtnetlink delivers one socket's notifications in order) and the observer has used
/// no CPU for a while, it has read everything the kernel queued for it. What the kernel dropped instead,
/// because the observer's receive buffer was full, is counted from /proc/net/netlink.
struct RouteBatchBenchmark {
  /// One observer's figures in one round.
  struct Result: Codable, Sendable {
    /// The observer.
    var observer: String
    /// The round (rounds alternate which observer goes first).
    var round: Int
    /// Route changes in the batch.
    var changes: Int
    /// utime + stime from /proc/PID/stat, after the batch minus before, in clock ticks.
    var cpuTicks: Int
    /// The same in milliseconds.
    var cpuMilliseconds: Double
    /// The same per change, in microseconds.
    var cpuMicrosecondsPerChange: Double
    /// CPU time of its live threads (schedstat, nanosecond resolution), after minus before, in milliseconds.
    var threadCPUMilliseconds: Double
    /// How long `ip -batch` took, in milliseconds.
    var batchMilliseconds: Double
    /// From the start of `ip -batch` to the observer's report of the last change, in milliseconds.
    var reportedAfterMilliseconds: Double
    /// Lines the observer printed from the batch's start until it was quiet.
    var lines: Int
    /// Notifications the kernel dropped for the observer (its subscribed sockets' Drops in /proc/net/netlink,
    /// after minus before).
    var kernelDrops: Int
  }

  /// The batch: `changes / 2` /24s of 10.0.0.0/8 added, one fewer removed, then the default route replaced
  /// (via 192.0.2.254), the only change that contains 8.8.8.8.
  static func batch(changes: Int) throws -> BatchFile {
    let additions = changes / 2
    let removals = changes - additions - 1
    precondition(additions <= 65_536 && removals >= 0, "10.0.0.0/8 has 65,536 /24s")
    return try BatchFile("routebatch", count: changes) { index in
      if index < additions { return "route add 10.\(index >> 8).\(index & 255).0/24 via 192.0.2.1 dev veth0" }
      let removed = index - additions
      if removed < removals { return "route del 10.\(removed >> 8).\(removed & 255).0/24 via 192.0.2.1 dev veth0" }
      return "route replace default via 192.0.2.254 dev veth0"
    }
  }

  /// Runs `rounds` rounds of both observers, each in a fresh namespace pair; the rows in the order measured.
  static func run(netstatus: String, changes: Int, rounds: Int) throws -> [Result] {
    let file = try batch(changes: changes)
    defer { file.remove() }
    var results: [Result] = []
    for round in 0..<rounds {
      for offset in 0..<2 {
        results.append(
          (round + offset) % 2 == 0
            ? try ipMonitor(batch: file, round: round)
            : try netstatusWatch(binary: netstatus, batch: file, round: round))
      }
    }
    return results
  }

  /// netstatus's CPU over ip monitor's (utime + stime), round by round.
  static func ratiosByRound(_ results: [Result]) -> [Double] {
    Dictionary(grouping: results, by: \.round).sorted { $0.key < $1.key }.compactMap { _, rows in
      guard let netstatus = rows.first(where: { $0.observer.hasPrefix("netstatus") }),
        let ip = rows.first(where: { $0.observer.hasPrefix("ip monitor") }), ip.cpuMilliseconds > 0
      else { return nil }
      return netstatus.cpuMilliseconds / ip.cpuMilliseconds
    }
  }

  /// A namespace with veth0 (192.0.2.10/24, default route via 192.0.2.1) whose peer is up in a second one.
  private static func site(_ label: String) throws -> (BenchNamespace, BenchNamespace) {
    try BenchNamespace.vethPair("batch\(label)")
  }

  /// `netstatus watch --json --netns NS`: listening once it has printed its first path.
  private static func netstatusWatch(binary: String, batch: BatchFile, round: Int) throws -> Result {
    let (watched, peer) = try site("n")
    defer {
      watched.delete()
      peer.delete()
    }
    let process = try ChildProcess([binary, "watch", "--json", "--netns", watched.name])
    defer { process.stop() }
    try process.waitForFirstLine()
    return try measure("netstatus watch --json", process, in: watched, batch: batch, round: round)
  }

  /// `ip -n NS monitor route`, its lines read from a pipe (only those about 203.0.113.0/24 and 192.0.2.254
  /// are kept; all are counted).
  private static func ipMonitor(batch: BatchFile, round: Int) throws -> Result {
    let (watched, peer) = try site("i")
    defer {
      watched.delete()
      peer.delete()
    }
    let process = try watched.listeningRouteMonitor { $0.contains("203.0.113.") || $0.contains("192.0.2.254") }
    defer { process.stop() }
    return try measure("ip monitor route", process, in: watched, batch: batch, round: round)
  }

  /// Runs the batch and measures the observer from before it to when the observer has reported its last
  /// change and gone quiet.
  private static func measure(
    _ observer: String, _ process: ChildProcess, in namespace: BenchNamespace, batch: BatchFile, round: Int
  ) throws -> Result {
    let before = try quiet(process).sample
    let dropsBefore = try drops(in: namespace)
    let linesBefore = process.linesRead
    let started = Monotonic.now()
    let ran = try namespace.batch(batch)
    guard let last = process.lines.wait(timeoutMilliseconds: 120_000, for: { $0.text.contains("192.0.2.254") }) else {
      throw BenchError("\(observer) did not report the batch's last change within 120 s")
    }
    let reported = process.lines.event(at: last).time
    let after = try quiet(process)
    let dropsAfter = try drops(in: namespace)
    let ticks = after.sample.cpuTicks - before.cpuTicks
    let milliseconds = Double(ticks) * 1_000 / Double(ProcessSample.ticksPerSecond)
    return Result(
      observer: observer, round: round, changes: batch.count, cpuTicks: ticks, cpuMilliseconds: milliseconds,
      cpuMicrosecondsPerChange: milliseconds * 1_000 / Double(batch.count),
      threadCPUMilliseconds: Double(after.sample.threadRunNanoseconds - before.threadRunNanoseconds) / 1e6,
      batchMilliseconds: ran.wallMilliseconds, reportedAfterMilliseconds: Double(reported - started) / 1e6,
      lines: after.lines - linesBefore, kernelDrops: dropsAfter - dropsBefore)
  }

  /// Waits until the process has used no CPU over 100 ms (its threads' scheduler time unchanged; at most 10
  /// s), and returns the last sample and the lines it had printed by then.
  private static func quiet(_ process: ChildProcess) throws -> (sample: ProcessSample, lines: Int) {
    var previous = try ProcessSample(pid: "\(process.pid)")
    for _ in 0..<100 {
      usleep(100_000)
      let sample = try ProcessSample(pid: "\(process.pid)")
      if sample.threadRunNanoseconds == previous.threadRunNanoseconds && sample.cpuTicks == previous.cpuTicks {
        return (sample, process.linesRead)
      }
      previous = sample
    }
    throw BenchError("\(process.commandLine) did not go quiet within 10 s")
  }

  /// Notifications the kernel dropped so far for the namespace's subscribed NETLINK_ROUTE sockets (the
  /// Drops column of /proc/net/netlink, read from a thread inside the namespace). Only the observer has one.
  static func drops(in namespace: BenchNamespace) throws -> Int {
    let table = try namespace.onThreadInside {
      try String(contentsOfFile: "/proc/thread-self/net/netlink", encoding: .utf8)
    }
    let rows = table.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    guard let header = rows.first, let eth = header.firstIndex(of: "Eth"), let groups = header.firstIndex(of: "Groups"),
      let dropped = header.firstIndex(of: "Drops")
    else { throw BenchError("unexpected /proc/net/netlink header: \(rows.first ?? [])") }
    return rows.dropFirst().reduce(0) { total, row in
      guard row.count > dropped, row[eth] == "0", UInt32(row[groups], radix: 16) ?? 0 != 0 else { return total }
      return total + (Int(row[dropped]) ?? 0)
    }
  }
}
