import Dispatch
import NetStatusTestSupport
import NetStatusTesting
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// NWPathMonitor's documented semantics, held against the stand-in: every delivered path is news (Network's `path.h`),
/// and no Network call is made under an `OSAllocatedUnfairLock`.
@Suite("NWPathMonitorSource: NWPathMonitor's semantics")
struct NWPathMonitorSemanticsTests {
  @Test("a path equal to the last one still reaches pathUpdateHandler, paths and a demand-driven subscriber")
  func everyDeliveryIsAChange() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    let handled = Recorder<NetworkPath>()
    monitor.handlerQueue = DispatchQueue(label: "test.handlers")
    monitor.pathUpdateHandler = { handled.append($0) }
    let relayed = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      relayed.append(path)
      return 1
    }
    relay.request(Int.max)
    defer {
      relay.cancel()
      monitor.stopMonitoring()
    }
    let iterated = Recorder<NetworkPath>()
    try monitor.start()
    let iteration = Task { for await path in monitor.paths { iterated.append(path) } }
    defer { iteration.cancel() }
    let nwMonitor = try #require(log.monitors.first)

    // One Wi-Fi network for another behind the same gateway: every property NetStatus copies is the same.
    let wifi = NWPath.satisfied("en0", index: 4, .wifi)
    nwMonitor.emit(wifi)
    try await iterated.waitFor(count: 1, "the first path through paths")
    nwMonitor.emit(wifi)
    try await iterated.waitFor(count: 2, "the second, equal path through paths")
    let values = iterated.values
    #expect(values[0] == values[1], "equal by every property")
    #expect(!values[1].isRepeat(of: values[0]), "yet a new delivery")
    try await handled.waitFor(count: 2, "both paths through pathUpdateHandler")
    try await relayed.waitFor(count: 2, "both paths through the demand-driven subscriber")
    #expect(monitor.currentPath == .connected(via: .wifi, index: 4))
  }

  @Test("paths built, decoded or from other sources are changes only when they differ")
  func valuesCompareByProperties() async throws {
    let path = NetworkPath.connected(via: .wifi)
    #expect(path.isRepeat(of: NetworkPath.connected(via: .wifi)))
    let source = ScriptedPathSource([path, path, .offline], interval: .milliseconds(1))
    let monitor = NetworkMonitor(source: source)
    let seen = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { seen.append($0) }
    defer {
      monitor.removeSynchronousSubscriber(id)
      monitor.stopMonitoring()
    }
    try await seen.waitFor(count: 2, "the path, then offline")
    #expect(seen.values == [path, .offline], "the repeated value is not a change")
  }

  @Test("no Network call is made while an OSAllocatedUnfairLock is held: start, renewal, delivery, stop")
  func noNetworkCallUnderTheLock() async throws {
    let calls = Recorder<String>()
    let log = MonitorLog { monitor in
      monitor.onCall = { name in
        calls.append(HeldLocks.count == 0 ? name : "\(name) with \(HeldLocks.count) lock(s) held")
      }
    }
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let monitor = NetworkMonitor(source: source)
    let seen = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { seen.append($0) }
    let first = try #require(log.monitors.first)
    first.emit(.satisfied("en0", index: 4, .wifi))
    try await seen.waitFor(count: 1, "the first path")
    signal.resume()
    try #require(first.queue).sync {}  // the renewal
    monitor.removeSynchronousSubscriber(id)
    monitor.stopMonitoring()
    #expect(log.monitors.count == 2)
    #expect(
      calls.values == [
        "pathUpdateHandler", "start(queue:)",  // the first monitor
        "pathUpdateHandler", "start(queue:)", "cancel()",  // the renewal: the new one started, the stale one cancelled
        "cancel()",  // the stop
      ])
  }

  @Test("a stop between the renewal's start and its record cancels the renewed monitor")
  func stopDuringRenewal() async throws {
    let session = SessionBox()
    let log = MonitorLog()
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    session.session = try source.start(filter: .unrestricted, sink: PathSink { _ in })
    defer { session.session = nil }
    // The second monitor stops the session from inside its start(queue:), before the session records it.
    log.prepareNext { monitor in
      monitor.onCall = { name in
        if name == "start(queue:)" { session.session?.stop() }
      }
    }
    let first = try #require(log.monitors.first)
    signal.resume()
    try #require(first.queue).sync {}  // the renewal
    let monitors = log.monitors
    try #require(monitors.count == 2)
    #expect(first.cancelCount == 1, "the stop cancels the recorded monitor")
    #expect(monitors[1].cancelCount == 1, "and the renewal, not yet recorded, cancels its own")
  }
}
