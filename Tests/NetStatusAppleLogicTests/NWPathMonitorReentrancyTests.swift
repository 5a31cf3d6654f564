import Dispatch
import NetStatusTestSupport
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// Stopping from inside a delivery, on the monitor's own queue: every way a subscriber can. The session used to hold
/// its lock while it sent, so each of these locked it again on the same thread ("Recursive call to lock Mutex" on
/// Linux; on Apple platforms the unfair lock traps). Here NWPathMonitorSource.swift locks through the Apple half of
/// Mutex+ThreadSanitizer.swift, whose stand-in lock traps on a recursive lock as `os_unfair_lock` does: a regression
/// crashes the test process.
@Suite("NWPathMonitorSource: stopping from inside a delivery")
struct NWPathMonitorReentrancyTests {
  @Test("the sink stops its own session")
  func sinkStopsSession() async throws {
    let log = MonitorLog()
    let sent = Recorder<NetworkPath>()
    let box = SessionBox()
    let session = try log.source.start(
      filter: .unrestricted,
      sink: PathSink { event in
        guard case .path(let path) = event else { return }
        sent.append(path)
        box.session?.stop()
      })
    box.session = session
    // The box holds the session, whose sink holds the box: broken at the end, or the three leak (LeakSanitizer).
    defer { box.session = nil }
    let monitor = try #require(log.monitors.first)
    monitor.emit(.satisfied("en0", index: 4, .wifi))
    try await sent.waitFor(count: 1, "the path whose delivery stops the session")
    try #require(monitor.queue).sync {}
    #expect(monitor.cancelCount == 1)
    #expect(!monitor.emit(.satisfied("pdp_ip0", index: 3, .cellular)), "cancelled: nothing more")
    #expect(sent.values == [.connected(via: .wifi, index: 4)])
  }

  @Test("a synchronous subscriber stops the monitor")
  func synchronousSubscriberStops() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    let seen = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { path in
      seen.append(path)
      monitor.stopMonitoring()
    }
    defer { monitor.removeSynchronousSubscriber(id) }
    let nwMonitor = try #require(log.monitors.first)
    nwMonitor.emit(.satisfied("en0", index: 4, .wifi))
    try await seen.waitFor(count: 1, "the path")
    try #require(nwMonitor.queue).sync {}
    #expect(!monitor.isMonitoring)
    #expect(monitor.currentPath == nil)
    #expect(nwMonitor.cancelCount == 1)
  }

  @Test("a demand-driven subscriber (pathPublisher's engine) stops the monitor")
  func demandSubscriberStops() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    let seen = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      seen.append(path)
      monitor.stopMonitoring()
      return Int.max
    }
    defer { relay.cancel() }
    relay.request(Int.max)
    let nwMonitor = try #require(log.monitors.first)
    nwMonitor.emit(.satisfied("en0", index: 4, .wifi))
    try await seen.waitFor(count: 1, "the path")
    try #require(nwMonitor.queue).sync {}
    #expect(!monitor.isMonitoring)
    #expect(nwMonitor.cancelCount == 1)
  }

  @Test("a subscriber stops the monitor and starts it again: a new NWPathMonitor, the old one cancelled")
  func subscriberRestarts() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    let seen = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { path in
      seen.append(path)
      if path.interfaceType == .wifi {
        monitor.stopMonitoring()
        monitor.startMonitoring()
      }
    }
    defer {
      monitor.removeSynchronousSubscriber(id)
      monitor.stopMonitoring()
    }
    let first = try #require(log.monitors.first)
    first.emit(.satisfied("en0", index: 4, .wifi))
    try await seen.waitFor(count: 1, "the path")
    try #require(first.queue).sync {}
    let monitors = log.monitors
    try #require(monitors.count == 2)
    #expect(first.cancelCount == 1)
    #expect(monitors[1].startCount == 1)
    #expect(monitor.isMonitoring)
    monitors[1].emit(.satisfied("pdp_ip0", index: 3, .cellular))
    try await seen.waitFor(count: 2, "the new monitor's path")
    #expect(seen.values.last == .connected(via: .cellular, index: 3))
  }

  @Test("the last reference to the monitor is dropped inside a delivery: its session stops there")
  func lastReferenceDropped() async throws {
    let log = MonitorLog()
    let seen = Recorder<NetworkPath>()
    let holder = MonitorHolder(NetworkMonitor(source: log.source))
    weak let released = holder.monitor
    _ = try #require(holder.monitor).addSynchronousSubscriber { path in
      seen.append(path)
      holder.monitor = nil
    }
    let nwMonitor = try #require(log.monitors.first)
    nwMonitor.emit(.satisfied("en0", index: 4, .wifi))
    try await seen.waitFor(count: 1, "the path")
    try #require(nwMonitor.queue).sync {}
    #expect(released == nil)
    #expect(nwMonitor.cancelCount == 1)
  }
}

/// A session that its own sink reaches. `@unchecked Sendable`: set before the first path, read on the queue after.
final class SessionBox: @unchecked Sendable {
  var session: (any PathSourceSession)?
}

/// The only strong reference to a monitor, which a subscriber drops. `@unchecked Sendable`: set once by the test,
/// cleared once on the monitor's queue.
final class MonitorHolder: @unchecked Sendable {
  var monitor: NetworkMonitor?

  init(_ monitor: NetworkMonitor) {
    self.monitor = monitor
  }
}

@Suite("Locked, Apple half (OSAllocatedUnfairLock stand-in)")
struct AppleLockTests {
  @Test("excludes: increments from many threads are all counted")
  func excludes() {
    let counter = NetStatusAppleLogic.Locked(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.withLockedValue { $0 += 1 } }
    }
    #expect(counter.withLockedValue { $0 } == 80_000)
  }

  @Test("copies share the lock and the value, as OSAllocatedUnfairLock's do")
  func copiesShare() {
    let original = NetStatusAppleLogic.Locked([Int]())
    let copy = original
    copy.withLockedValue { $0.append(1) }
    #expect(original.withLockedValue { $0 } == [1])
  }

  @Test("a typed error thrown inside comes out with its type, the lock released")
  func typedThrows() {
    struct Refused: Error {}
    let lock = NetStatusAppleLogic.Locked(1)
    #expect(throws: Refused.self) {
      try lock.withLockedValue { (value: inout Int) throws(Refused) -> Void in
        value = 2
        throw Refused()
      }
    }
    #expect(lock.withLockedValue { $0 } == 2)
  }
}
