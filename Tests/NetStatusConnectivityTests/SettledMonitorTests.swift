import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

/// ``NetworkMonitor/settled(offlineAfter:onlineAfter:clock:)`` end to end over a scripted source and a test clock:
/// nothing sleeps; the clock moves when the test says.
@Suite("Settled monitor")
struct SettledMonitorTests {
  static let wifi = NetworkPath.test(.wifi)
  static let cellular = NetworkPath.test(.cellular, index: 3)

  struct Setup {
    let script = ScriptedPathSource(SettledMonitorTests.wifi)
    let clock = TestClock()
    let upstream: NetworkMonitor
    let settled: NetworkMonitor
    let seen = Recorder<NetworkPath>()

    init() {
      upstream = NetworkMonitor(source: script)
      settled = upstream.settled(offlineAfter: .seconds(3), onlineAfter: .seconds(1), clock: clock)
      let seen = self.seen
      _ = settled.addSynchronousSubscriber { seen.append($0) }
    }
  }

  @Test("the first path at once; a blip shorter than the hold is never seen; a change that holds is")
  func blipNeverSeen() async throws {
    let setup = Setup()
    try await setup.seen.waitFor(count: 1, "the first path")
    setup.script.send(.offline)
    setup.clock.advance(by: .seconds(2))
    setup.script.send(Self.wifi)
    setup.clock.advance(by: .seconds(10))
    // A change that holds, to know the blip's time has passed: the values before it are all there is.
    setup.script.send(.offline)
    setup.clock.advance(by: .seconds(3))
    let values = try await setup.seen.waitUntil("the held offline path") { $0.count >= 2 }
    #expect(values == [Self.wifi, .offline])
    #expect(setup.settled.currentPath == .offline)
    #expect(setup.upstream.currentPath == .offline)
    setup.settled.stop()
    setup.upstream.stop()
  }

  @Test("a change of link quality alone is a change, and settles like any other: a dip that does not hold is unseen")
  func linkQualitySettles() async throws {
    let setup = Setup()
    try await setup.seen.waitFor(count: 1, "the first path")
    var minimal = Self.wifi
    minimal.linkQuality = .minimal
    var good = Self.wifi
    good.linkQuality = .good
    setup.script.send(minimal)
    setup.clock.advance(by: .milliseconds(500))
    setup.script.send(Self.wifi)  // back before the second it must hold: never seen
    setup.clock.advance(by: .seconds(5))
    setup.script.send(good)
    setup.clock.advance(by: .seconds(1))
    let values = try await setup.seen.waitUntil("the quality that held") { $0.count >= 2 }
    #expect(values == [Self.wifi, good])
    #expect(setup.settled.currentPath?.linkQuality == .good)
  }

  @Test("every front-end sees the settled paths: paths, and the closure")
  func frontEnds() async throws {
    let setup = Setup()
    let handled = Recorder<NetworkPath>()
    setup.settled.handlerQueue = .global()
    setup.settled.pathUpdateHandler = { handled.append($0) }
    let iterated = Recorder<NetworkPath>()
    let settled = setup.settled
    let task = Task {
      for await path in settled.paths { iterated.append(path) }
    }
    try await iterated.waitFor(count: 1, "the first path through paths")
    setup.script.send(Self.cellular)
    setup.script.send(.offline)
    setup.script.send(Self.cellular)
    setup.clock.advance(by: .milliseconds(999))
    #expect(setup.settled.currentPath == Self.wifi)
    setup.clock.advance(by: .milliseconds(1))
    try await iterated.waitFor(count: 2, "cellular through paths")
    try await handled.waitUntil("cellular through the closure") { $0.last == Self.cellular }
    #expect(iterated.values == [Self.wifi, Self.cellular])
    #expect(!handled.values.contains(.offline))
    task.cancel()
    setup.settled.stop()
    setup.upstream.stop()
  }

  @Test("a failure of the followed monitor is passed on at once, and ends the settled subscriptions")
  func failurePassedOn() async throws {
    let setup = Setup()
    try await setup.seen.waitFor(count: 1, "the first path")
    let (iterated, ended) = (Recorder<NetworkPath>(), Recorder<Bool>())
    let settled = setup.settled
    let task = Task {
      for await path in settled.paths { iterated.append(path) }
      ended.append(true)
    }
    try await iterated.waitFor(count: 1, "the first path through paths")
    setup.script.fail(.sourceFailed("gone"))
    try await ended.waitFor(count: 1, "the end of the settled paths")
    #expect(setup.settled.lastError == .sourceFailed("gone"))
    task.cancel()
  }

  @Test("stopping the followed monitor makes the settled one forget: the next path is reported at once")
  func upstreamStopForgets() async throws {
    let setup = Setup()
    try await setup.seen.waitFor(count: 1, "the first path")
    setup.script.send(.offline)  // pending: held for 3 s
    setup.upstream.stop()
    setup.script.send(Self.cellular)
    try setup.upstream.start()
    try await setup.seen.waitUntil("cellular at once") { $0.last == Self.cellular }
    #expect(!setup.seen.values.contains(.offline))
    setup.settled.stop()
    setup.upstream.stop()
  }
}

/// ``ConnectivityMonitor/settled(offlineAfter:onlineAfter:clock:)`` over a scripted path source and transport, on a
/// test clock.
@Suite("Settled connectivity")
struct SettledConnectivityTests {
  static let noContent = HTTPResponse(
    version: "HTTP/1.1", status: 204, reason: "No Content", headers: [], body: [], isBodyComplete: true)

  @Test("the first verdict at once; losing full access for less than the hold is never seen; a loss that holds is")
  func blipNeverSeen() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let transport = ScriptedTransport()
    let probe = try ConnectivityProbe(
      url: "http://probe.test/", settleDelay: .milliseconds(1), initialBackoff: .seconds(3600),
      maximumBackoff: .seconds(3600))
    let upstream = ConnectivityMonitor(monitor: NetworkMonitor(source: source), probe: probe, transport: transport)
    let clock = TestClock()
    let settled = upstream.settled(offlineAfter: .seconds(5), onlineAfter: .seconds(1), clock: clock)
    let states = Recorder<ConnectivityState>()
    let iteration = Task { for await state in settled.states { states.append(state) } }

    try await transport.requests.waitFor(count: 1, "the first probe")
    transport.answer(.response(Self.noContent))
    try await states.waitUntil("full at once") { $0.last == .full }

    source.send(.offline)  // no path: held
    try await upstream.awaitState("the followed monitor's noPath") { $0 == .noPath }
    source.send(.test(.wifi))
    try await transport.requests.waitFor(count: 2, "the probe after the path came back")
    transport.answer(.response(Self.noContent))
    try await upstream.awaitState("the followed monitor's full") { $0 == .full }
    clock.advance(by: .seconds(10))

    source.send(.offline)
    try await upstream.awaitState("the followed monitor's noPath") { $0 == .noPath }
    clock.advance(by: .seconds(5))
    let seen = try await states.waitUntil("noPath once held") { $0.last == .noPath }
    #expect(seen.filter { $0 != .unknown } == [.full, .noPath])
    #expect(settled.state == .noPath)
    iteration.cancel()
    settled.stop()
    upstream.stop()
    upstream.monitor.stop()
  }
}
