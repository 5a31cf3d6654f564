import NetStatusCore

/// Time from process start to the first path printed, in a small and in a large namespace; and, in process,
/// from `NetworkMonitor.start()` to its return (the first path is known then, on Linux).
struct StartupBenchmark {
  /// One configuration's result.
  struct Result: Codable, Sendable {
    /// The namespace: its interfaces and routes.
    var configuration: String
    /// Interfaces in the namespace (loopback included).
    var interfaces: Int
    /// IPv4 routes in the main table.
    var routes: Int
    /// `netstatus watch --json`: posix_spawn to the first line read, in microseconds.
    var netstatus: Summary
    /// `NetworkMonitor(networkNamespace:)` + `start()`, in process, in microseconds.
    var library: Summary
  }

  /// The hello-world program: posix_spawn to its line, the floor of any Swift program's start-up.
  static func hello(binary: String, runs: Int) throws -> Summary {
    var samples: [Int64] = []
    for _ in 0..<runs {
      let process = try ChildProcess([binary])
      try process.waitForFirstLine()
      samples.append(process.lines.event(at: 0).time - process.spawnedAt)
      process.stop()
    }
    return Summary(nanoseconds: samples)
  }

  /// Measures `runs` starts in a namespace with one veth, plus `extraInterfaces` macvlans on it and `routes`
  /// extra routes.
  static func run(netstatus: String, extraInterfaces: Int, routes: Int, runs: Int) throws -> Result {
    let watched = try BenchNamespace("start\(extraInterfaces)")
    let peer = try BenchNamespace("start\(extraInterfaces)p")
    defer {
      watched.delete()
      peer.delete()
    }
    try watched.ip("link add veth0 type veth peer name veth1 netns \(peer.name)")
    try peer.ip("link set veth1 up")
    var lines = ["link set veth0 up", "addr add 192.0.2.10/24 dev veth0", "route add default via 192.0.2.1 dev veth0"]
    for index in 0..<extraInterfaces {
      lines.append("link add mv\(index) link veth0 type macvlan mode bridge")
      lines.append("link set mv\(index) up")
    }
    for index in 0..<routes {
      lines.append("route add 10.\(index / 256).\(index % 256).0/24 via 192.0.2.1 dev veth0")
    }
    try watched.batch(lines)
    let interfaces = try watched.ip("-o link show").split(separator: "\n").count
    let routeCount = try watched.ip("-4 route show table main").split(separator: "\n").count

    var processSamples: [Int64] = []
    for _ in 0..<runs {
      let process = try ChildProcess([netstatus, "watch", "--json", "--netns", watched.name])
      try process.waitForFirstLine()
      processSamples.append(process.lines.event(at: 0).time - process.spawnedAt)
      process.stop()
    }
    var librarySamples: [Int64] = []
    for _ in 0..<runs {
      let started = Monotonic.now()
      let monitor = try NetworkMonitor(networkNamespace: watched.name)
      try monitor.start()
      let known = Monotonic.now()
      guard monitor.currentPath?.isConnected == true else { throw BenchError("start-up: the path is not satisfied") }
      librarySamples.append(known - started)
      monitor.stopMonitoring()
    }
    return Result(
      configuration: "\(interfaces) interfaces, \(routeCount) routes", interfaces: interfaces, routes: routeCount,
      netstatus: Summary(nanoseconds: processSamples), library: Summary(nanoseconds: librarySamples))
  }
}
