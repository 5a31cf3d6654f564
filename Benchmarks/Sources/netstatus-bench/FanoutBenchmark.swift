import Dispatch
import NetStatusCore
import NetStatusTesting
import Synchronization

/// The cost of publishing one path to many subscribers, in process, with a `ScriptedPathSource`.
struct FanoutBenchmark {
  /// One kind of subscriber's result.
  struct Result: Codable, Sendable {
    /// The kind of subscriber.
    var subscribers: String
    /// How many.
    var count: Int
    /// Paths published (each measured).
    var publishes: Int
    /// How long `send(_:)` took to return (the monitor's publish: lock, fan-out decisions, resumptions or
    /// callbacks run on the sender's thread), in microseconds.
    var publishCall: Summary
    /// From `send(_:)` to the last subscriber having the path, in microseconds.
    var allDelivered: Summary
    /// `allDelivered`'s median per subscriber, in nanoseconds.
    var nanosecondsPerSubscriber: Double
    /// Resident memory the subscribers added, KiB.
    var residentKilobytes: Int
  }

  /// Counts deliveries; signals when a round (every subscriber once) is complete.
  final class Deliveries: Sendable {
    let subscribers: Int
    private let delivered = Atomic<Int>(0)
    private let lastAt = Atomic<Int64>(0)
    let roundComplete = DispatchSemaphore(value: 0)

    init(subscribers: Int) { self.subscribers = subscribers }

    func record() {
      if delivered.add(1, ordering: .relaxed).newValue % subscribers == 0 {
        lastAt.store(Monotonic.now(), ordering: .relaxed)
        roundComplete.signal()
      }
    }

    /// Waits for the round; the time of its last delivery.
    func waitForRound() throws -> Int64 {
      guard roundComplete.wait(timeout: .now() + .seconds(60)) == .success else {
        throw BenchError(
          "fan-out: not every subscriber got the path within 60 s (\(delivered.load(ordering: .relaxed)))")
      }
      return lastAt.load(ordering: .relaxed)
    }
  }

  /// `count` `for await path in monitor.paths` loops, each in its own task.
  static func pathsIterators(count: Int, publishes: Int) throws -> Result {
    try run(kind: "for await monitor.paths (tasks)", count: count, publishes: publishes) { monitor, deliveries in
      (0..<count).map { _ in
        Task.detached {
          for await _ in monitor.paths { deliveries.record() }
        }
      }
    }
  }

  /// `count` `networkUpdates()` streams (callback subscribers feeding AsyncStreams), each read by a task.
  static func networkUpdateStreams(count: Int, publishes: Int) throws -> Result {
    try run(kind: "networkUpdates() streams (callbacks)", count: count, publishes: publishes) { monitor, deliveries in
      (0..<count).map { _ in
        let stream = monitor.networkUpdates()
        return Task.detached {
          for await _ in stream { deliveries.record() }
        }
      }
    }
  }

  private static func run(
    kind: String, count: Int, publishes: Int,
    subscribe: (NetworkMonitor, Deliveries) -> [Task<Void, Never>]
  ) throws -> Result {
    let online = NetworkPath.connected(via: .wifi)
    let script = ScriptedPathSource(online)
    let monitor = NetworkMonitor(source: script)
    monitor.startMonitoring()
    defer { monitor.stopMonitoring() }
    let deliveries = Deliveries(subscribers: count)
    let memoryBefore = try ProcessSample.current().residentKilobytes
    let tasks = subscribe(monitor, deliveries)
    defer { for task in tasks { task.cancel() } }
    _ = try deliveries.waitForRound()  // everyone has the current path: all subscribed
    let memoryAfter = try ProcessSample.current().residentKilobytes
    var calls: [Int64] = []
    var delivered: [Int64] = []
    for index in 0..<publishes {
      let path = index % 2 == 0 ? NetworkPath.offline : online
      let started = Monotonic.now()
      script.send(path)
      let returned = Monotonic.now()
      let last = try deliveries.waitForRound()
      calls.append(returned - started)
      delivered.append(last - started)
    }
    let all = Summary(nanoseconds: delivered)
    return Result(
      subscribers: kind, count: count, publishes: publishes, publishCall: Summary(nanoseconds: calls),
      allDelivered: all, nanosecondsPerSubscriber: all.p50 * 1_000 / Double(count),
      residentKilobytes: memoryAfter - memoryBefore)
  }
}
