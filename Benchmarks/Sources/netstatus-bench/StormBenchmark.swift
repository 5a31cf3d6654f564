import Foundation
import NetStatusCore
import Synchronization

/// 10,000 route changes in one burst (`ip -batch`): the CPU time each costs the observer, and whether the
/// final path is the truth.
struct StormBenchmark {
  /// One observer's result.
  struct Result: Codable, Sendable {
    /// The observer.
    var observer: String
    /// Route changes in the burst.
    var changes: Int
    /// CPU time the observer used from the burst's start to its report of the last change, in milliseconds.
    var cpuMilliseconds: Double
    /// The same per change, in microseconds.
    var cpuMicrosecondsPerChange: Double
    /// From the start of `ip -batch` to the report of the last change, in milliseconds.
    var wallMilliseconds: Double
    /// How long `ip -batch` itself took, in milliseconds.
    var batchMilliseconds: Double
    /// Reports (lines, paths) during the burst.
    var reports: Int
    /// Whether the final path equals the truth: `ip route show default` and a fresh dump.
    var finalPathIsTruth: Bool?
    /// What was compared, when it differed.
    var mismatch: String?
  }

  /// The burst: 5,000 routes added, 4,999 removed, then the default route replaced (via 192.0.2.254): 10,000.
  static let batch: [String] = {
    var lines: [String] = []
    for index in 0..<5_000 { lines.append("route add 10.\(index / 256).\(index % 256).0/24 via 192.0.2.1 dev veth0") }
    for index in 0..<4_999 { lines.append("route del 10.\(index / 256).\(index % 256).0/24 via 192.0.2.1 dev veth0") }
    lines.append("route replace default via 192.0.2.254 dev veth0")
    return lines
  }()

  /// A fresh namespace pair for one observer.
  private static func site(_ label: String) throws -> (BenchNamespace, BenchNamespace) {
    try BenchNamespace.vethPair("storm\(label)")
  }

