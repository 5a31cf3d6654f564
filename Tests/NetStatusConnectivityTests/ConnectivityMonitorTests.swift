import Dispatch
import Foundation
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Observation
import Testing

@testable import NetStatusConnectivity
@testable import NetStatusMonitor

@Suite("ConnectivityMonitor with a scripted source and transport")
struct ConnectivityMonitorTests {
  static let noContent = HTTPResponse(
    version: "HTTP/1.1", status: 204, reason: "No Content", headers: [], body: [], isBodyComplete: true)
  static let redirect = HTTPResponse(
    version: "HTTP/1.1", status: 302, reason: "Found", headers: [.init(name: "Location", value: "http://p.test/login")],
    body: [], isBodyComplete: true)

  func make(_ initial: NetworkPath? = .test(.wifi)) throws -> (
    ScriptedPathSource, ScriptedTransport, ConnectivityMonitor
  ) {
    let source = ScriptedPathSource(initial)
    let transport = ScriptedTransport()
    // No check comes from a timer during a test: the backoff after a portal or a failure (1 s by default) would
    // otherwise start a check of its own whenever a step of a slow run (a sanitizer, a busy machine) takes longer,
    // and counts and request orders would depend on the machine's speed.
    let probe = try ConnectivityProbe(
      url: "http://probe.test/", settleDelay: .milliseconds(1), initialBackoff: .seconds(3600),
      maximumBackoff: .seconds(3600))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let connectivity = ConnectivityMonitor(monitor: monitor, probe: probe, transport: transport)
    return (source, transport, connectivity)
  }

  /// A sequence ends when its monitor can no longer deliver: when the path monitor's source fails, the connectivity
  /// monitor stops (its state unknown) and `states` ends; `start()` begins again.
  @Test func aFailedPathSourceStopsTheMonitorAndEndsStates() async throws {
    let (source, transport, connectivity) = try make()
    let states = Recorder<ConnectivityState>()
    let iteration = Task { for await state in connectivity.states { states.append(state) } }
    try await transport.requests.waitFor(count: 1, "the first probe")
    transport.answer(.response(Self.noContent))
    try await states.waitUntil("full") { $0.last == .full }

    source.fail(.namespaceDeleted(path: "/run/netns/gone"))
    try await withTimeout(.seconds(30), "the states loop to end after the path source failed") {
      await iteration.value
    }
    #expect(states.values.last == .unknown, "stopped: unknown, then the end")
    #expect(!connectivity.isMonitoring)
    #expect(connectivity.state == .unknown)

    try connectivity.start()
    #expect(connectivity.isMonitoring, "start() begins again")
    #expect(connectivity.monitor.isMonitoring)
    connectivity.stop()
    connectivity.monitor.stop()
  }

