import CNetStatusShim
import Foundation
import Glibc
import Synchronization

/// A network namespace the benchmark made, named `nsbench-LABEL-PID`, deleted by ``delete()`` or, on SIGINT or
/// SIGTERM, by ``deleteAll()``.
final class BenchNamespace: Sendable {
  private static let live = Mutex<[String: BenchNamespace]>([:])

  /// The name, as `ip netns` knows it.
  let name: String
  private let deleted = Atomic<Bool>(false)

  /// Adds the namespace with its loopback up and IPv6 duplicate address detection off.
  init(_ label: String) throws {
    name = "nsbench-\(label)-\(getpid())"
    try Command.ip("netns add \(name)")
    Self.live.withLockedValue { $0[name] = self }
    try ip("link set lo up")
    try Command.run(
      Command.ip,
      [
        "netns", "exec", name, "sysctl", "-q", "-w", "net.ipv6.conf.all.accept_dad=0",
        "net.ipv6.conf.default.accept_dad=0",
      ])
  }

  /// The set-up most benchmarks watch: namespace `LABEL` with veth0 (192.0.2.10/24, up) and a default route via
  /// 192.0.2.1, whose peer veth1 (up) lives in namespace `LABELp`. Delete both.
  static func vethPair(_ label: String) throws -> (watched: BenchNamespace, peer: BenchNamespace) {
    let watched = try BenchNamespace(label)
    let peer = try BenchNamespace(label + "p")
    do {
      try watched.ip("link add veth0 type veth peer name veth1 netns \(peer.name)")
      try peer.ip("link set veth1 up")
      try watched.batch([
        "link set veth0 up", "addr add 192.0.2.10/24 dev veth0", "route add default via 192.0.2.1 dev veth0",
      ])
    } catch {
      watched.delete()
      peer.delete()
      throw error
    }
    return (watched, peer)
  }

  /// Starts `ip -n NAME monitor route` (only lines `keep` accepts go to its log) and returns once it listens: `ip
  /// monitor` prints nothing until something changes, so 203.0.113.0/24 via 192.0.2.1 on veth0 (``vethPair(_:)``)
  /// is added and removed until a line shows; the route is left absent.
  func listeningRouteMonitor(keep: @escaping @Sendable (String) -> Bool = { _ in true }) throws -> ChildProcess {
    let process = try ChildProcess([Command.ip, "-n", name, "monitor", "route"], keep: keep)
    var listening = false
    for attempt in 0..<20 where !listening {
      try ip("route \(attempt % 2 == 0 ? "add" : "del") 203.0.113.0/24 via 192.0.2.1 dev veth0")
      listening = process.lines.wait(forCount: 1, timeoutMilliseconds: 250)
    }
    guard listening else {
      process.stop()
      throw BenchError("ip monitor route printed nothing")
    }
    if try !ip("route show 203.0.113.0/24").isEmpty {
      try ip("route del 203.0.113.0/24 via 192.0.2.1 dev veth0")
    }
    return process
  }

  /// Runs `ip -n NAME ARGUMENTS`.
  @discardableResult
  func ip(_ arguments: String) throws -> String {
    try Command.run(Command.ip, ["-n", name] + arguments.split(separator: " ").map(String.init))
  }

  /// Runs many `ip` commands in one process (`ip -n NAME -batch FILE`), the fastest way to make thousands of
  /// changes. Returns when `ip` has made them all.
  func batch(_ lines: [String]) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).batch")
    try lines.joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    try Command.run(Command.ip, ["-n", name, "-batch", file.path])
  }

  /// Runs `ip -n NAME -batch FILE` for a file written beforehand; returns its wall time, CPU time and peak
  /// RSS.
  @discardableResult
  func batch(_ file: BatchFile) throws -> TimedCommand.Result {
    try TimedCommand.run([Command.ip, "-n", name, "-batch", file.path])
  }

  /// Deletes the namespace (once).
  func delete() {
    guard !deleted.exchange(true, ordering: .relaxed) else { return }
    _ = try? Command.ip("netns delete \(name)")
    _ = Self.live.withLockedValue { $0.removeValue(forKey: name) }
  }

  /// Deletes every namespace still alive (on an interrupt).
  static func deleteAll() {
    for namespace in live.withLockedValue({ Array($0.values) }) { namespace.delete() }
    deleteBulk(bulk.withLockedValue { Array($0) })
  }

  /// Namespaces made in bulk (``addBulk(_:)``), by name.
  private static let bulk = Mutex<Set<String>>([])

  /// Records names about to be made in bulk, so that ``deleteAll()`` deletes them too.
  static func registerBulk(_ names: [String]) {
    bulk.withLockedValue { $0.formUnion(names) }
  }

  /// Adds many namespaces (nothing in them but loopback, down) with one `ip -batch`: thousands in seconds.
  static func addBulk(_ names: [String]) throws {
    try runBatch(names.map { "netns add \($0)" })
  }

  /// Deletes namespaces made in bulk, with one `ip -batch` (names already gone are skipped).
  static func deleteBulk(_ names: [String]) {
    let present = Set(
      ((try? Command.ip("netns list")) ?? "").split(separator: "\n").map { String($0.split(separator: " ")[0]) })
    let gone = names.filter(present.contains)
    if !gone.isEmpty { try? runBatch(gone.map { "netns delete \($0)" }) }
    bulk.withLockedValue { $0.subtract(names) }
  }

  private static func runBatch(_ lines: [String]) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("nsbench-bulk-\(UUID().uuidString).batch")
    try lines.joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    try Command.run(Command.ip, ["-batch", file.path])
  }

  /// Deletes `nsbench-*` namespaces left by benchmark runs whose process no longer exists.
  static func deleteStale() {
    guard let list = try? Command.ip("netns list") else { return }
    for line in list.split(separator: "\n") {
      let name = String(line.split(separator: " ")[0])
      guard name.hasPrefix("nsbench-"), let pid = name.split(separator: "-").last.flatMap({ Int32($0) }) else {
        continue
      }
      if kill(pid, 0) != 0 && errno == ESRCH { _ = try? Command.ip("netns delete \(name)") }
    }
  }

  /// Runs `body` on a new thread that has entered the namespace (setns), and returns its result: a socket
  /// made there belongs to the namespace.
  func onThreadInside<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    let path = "/run/netns/\(name)"
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let outcome = Result { () throws -> T in
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard cns_setns_net(fd) == 0 else { throw BenchError("setns \(path): \(String(cString: strerror(errno)))") }
        return try body()
      }
      result.withLockedValue { $0 = outcome }
      done.signal()
    }
    thread.start()
    done.wait()
    return try result.withLockedValue { $0! }.get()
  }
}
