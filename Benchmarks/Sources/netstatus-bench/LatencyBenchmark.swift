import Dispatch
import Foundation
import Glibc
import NetStatusCore

/// Latency from a change of the default route to its notification, for one observer at a time.
///
/// Each observer runs alone (two cores: observers running together would delay each other). The run is
/// split into rounds; each round measures every observer once, the floor included, in a rotated order, so
/// that a slow phase of the machine weighs on all of them alike. The ratio to the floor is taken per round
/// and reported as the median of the rounds' ratios. For each change
/// the benchmark removes or adds the default route with its own rtnetlink request (``RouteFlipper``), takes
/// the time when the kernel has made it, waits for the observer's next event, and takes the difference.
/// Between changes it pauses (``Idle``): a couple of milliseconds in the warm series, so every thread is asleep
/// again, and 2 to 60 ms in the cold one, as an independent harness does, so that each change finds caches gone
/// cold and CPUs idle, as a network change after seconds of quiet does.
struct LatencyBenchmark {
  /// How long the benchmark stays quiet after each change is reported, before the next.
  enum Idle: Sendable {
    /// 2 ms each time: the change finds warm caches.
    case warm
    /// 2 ms, then a further 0 to 58 ms drawn at random: the change finds cold caches and idle CPUs (about
    /// `30 ms ± 30 ms` of idle, as an independent harness waits).
    case cold

    /// The series' name in the report.
    var label: String {
      switch self {
      case .warm: "2 ms of idle before each change"
      case .cold: "2–60 ms of idle before each change"
      }
    }
  }

  /// Something that turns each route change into exactly one event of ``log``.
  struct Observer {
    /// The row's name.
    var name: String
    /// Where the observer's events arrive, timestamped at receipt.
    var log: EventLog
    /// Ends the observer.
    var stop: () -> Void
  }

  /// One observer's latencies from one round, in nanoseconds.
  struct Samples {
    var removals: [Int64] = []
    var additions: [Int64] = []
    var anomalies = 0

    var all: [Int64] { removals + additions }
  }

  /// One observer's result, over every round.
  struct Result: Codable, Sendable {
    /// The observer.
    var observer: String
    /// Route removals and additions measured.
    var changes: Int
    /// Rounds the changes were measured in.
    var rounds: Int
    /// This observer's p50 over the floor's p50, round by round.
    var p50RatioByRound: [Double]
    /// The median of ``p50RatioByRound`` (the mean of the middle two for an even count): the figure the
    /// target is checked against.
    var medianRatio: Double
    /// Latency of every change, in microseconds.
    var latency: Summary
    /// Latency of removals only.
    var removals: Summary
    /// Latency of additions only.
    var additions: Summary
    /// Changes whose event did not come within 2 s, or came with an extra event (resynchronised, not measured).
    var anomalies: Int
    /// Against the design floor (`netstatus-floor`, measured in the same rounds), when it was measured.
    var designFloor: DesignFloorRatios?
  }

  /// An observer's p50 over the design floor's (Benchmarks/Sources/netstatus-floor/main.c), round by round: all
  /// changes, and each direction alone (a removal asks the kernel more than an addition does).
  struct DesignFloorRatios: Codable, Sendable {
    /// This observer's p50 over the design floor's p50, round by round.
    var p50RatioByRound: [Double]
    /// The median of ``p50RatioByRound``: the figure the target is checked against.
    var medianRatio: Double
    /// The median over the rounds of the ratio of the removals' p50s.
    var removalsMedianRatio: Double
    /// The median over the rounds of the ratio of the additions' p50s.
    var additionsMedianRatio: Double

    init(rounds: [Samples], floor: [Samples]) {
      func ratios(_ samples: (Samples) -> [Int64]) -> [Double] {
        zip(rounds, floor).map { mine, floor in
          Summary(nanoseconds: samples(mine)).p50 / Summary(nanoseconds: samples(floor)).p50
        }
      }
      p50RatioByRound = ratios(\.all)
      medianRatio = Summary.median(p50RatioByRound)
      removalsMedianRatio = Summary.median(ratios(\.removals))
      additionsMedianRatio = Summary.median(ratios(\.additions))
    }
  }