  /// `start()` throws what kept the path monitor from starting; a `states` loop that tried to start it ends.
  @Test func aPathMonitorThatCannotStartIsThrownAndEndsStates() async throws {
    let (source, _, connectivity) = try make()
    source.startError = .namespaceNotFound(path: "/run/netns/nope")
    #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/nope")) { try connectivity.start() }
    #expect(!connectivity.isMonitoring)
    try await withTimeout(.seconds(30), "the states loop to end") {
      for await state in connectivity.states where state != .unknown {
        Issue.record("no state but unknown expected, got \(state)")
      }
    }
    await #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/nope")) {
      try await connectivity.waitForInternetAccess(timeout: .seconds(10))
    }
  }

  /// `waitForInternetAccess(timeout:)` behaves like `waitForPath(timeout:)`: it returns once the state is full, and
  /// throws `.timedOut` when it is not in time.
  @Test func waitForInternetAccessReturnsWhenFullAndThrowsOnTimeout() async throws {
    let (_, transport, connectivity) = try make()
    await #expect(throws: NetworkMonitorError.timedOut(.milliseconds(100))) {
      try await connectivity.waitForInternetAccess(timeout: .milliseconds(100))
    }
    let waiting = Task { try await connectivity.waitForInternetAccess(timeout: .seconds(30)) }
    try await transport.requests.waitFor(count: 1, "the first probe")
    transport.answer(.response(Self.noContent))
    try await withTimeout(.seconds(30), "the wait to return once full") { try await waiting.value }
    try await connectivity.waitForInternetAccess(timeout: .zero)  // already full: returns at once
    connectivity.stop()
    connectivity.monitor.stop()
  }

  @Test func propertyClosureAndSequenceSeeEveryStateInOrder() async throws {
    let (source, transport, connectivity) = try make()
    let queue = DispatchQueue(label: "connectivity handlers")
    connectivity.handlerQueue = queue
    let handled = Recorder<ConnectivityState>()
    connectivity.connectivityUpdateHandler = { state in
      dispatchPrecondition(condition: .onQueue(queue))
      handled.append(state)
    }
    let iterated = Recorder<ConnectivityState>()
    let iteration = Task {
      for await state in connectivity.states { iterated.append(state) }
    }
    defer { iteration.cancel() }
    try await iterated.waitFor(count: 1, "the current state")
    #expect(iterated.values == [.unknown])
    #expect(connectivity.isMonitoring, "iterating starts the monitor")

    try await transport.requests.waitFor(count: 1, "the first probe")
    #expect(
      transport.requests.values.first?.interface == NetworkPath.test(.wifi).availableInterfaces.first?.name,
      "over the path's preferred interface")
    transport.answer(.response(Self.redirect))
    try await iterated.waitFor(count: 2, "portal")
    #expect(connectivity.state == .portal(redirect: "http://p.test/login"))

    connectivity.recheck()
    try await transport.requests.waitFor(count: 2, "the requested recheck")
    transport.answer(.response(Self.noContent))
    try await iterated.waitFor(count: 3, "full")
    #expect(connectivity.hasInternetAccess)
    #expect(connectivity.lastCheck?.detail == "HTTP 204")
    #expect(connectivity.lastCheck?.interface == "wlan0")

    source.send(.offline)
    try await iterated.waitFor(count: 4, "none")
    try await handled.waitFor(count: 3, "the closure's states")
    let expected: [ConnectivityState] = [.unknown, .portal(redirect: "http://p.test/login"), .full, .noPath]
    #expect(iterated.values == expected)
    #expect(handled.values == Array(expected.dropFirst()), "the closure gets changes")
    #expect(connectivity.checksStarted == 2, "no probe without a path, none while full")
  }

  @Test func aPathChangeCancelsTheProbeInFlight() async throws {
    let (source, transport, connectivity) = try make()
    connectivity.startMonitoring()
    defer { connectivity.stopMonitoring() }
    try await transport.requests.waitFor(count: 1, "the first probe")
    source.send(.test(.wiredEthernet, index: 9))
    try await transport.cancellations.waitFor(count: 1, "the in-flight probe to be cancelled")
    try await transport.requests.waitFor(count: 2, "the probe of the new path, after it settled")
    transport.answer(.response(Self.noContent))
    try await connectivity.awaitState("full") { $0 == .full }
    #expect(transport.cancellations.count == 1)
  }

  @Test func stoppingCancelsAndForgetsButKeepsThePathMonitorRunning() async throws {
    let (_, transport, connectivity) = try make()
    connectivity.startMonitoring()
    connectivity.startMonitoring()
    try await transport.requests.waitFor(count: 1, "the first probe")
    connectivity.stopMonitoring()
    try await transport.cancellations.waitFor(count: 1, "the probe to be cancelled")
    #expect(connectivity.state == .unknown)
    #expect(!connectivity.isMonitoring)
    #expect(connectivity.monitor.isMonitoring, "the path monitor is not ours to stop")
    #expect(connectivity.monitor.subscriberCount == 0, "our subscription is gone")

    connectivity.startMonitoring()
    try await transport.requests.waitFor(count: 2, "a probe after restarting")
    transport.answer(.failed(.refused))
    try await connectivity.awaitState("limited") { $0 == .limited }
    connectivity.stopMonitoring()
  }

  @Test func aStoppedPathMonitorMakesItUnknownAndItsRestartProbesAgain() async throws {
    let (_, transport, connectivity) = try make()
    connectivity.startMonitoring()
    defer { connectivity.stopMonitoring() }
    let paths = connectivity.monitor
    try await transport.requests.waitFor(count: 1, "the first probe")
    transport.answer(.response(Self.noContent))
    try await connectivity.awaitState("full") { $0 == .full }

    // Stopped: its path is not known any more, so neither is the internet behind it.
    paths.stopMonitoring()
    #expect(paths.currentPath == nil)
    try await connectivity.awaitState("unknown once the path monitor stopped", timeout: .seconds(30)) {
      $0 == .unknown
    }
    #expect(connectivity.isMonitoring, "the connectivity monitor keeps following the path monitor")

    // Started again: the path is probed at once, as a first path is.
    paths.startMonitoring()
    try await transport.requests.waitFor(count: 2, "a probe once the path monitor runs again")
    // Stopped while that probe is in flight: the probe is cancelled.
    paths.stopMonitoring()
    try await transport.cancellations.waitFor(count: 1, "the probe in flight to be cancelled")
    #expect(connectivity.state == .unknown)
    paths.startMonitoring()
    try await transport.requests.waitFor(count: 3, "a probe after the second restart")
    // Counted before answering: once the portal is known, its re-check after the backoff (1 s) may start at
    // any moment, and a slow run (a sanitizer, a busy machine) gets there.
    #expect(connectivity.checksStarted == 3, "one check per start, none for the stops")
    transport.answer(.response(Self.redirect))
    try await connectivity.awaitState("a portal") { $0.name == "portal" }
  }

  @Test func anUnsatisfiedPathSendsNothing() async throws {
    let (source, transport, connectivity) = try make(.offline)
    connectivity.startMonitoring()
    defer { connectivity.stopMonitoring() }
    try await connectivity.awaitState("none") { $0 == .noPath }
    source.send(NetworkPath(status: .requiresConnection))
    #expect(connectivity.state == .noPath)
    #expect(transport.requests.count == 0)
    #expect(connectivity.checksStarted == 0)
  }

  @Test @MainActor func theObservationModelFollowsConnectivity() async throws {
    let (_, transport, connectivity) = try make()
    let model = NetworkStatusModel(connectivity: connectivity)
    #expect(model.connectivityMonitor === connectivity)
    #expect(model.monitor === connectivity.monitor)
    #expect(model.connectivity == .unknown)
    try await transport.requests.waitFor(count: 1, "the first probe: the model started the connectivity monitor")

    let changed = Recorder<Void>()
    withObservationTracking {
      _ = model.connectivity
    } onChange: {
      changed.append(())
    }
    transport.answer(.response(Self.noContent))
    try await changed.waitFor(count: 1, "the model to change")
    try await withTimeout(.seconds(30), "the model to be full") {
      while await MainActor.run(body: { model.connectivity }) != .full {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    #expect(model.hasInternetAccess)
    #expect(model.isConnected)
    #expect(NetworkStatusModel(monitor: connectivity.monitor).connectivity == .unknown, "no probe, no connectivity")
  }

  /// A cancelled task's `for await connectivity.states` must not start the connectivity monitor (a probe would
  /// go out) nor its path monitor.
  @Test func aCancelledTasksIterationStartsNothing() async throws {
    let (source, transport, connectivity) = try make()
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      for await _ in connectivity.states { return false }
      return true
    }
    #expect(await cancelled.value, "a cancelled task's loop ends at once")
    #expect(!connectivity.isMonitoring)
    #expect(source.startCount == 0)
    #expect(transport.requests.count == 0, "no probe was sent")
  }

  @Test func releasingTheMonitorCancelsItsProbe() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let transport = ScriptedTransport()
    var connectivity: ConnectivityMonitor? = ConnectivityMonitor(
      monitor: monitor, probe: try ConnectivityProbe(url: "http://probe.test/"), transport: transport)
    // Started by a subscription, which goes with it (one started with `start()` runs until `stop()`).
    _ = connectivity?.addRelayedSubscriber(deliver: { _ in })
    try await transport.requests.waitFor(count: 1, "the first probe")
    #expect(monitor.subscriberCount == 1)
    connectivity = nil
    try await transport.cancellations.waitFor(count: 1, "the probe to be cancelled on release")
    #expect(monitor.subscriberCount == 0)
  }
}