  /// `netstatus watch --json`: CPU from /proc/PID, final line checked against `ip` and a fresh dump.
  static func netstatus(binary: String) throws -> Result {
    let (watched, peer) = try site("n")
    defer {
      watched.delete()
      peer.delete()
    }
    let process = try ChildProcess([binary, "watch", "--json", "--netns", watched.name])
    defer { process.stop() }
    try process.waitForFirstLine()
    usleep(200_000)
    let before = try ProcessSample(pid: "\(process.pid)")
    let linesBefore = process.lines.count
    let started = Monotonic.now()
    try watched.batch(batch)
    let batched = Monotonic.now()
    guard let last = process.lines.wait(timeoutMilliseconds: 30_000, for: { $0.text.contains("192.0.2.254") }) else {
      throw BenchError("netstatus did not report the storm's last change within 30 s")
    }
    let after = try ProcessSample(pid: "\(process.pid)")
    let final = process.lines.event(at: last)
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(final.text.utf8))
    let (isTruth, mismatch) = try compareWithTruth(path, namespace: watched)
    let cpu = Double(after.threadRunNanoseconds - before.threadRunNanoseconds) / 1_000_000
    return Result(
      observer: "netstatus watch --json", changes: batch.count, cpuMilliseconds: cpu,
      cpuMicrosecondsPerChange: cpu * 1_000 / Double(batch.count), wallMilliseconds: Double(final.time - started) / 1e6,
      batchMilliseconds: Double(batched - started) / 1e6, reports: process.lines.count - linesBefore,
      finalPathIsTruth: isTruth, mismatch: mismatch)
  }

  /// `ip monitor route`, the floor: it decodes and prints every change.
  static func ipMonitor() throws -> Result {
    let (watched, peer) = try site("i")
    defer {
      watched.delete()
      peer.delete()
    }
    let process = try watched.listeningRouteMonitor()
    defer { process.stop() }
    usleep(200_000)
    let before = try ProcessSample(pid: "\(process.pid)")
    let linesBefore = process.lines.count
    let started = Monotonic.now()
    try watched.batch(batch)
    let batched = Monotonic.now()
    guard let last = process.lines.wait(timeoutMilliseconds: 30_000, for: { $0.text.contains("192.0.2.254") }) else {
      throw BenchError("ip monitor did not report the storm's last change within 30 s")
    }
    let after = try ProcessSample(pid: "\(process.pid)")
    let cpu = Double(after.threadRunNanoseconds - before.threadRunNanoseconds) / 1_000_000
    return Result(
      observer: "ip monitor route", changes: batch.count, cpuMilliseconds: cpu,
      cpuMicrosecondsPerChange: cpu * 1_000 / Double(batch.count),
      wallMilliseconds: Double(process.lines.event(at: last).time - started) / 1e6,
      batchMilliseconds: Double(batched - started) / 1e6, reports: process.lines.count - linesBefore,
      finalPathIsTruth: nil, mismatch: nil)
  }

  /// The library in process: `NetlinkPathSource` with a `PathSink`; CPU of its thread (`netstatus-rtnl`).
  static func library() throws -> Result {
    let (watched, peer) = try site("l")
    defer {
      watched.delete()
      peer.delete()
    }
    let log = EventLog()
    let paths = PathStore()
    let source = try NetlinkPathSource(networkNamespace: watched.name)
    let session = try source.start(
      filter: .unrestricted,
      sink: PathSink { event in
        if case .path(let path) = event {
          paths.set(path)
          log.append(path.gateways.joined(separator: ","), at: Monotonic.now())
        }
      })
    defer { session.stop() }
    usleep(200_000)
    let before = try ProcessSample.current()
    let reportsBefore = log.count
    let started = Monotonic.now()
    try watched.batch(batch)
    let batched = Monotonic.now()
    guard let last = log.wait(timeoutMilliseconds: 30_000, for: { $0.text == "192.0.2.254" }) else {
      throw BenchError("the library did not report the storm's last change within 30 s")
    }
    let after = try ProcessSample.current()
    let cpu =
      Double(
        after.threads.filter { $0.value.name == "netstatus-rtnl" }.reduce(Int64(0)) { total, entry in
          total + entry.value.runNanoseconds - (before.threads[entry.key]?.runNanoseconds ?? 0)
        }) / 1_000_000
    let (isTruth, mismatch) = try compareWithTruth(paths.get()!, namespace: watched)
    return Result(
      observer: "library: PathSink (source thread)", changes: batch.count, cpuMilliseconds: cpu,
      cpuMicrosecondsPerChange: cpu * 1_000 / Double(batch.count),
      wallMilliseconds: Double(log.event(at: last).time - started) / 1e6,
      batchMilliseconds: Double(batched - started) / 1e6, reports: log.count - reportsBefore,
      finalPathIsTruth: isTruth, mismatch: mismatch)
  }

  /// The path against `ip -j route show default` (gateway and interface) and against a fresh dump.
  private static func compareWithTruth(_ path: NetworkPath, namespace: BenchNamespace) throws -> (Bool, String?) {
    let json = try namespace.ip("-j route show default")
    let routes = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]) ?? []
    let gateways = routes.compactMap { $0["gateway"] as? String }
    let devices = routes.compactMap { $0["dev"] as? String }
    let monitor = try NetworkMonitor(networkNamespace: namespace.name)
    try monitor.start()
    let fresh = monitor.currentPath
    monitor.stopMonitoring()
    let matches =
      path.gateways == gateways && path.availableInterfaces.map(\.name) == devices && path == fresh && path.isConnected
    let mismatch =
      matches
      ? nil
      : "path \(path.jsonRepresentation); ip route: \(gateways) on \(devices); fresh dump: \(fresh?.jsonRepresentation ?? "none")"
    return (matches, mismatch)
  }
}

/// The latest path a sink received.
final class PathStore: Sendable {
  private let path = Mutex<NetworkPath?>(nil)
  func set(_ value: NetworkPath) { path.withLockedValue { $0 = value } }
  func get() -> NetworkPath? { path.withLockedValue { $0 } }
}