  /// The namespace pair: `watched` has veth0 (192.0.2.10/24) with a default route via 192.0.2.1, whose peer
  /// veth1 lives in `peer`.
  let watched: BenchNamespace
  let peer: BenchNamespace
  let flipper: RouteFlipper
  /// Removal/addition pairs per observer.
  let flips: Int
  /// The pause after each change, before the check for an extra event and the next change.
  let pause: useconds_t = 2_000

  init(flips: Int) throws {
    (watched, peer) = try BenchNamespace.vethPair("latency")
    flipper = try RouteFlipper(namespace: watched, interface: "veth0", gateway: "192.0.2.1")
    self.flips = flips
  }

  func delete() {
    watched.delete()
    peer.delete()
  }

  /// Combines an observer's rounds with the floor's (`floor[i]` measured in the same round as `rounds[i]`), and
  /// with the design floor's when it was measured.
  static func result(_ name: String, rounds: [Samples], floor: [Samples], designFloor: [Samples]? = nil) -> Result {
    let ratios = zip(rounds, floor).map { mine, floor in
      Summary(nanoseconds: mine.all).p50 / Summary(nanoseconds: floor.all).p50
    }
    let removals = rounds.flatMap(\.removals)
    let additions = rounds.flatMap(\.additions)
    return Result(
      observer: name, changes: removals.count + additions.count, rounds: rounds.count, p50RatioByRound: ratios,
      medianRatio: Summary.median(ratios),
      latency: Summary(nanoseconds: removals + additions), removals: Summary(nanoseconds: removals),
      additions: Summary(nanoseconds: additions), anomalies: rounds.reduce(0) { $0 + $1.anomalies },
      designFloor: designFloor.map { DesignFloorRatios(rounds: rounds, floor: $0) })
  }

  /// Measures `observer`, then stops it. The default route is present before and after.
  ///
  /// - Parameter idle: How long to stay quiet between changes.
  func measure(_ observer: Observer, idle: Idle = .warm) throws -> Samples {
    defer { observer.stop() }
    let log = observer.log
    // Synchronise: flip until the observer reports a change (it may have printed its first path, or nothing,
    // and may not be subscribed yet), then wait for quiet.
    var present = true
    var synchronised = false
    for _ in 0..<20 where !synchronised {
      let before = log.count
      present.toggle()
      try flipper.setDefaultRoute(present: present)
      synchronised = log.wait(forCount: before + 1, timeoutMilliseconds: 500)
    }
    guard synchronised else { throw BenchError("\(observer.name) reported no route change") }
    if !present {
      try flipper.setDefaultRoute(present: true)
      present = true
    }
    usleep(200_000)
    var baseline = log.count
    var removals: [Int64] = []
    var additions: [Int64] = []
    var anomalies = 0
    for _ in 0..<(flips * 2) {
      present.toggle()
      let changedAt = try flipper.setDefaultRoute(present: present)
      guard log.wait(forCount: baseline + 1, timeoutMilliseconds: 2_000) else {
        anomalies += 1
        baseline = log.count
        continue
      }
      let latency = log.event(at: baseline).time - changedAt
      usleep(pause)
      if case .cold = idle { usleep(useconds_t.random(in: 0..<58_000)) }
      if log.count != baseline + 1 {
        anomalies += 1
        baseline = log.count
        continue
      }
      baseline += 1
      if present { additions.append(latency) } else { removals.append(latency) }
    }
    if !present { try flipper.setDefaultRoute(present: true) }
    guard !removals.isEmpty, !additions.isEmpty else { throw BenchError("\(observer.name): no change measured") }
    return Samples(removals: removals, additions: additions, anomalies: anomalies)
  }

  // MARK: Observers

  /// `ip -n NS monitor route`: the floor. Only its lines about the default route count.
  func ipMonitor() throws -> Observer {
    let process = try ChildProcess([Command.ip, "-n", watched.name, "monitor", "route"]) { $0.contains("default") }
    return Observer(name: "ip monitor route", log: process.lines, stop: process.stop)
  }

