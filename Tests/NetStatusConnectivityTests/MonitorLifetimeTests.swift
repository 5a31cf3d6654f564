import Dispatch
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

/// How long a monitor runs (ARCHITECTURE.md, "Lifetimes"): one started with `start()` runs until `stop()` or until its
/// source fails, whether or not anyone holds it, as `NWPathMonitor` runs until `cancel()`; one started only by a
/// subscription runs while something holds it. Nothing that observes a monitor falls silent while it does.
@Suite("How long a monitor runs")
struct MonitorLifetimeTests {
  /// A weak reference, handed out of the scope that made the object.
  final class Weak<Object: AnyObject>: @unchecked Sendable {
    // Written once, by the initializer, before the reference is shared; the runtime loads a weak reference
    // atomically, so reading it from any thread needs no lock.
    weak var object: Object?
    init(_ object: Object) { self.object = object }
  }

  /// Waits until `condition` holds, checking every millisecond, for the tests' bound: for what has no event to
  /// await (an object's release).
  func eventually(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
    try await withTimeout(Recorder<NetworkPath>.defaultTimeout, what) {
      while !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }
  }

  /// The monitor an app makes in a function, starts and no longer holds.
  func startAndLetGo(_ source: ScriptedPathSource, into seen: Recorder<NetworkPath>) throws -> Weak<NetworkMonitor> {
    let monitor = NetworkMonitor(source: source)
    // No notification: once another suite has used the notification's name, a post running on the main queue holds
    // its monitor for a moment, and a check that it is gone could come in that moment.
    monitor.postsNotifications = false
    monitor.handlerQueue = .global()
    monitor.pathUpdateHandler = { seen.append($0) }
    try monitor.start()
    return Weak(monitor)
  }

  @Test("started with start() and no longer held: it runs, and its handler hears every change, until stop()")
  func startedByCallRunsUntilStopped() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let seen = Recorder<NetworkPath>()
    let kept = try startAndLetGo(source, into: seen)
    try await seen.waitFor(count: 1, "the first path")
    source.send(.offline)
    try await seen.waitFor(count: 2, "the change after the function returned")
    #expect(seen.values == [.test(.wifi), .offline])
    #expect(kept.object != nil && source.activeSessionCount == 1)
    kept.object?.stop()
    #expect(kept.object == nil, "stopped, nothing holds it")
    #expect(source.activeSessionCount == 0)
  }

  @Test("a settled monitor made in a function and observed through a handler reports the outage that follows")
  func settledMonitorInAFunction() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let upstream = NetworkMonitor(source: source)
    let clock = TestClock()
    let seen = Recorder<NetworkPath>()
    func observe() throws -> Weak<NetworkMonitor> {
      let steady = upstream.settled(offlineAfter: .seconds(5), onlineAfter: .seconds(1), clock: clock)
      steady.postsNotifications = false
      steady.handlerQueue = .global()
      steady.pathUpdateHandler = { seen.append($0) }
      try steady.start()
      return Weak(steady)
    }
    let kept = try observe()
    try await seen.waitFor(count: 1, "online")
    source.send(.offline)
    try await clock.sleeperCounts.waitUntil("the settler's timer") { $0.last == 1 }
    clock.advance(by: .seconds(5))
    try await seen.waitFor(count: 2, "the outage, 5 s on")
    #expect(seen.values == [.test(.wifi), .offline])
    kept.object?.stop()
    upstream.stop()
    #expect(kept.object == nil)
  }

  @Test("started by a subscription: dropped with its holders, its session stopped")
  func startedBySubscriptionGoesWithItsHolders() {
    let source = ScriptedPathSource(.test(.wifi))
    var kept: Weak<NetworkMonitor>?
    do {
      let monitor = NetworkMonitor(source: source)
      monitor.postsNotifications = false
      _ = monitor.addSynchronousSubscriber { _ in }
      #expect(monitor.isMonitoring && source.activeSessionCount == 1)
      kept = Weak(monitor)
    }
    #expect(kept?.object == nil)
    #expect(source.activeSessionCount == 0)
  }

  @Test("start() on a monitor a subscription started makes it hold itself too")
  func startAfterASubscription() {
    let source = ScriptedPathSource(.test(.wifi))
    var kept: Weak<NetworkMonitor>?
    do {
      let monitor = NetworkMonitor(source: source)
      monitor.postsNotifications = false
      _ = monitor.addSynchronousSubscriber { _ in }
      monitor.startMonitoring()
      kept = Weak(monitor)
    }
    #expect(kept?.object != nil && source.activeSessionCount == 1)
    kept?.object?.stopMonitoring()
    #expect(kept?.object == nil)
  }

  @Test("a source that fails ends it: a started monitor no longer held is then freed")
  func aFailureLetsGo() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let seen = Recorder<NetworkPath>()
    let kept = try startAndLetGo(source, into: seen)
    try await seen.waitFor(count: 1, "the first path")
    source.fail(.namespaceDeleted(path: "/run/netns/gone"))
    try await eventually("the failed monitor to be freed") { kept.object == nil }
    #expect(source.activeSessionCount == 0)
  }

  @Test("a connectivity monitor started with start() runs until stop(); one a model started goes with the model")
  func connectivityMonitors() async throws {
    let monitor = NetworkMonitor(source: ScriptedPathSource(.test(.wifi)))
    let transport = ScriptedTransport()
    let probe = try ConnectivityProbe(url: "http://probe.test/")
    func startAndLetGo() -> Weak<ConnectivityMonitor> {
      let connectivity = ConnectivityMonitor(monitor: monitor, probe: probe, transport: transport)
      connectivity.startMonitoring()
      return Weak(connectivity)
    }
    let kept = startAndLetGo()
    try await transport.requests.waitFor(count: 1, "the first check")
    #expect(kept.object != nil && transport.cancellations.count == 0, "still checking")
    kept.object?.stop()
    try await transport.cancellations.waitFor(count: 1, "the check cancelled by stop()")
    #expect(kept.object == nil)

    let byModel: Weak<ConnectivityMonitor> = await MainActor.run {
      let connectivity = ConnectivityMonitor(monitor: monitor, probe: probe, transport: transport)
      _ = NetworkStatusModel(connectivity: connectivity)  // released at once
      return Weak(connectivity)
    }
    try await eventually("the connectivity monitor of a released model to go") { byModel.object == nil }
    monitor.stop()
  }
}
