import Foundation
import Glibc

/// What `--textfile` costs `netstatus watch --all-netns` (what `netstatus-netns-textfile.service` runs):
///
/// - Start-up: with many namespaces (1,000 by default), the time from the process's start to every namespace's
///   first line, and its CPU by then, with and without `--textfile` (rounds alternate the two).
/// - Churn: beside those namespaces, others created and deleted all along (20 a second, each living 1 s), with
///   `--textfile`: how many of those created were reported (a first line), and whether the file ends naming none of
///   them once they are gone.
struct TextfileBenchmark {
  struct Startup: Codable, Sendable {
    /// Process start to the last namespace's first line, in milliseconds.
    var milliseconds: Summary
    /// CPU time of the process by then, in milliseconds.
    var cpuMilliseconds: Summary
  }

  struct Result: Codable, Sendable {
    var namespaces: Int
    var without: Startup
    var with: Startup
    /// Churn: namespaces created, and how many of them had a first line.
    var churnCreated: Int
    var churnReported: Int
    var churnSeconds: Double
    /// Whether the file, once the churn stopped, named exactly the namespaces left.
    var churnFileTrue: Bool
  }

  /// Runs both parts; `count` namespaces for start-up, `rounds` rounds each way, `churnSeconds` of churn.
  static func run(netstatus: String, count: Int, rounds: Int, churnSeconds: Double) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nsbench-prom-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/netns.prom"

    let names = (0..<count).map { "nsbench-prom\($0)-\(getpid())" }
    BenchNamespace.registerBulk(names)
    var without: [(Double, Double)] = []
    var with: [(Double, Double)] = []
    defer { BenchNamespace.deleteBulk(names) }
    try BenchNamespace.addBulk(names)
    let expected = try Command.ip("netns list").split(separator: "\n").count
    for round in 0..<(2 * rounds) {
      let textfile = round % 2 == 1
      let measured = try startup(netstatus: netstatus, expected: expected, textfile: textfile ? file : nil)
      if textfile { with.append(measured) } else { without.append(measured) }
    }
    // The churn beside the many namespaces: every write of the file holds all of them.
    let churn = try self.churn(netstatus: netstatus, file: file, seconds: churnSeconds)
    func summary(_ values: [(Double, Double)]) -> Startup {
      Startup(milliseconds: Summary(values: values.map(\.0)), cpuMilliseconds: Summary(values: values.map(\.1)))
    }
    return Result(
      namespaces: count, without: summary(without), with: summary(with), churnCreated: churn.created,
      churnReported: churn.reported, churnSeconds: churnSeconds, churnFileTrue: churn.fileTrue)
  }

  /// One start: milliseconds to the last first line, and CPU milliseconds by then.
  private static func startup(netstatus: String, expected: Int, textfile: String?) throws -> (Double, Double) {
    let firstLines = EventLog()
    let arguments = [netstatus, "watch", "--all-netns", "--json"] + (textfile.map { ["--textfile", $0] } ?? [])
    let process = try ChildProcess(arguments) { line in
      if line.hasPrefix(#"{"status""#) { firstLines.append(line, at: Monotonic.now()) }
      return false
    }
    defer { process.stop() }
    guard firstLines.wait(forCount: expected, timeoutMilliseconds: 120_000) else {
      throw BenchError("\(process.commandLine) printed \(firstLines.count) of \(expected) first paths in 120 s")
    }
    let cpu = try ProcessSample(pid: "\(process.pid)").cpuTicks
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (
      Double(firstLines.event(at: expected - 1).time - process.spawnedAt) / 1_000_000, Double(cpu) * 1000 / ticks
    )
  }

  /// Namespaces created 20 a second, each deleted 1 s later, for `seconds`, under `watch --all-netns --textfile`.
  private static func churn(netstatus: String, file: String, seconds: Double) throws -> (
    created: Int, reported: Int, fileTrue: Bool
  ) {
    let reported = EventLog()
    let process = try ChildProcess([netstatus, "watch", "--all-netns", "--json", "--textfile", file]) { line in
      guard line.hasPrefix(#"{"status""#), let range = line.range(of: #""netns":""#) else { return false }
      let name = line[range.upperBound...].prefix { $0 != "\"" }
      if name.hasPrefix("nsbench-churn") { reported.append(String(name), at: Monotonic.now()) }
      return false
    }
    defer { process.stop() }
    var created: [String] = []
    var alive: [(String, Int64)] = []
    defer { BenchNamespace.deleteBulk(alive.map(\.0)) }
    // One `ip -batch -` fed a line at a time: a process per command could not keep 20 a second.
    let ip = Process()
    ip.executableURL = URL(fileURLWithPath: Command.ip)
    ip.arguments = ["-force", "-batch", "-"]
    let input = Pipe()
    ip.standardInput = input
    try ip.run()
    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
    let start = Monotonic.now()
    let end = start + Int64(seconds * 1e9)
    var next = start
    while Monotonic.now() < end {
      let name = "nsbench-churn\(created.count)-\(getpid())"
      BenchNamespace.registerBulk([name])
      send("netns add \(name)")
      created.append(name)
      alive.append((name, Monotonic.now()))
      while let oldest = alive.first, Monotonic.now() - oldest.1 >= 1_000_000_000 {
        send("netns delete \(oldest.0)")
        alive.removeFirst()
      }
      next += 50_000_000
      let wait = next - Monotonic.now()
      if wait > 0 { usleep(useconds_t(wait / 1000)) }
    }
    try input.fileHandleForWriting.close()
    ip.waitUntilExit()
    // Every namespace created has had time to be reported (its first line) by the time the last one is a second
    // old; the ones still alive are then deleted, and the file must name none of the churned ones.
    usleep(1_000_000)
    let seen = Set(reported.all.map(\.text))
    BenchNamespace.deleteBulk(alive.map(\.0))
    alive = []
    var fileTrue = false
    let deadline = Monotonic.now() + 5_000_000_000
    while Monotonic.now() < deadline {
      let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      if !text.contains("nsbench-churn"), text.contains("netstatus_textfile_timestamp_seconds") {
        fileTrue = true
        break
      }
      usleep(20_000)
    }
    return (created.count, created.filter(seen.contains).count, fileTrue)
  }

  /// The issue's targets for this benchmark.
  static func targets(_ result: Result) -> [Report.Target] {
    let ratio = result.with.milliseconds.p50 / max(result.without.milliseconds.p50, 0.001)
    return [
      Report.Target(
        target: "\(result.namespaces) namespaces: start-up with --textfile within 2x of without",
        measured: String(
          format: "%.0f ms vs %.0f ms (%.2fx); CPU %.0f ms vs %.0f ms", result.with.milliseconds.p50,
          result.without.milliseconds.p50, ratio, result.with.cpuMilliseconds.p50,
          result.without.cpuMilliseconds.p50),
        met: ratio <= 2),
      Report.Target(
        target:
          "\(result.namespaces) namespaces and a churn of 20 a second, each living 1 s, with --textfile: every one reported",
        measured: "\(result.churnReported) of \(result.churnCreated) in \(result.churnSeconds) s",
        met: result.churnReported == result.churnCreated),
      Report.Target(
        target: "churn with --textfile: the file ends naming none of the namespaces gone",
        measured: result.churnFileTrue ? "yes" : "no", met: result.churnFileTrue),
    ]
  }
}
