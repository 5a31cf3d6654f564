import Dispatch
import NetStatusTestSupport
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// Stands for the system's resumes (the app returning to the foreground, the Mac waking): the source's
/// `observeResume` seam. `@unchecked Sendable`: its fields are only used under `lock`.
final class ResumeSignal: @unchecked Sendable {
  private let lock = NetStatusCore.Locked((observers: [Int: @Sendable () -> Void](), next: 0, ended: 0))

  /// The source's `observeResume`.
  var observe: @Sendable (@escaping @Sendable () -> Void) -> @Sendable () -> Void {
    { [self] resumed in
      let id = lock.withLockedValue { state in
        state.next += 1
        state.observers[state.next] = resumed
        return state.next
      }
      return { [self] in
        lock.withLockedValue { state in
          if state.observers.removeValue(forKey: id) != nil { state.ended += 1 }
        }
      }
    }
  }

  /// Resumes: calls every observer.
  func resume() {
    for resumed in lock.withLockedValue({ Array($0.observers.values) }) { resumed() }
  }

  /// How many observations are running, and how many have been ended.
  var counts: (running: Int, ended: Int) { lock.withLockedValue { ($0.observers.count, $0.ended) } }
}

@Suite("NWPathMonitorSource: a new NWPathMonitor after sleep and resume")
struct NWPathMonitorResumeTests {
  @Test("a resume replaces the monitor; the new one's first path is delivered like any other change")
  func resumeRenews() async throws {
    let log = MonitorLog { $0.pathOnStart = .satisfied("en0", index: 4, .wifi) }
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let monitor = NetworkMonitor(source: source)
    let paths = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { paths.append($0) }
    defer {
      monitor.removeSynchronousSubscriber(id)
      monitor.stopMonitoring()
    }
    try await paths.waitFor(count: 1, "the first monitor's path")
    let first = try #require(log.monitors.first)
    let queue = try #require(first.queue)
    #expect(signal.counts.running == 1)

    // The system's path has changed while the app slept, and the stale monitor never said.
    log.prepareNext { $0.pathOnStart = .satisfied("pdp_ip0", index: 3, .cellular) }
    signal.resume()
    queue.sync {}  // the renewal runs on the session's queue
    let monitors = log.monitors
    try #require(monitors.count == 2)
    #expect(first.cancelCount == 1, "the stale monitor is cancelled")
    #expect(monitors[1].startCount == 1)
    #expect(monitors[1].handlerWasSetAtStart == true)
    #expect(monitors[1].queue === queue, "the session's one queue: paths and renewals one at a time")
    try await paths.waitFor(count: 2, "the new monitor's first path")
    #expect(paths.values == [.connected(via: .wifi, index: 4), .connected(via: .cellular, index: 3)])
    #expect(monitor.currentPath == .connected(via: .cellular, index: 3))

    #expect(!first.emit(.satisfied("en9", index: 9, .wiredEthernet)), "the stale monitor delivers nothing more")
    monitors[1].emit(.satisfied("en1", index: 5, .wiredEthernet))
    try await paths.waitFor(count: 3, "the new monitor's next path")
    #expect(paths.values.last == .connected(via: .wiredEthernet, index: 5))
  }

  @Test("the same path after a resume is not published again")
  func samePathNotRepeated() async throws {
    let log = MonitorLog { $0.pathOnStart = .satisfied("en0", index: 4, .wifi) }
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let monitor = NetworkMonitor(source: source)
    let paths = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { paths.append($0) }
    defer {
      monitor.removeSynchronousSubscriber(id)
      monitor.stopMonitoring()
    }
    try await paths.waitFor(count: 1, "the first path")
    let queue = try #require(log.monitors.first?.queue)
    signal.resume()
    queue.sync {}  // the renewal
    queue.sync {}  // the new monitor's first path, dispatched by its start
    #expect(log.monitors.count == 2)
    #expect(paths.values == [.connected(via: .wifi, index: 4)])
  }

  @Test("a path the stale monitor had queued before the renewal is dropped once it is replaced")
  func stalePathDropped() async throws {
    let log = MonitorLog()
    let signal = ResumeSignal()
    let sent = Recorder<NetworkPath>()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let session = try source.start(
      filter: .unrestricted, sink: PathSink { if case .path(let p) = $0 { sent.append(p) } })
    defer { session.stop() }
    let first = try #require(log.monitors.first)
    let queue = try #require(first.queue)
    // The renewal is queued first, then a path of the stale monitor: it arrives after its monitor was replaced.
    queue.suspend()
    signal.resume()
    #expect(first.emit(.satisfied("en9", index: 9, .wiredEthernet)))
    queue.resume()
    queue.sync {}
    #expect(log.monitors.count == 2)
    #expect(sent.values.isEmpty)
  }

  @Test("stopping ends the observation of resumes; a resume after the stop starts nothing")
  func stopEndsObservation() throws {
    let log = MonitorLog()
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let session = try source.start(filter: .unrestricted, sink: PathSink { _ in })
    let queue = try #require(log.monitors.first?.queue)
    #expect(signal.counts.running == 1)
    session.stop()
    #expect(signal.counts == (running: 0, ended: 1))
    // A resume observed just before the stop ended the observation still comes to nothing.
    (session as? NWPathMonitorSource.Session)?.renew()
    queue.sync {}
    #expect(log.monitors.count == 1)
    #expect(log.monitors[0].cancelCount == 1)
  }

  @Test("each start observes resumes anew; the default source's seam observes nothing on Linux")
  func observationPerStart() throws {
    let log = MonitorLog()
    let signal = ResumeSignal()
    let source = NWPathMonitorSource(makeMonitor: log.source.makeMonitor, observeResume: signal.observe)
    let first = try source.start(filter: .unrestricted, sink: PathSink { _ in })
    first.stop()
    let second = try source.start(filter: .unrestricted, sink: PathSink { _ in })
    #expect(signal.counts == (running: 1, ended: 1))
    second.stop()
    #expect(signal.counts == (running: 0, ended: 2))
  }
}