  /// The design floor: `netstatus-floor --netns NS` (Benchmarks/Sources/netstatus-floor/main.c), epoll_wait on
  /// the subscribed socket and one route lookup per batch of notifications, as netstatus asks here (IPv4's: the
  /// namespace has no IPv6 address usable beyond the link). One line per change, and one at start.
  func designFloor(binary: String) throws -> Observer {
    let process = try ChildProcess([binary, "--netns", watched.name])
    try process.waitForFirstLine()
    return Observer(name: Self.designFloorName, log: process.lines, stop: process.stop)
  }

  /// The design floor's row.
  static let designFloorName = "design floor (C: epoll, 1 lookup)"
  /// The static `netstatus` that `Scripts/build-static.sh` builds and the install script and packages ship: the
  /// cold path's target is judged on it, the binary users run.
  static let installedWatchName = "netstatus watch --json (static, as installed)"

  /// `netstatus watch --json --netns NS`, the release binary: one line per change.
  func netstatusWatch(binary: String) throws -> Observer {
    let process = try ChildProcess([binary, "watch", "--json", "--netns", watched.name])
    try process.waitForFirstLine()
    return Observer(name: "netstatus watch --json", log: process.lines, stop: process.stop)
  }

  /// The library's source alone: `NetlinkPathSource` with a `PathSink`, called on the source's thread.
  func sourceSink() throws -> Observer {
    let log = EventLog()
    let source = try NetlinkPathSource(networkNamespace: watched.name)
    let session = try source.start(
      filter: .unrestricted, sink: PathSink { _ in log.append("path", at: Monotonic.now()) })
    return Observer(name: "library: PathSink (source thread)", log: log, stop: session.stop)
  }

  /// The library's source beside a session whose kernel never answers: another namespace's session, its requests
  /// swallowed (`NetlinkPathSource.Options.swallowsRequestsAfterStart`), waits for the answers to the lookups its
  /// own route change asked, with an hour's deadline. One event loop serves both, so each change measured here says
  /// whether that wait holds the loop.
  func sourceSinkBesideHungSession() throws -> Observer {
    let (hung, hungPeer) = try BenchNamespace.vethPair("hung")
    let hungSession: any PathSourceSession
    let observer: Observer
    do {
      var options = NetlinkPathSource.Options()
      options.swallowsRequestsAfterStart = true
      options.replyTimeoutMilliseconds = 3_600_000
      let hungSource = try NetlinkPathSource(networkNamespace: hung.name, options: options)
      hungSession = try hungSource.start(filter: .unrestricted, sink: PathSink { _ in })
      do {
        try hung.ip("route del default")
        observer = try sourceSink()
      } catch {
        hungSession.stop()
        throw error
      }
    } catch {
      hung.delete()
      hungPeer.delete()
      throw error
    }
    return Observer(
      name: Self.besideHungSessionName, log: observer.log,
      stop: {
        observer.stop()
        hungSession.stop()
        hung.delete()
        hungPeer.delete()
      })
  }

  /// The row of ``sourceSinkBesideHungSession()``.
  static let besideHungSessionName = "library: PathSink beside a hung session"

  /// `NetworkMonitor.pathUpdateHandler` on a serial dispatch queue of its own.
  func pathUpdateHandler() throws -> Observer {
    let log = EventLog()
    let monitor = try NetworkMonitor(networkNamespace: watched.name)
    monitor.handlerQueue = DispatchQueue(label: "netstatus-bench.handler")
    monitor.pathUpdateHandler = { _ in log.append("path", at: Monotonic.now()) }
    try monitor.start()
    return Observer(name: "library: pathUpdateHandler", log: log, stop: monitor.stopMonitoring)
  }

  /// `for await path in monitor.paths`, in a task.
  func pathsSequence() throws -> Observer {
    let log = EventLog()
    let monitor = try NetworkMonitor(networkNamespace: watched.name)
    let task = Task.detached {
      for await _ in monitor.paths { log.append("path", at: Monotonic.now()) }
    }
    return Observer(
      name: "library: for await monitor.paths", log: log,
      stop: {
        task.cancel()
        monitor.stopMonitoring()
      })
  }
}
