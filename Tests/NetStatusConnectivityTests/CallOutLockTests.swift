#if DEBUG && (canImport(Glibc) || canImport(Musl))
  import NetStatus
  import NetStatusTestSupport
  import NetStatusTesting
  import Testing

  @testable import NetStatusConnectivity

  /// No path source is started or stopped while a ``Locked`` is held, whichever way the monitor is started and
  /// stopped. On Apple platforms a `Locked` is an `OSAllocatedUnfairLock`, and a source's start and stop are where
  /// `NWPathMonitor.start(queue:)`, `cancel()` and the sleep and foreground observers' registration go out: calls
  /// that may block or call back into NetStatus on the same thread, which must never run under that lock. The
  /// monitor orders them with its ``CallOutLock`` instead; this checks it through ``LockedDepth`` (debug builds).
  @Suite("Path sources are called with no Locked held")
  struct CallOutLockTests {
    /// A scripted source that records how many `Locked` the calling thread holds in its start and its stop.
    final class RecordingSource: PathSource {
      let script = ScriptedPathSource(.connected(via: .wifi))
      /// The depth at each start and stop, in order: `start 0`, `stop 0`.
      let calls = Recorder<String>()

      func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
        calls.append("start \(LockedDepth.current)")
        return Session(inner: try script.start(filter: filter, sink: sink), calls: calls)
      }

      struct Session: PathSourceSession {
        let inner: any PathSourceSession
        let calls: Recorder<String>

        func stop() {
          calls.append("stop \(LockedDepth.current)")
          inner.stop()
        }
      }
    }

    @Test func theDepthIsCountedWhileALockedIsHeld() {
      let lock = Locked(0)
      #expect(LockedDepth.current == 0)
      lock.withLockedValue { _ in #expect(LockedDepth.current == 1) }
      #expect(LockedDepth.current == 0)
    }

    @Test func startAndStop() throws {
      let source = RecordingSource()
      let monitor = NetworkMonitor(source: source)
      try monitor.start()
      monitor.stop()
      monitor.startMonitoring()
      monitor.stopMonitoring()
      #expect(source.calls.values == ["start 0", "stop 0", "start 0", "stop 0"])
    }

    @Test func subscribersAndTheirEnd() async throws {
      let source = RecordingSource()
      let monitor = NetworkMonitor(source: source)
      let seen = Recorder<NetworkPath>()
      monitor.handlerQueue = .global()
      monitor.pathUpdateHandler = { seen.append($0) }
      monitor.startMonitoring()
      try await seen.waitFor(count: 1, "the first path through the closure")
      let iterated = Recorder<NetworkPath>()
      let task = Task {
        for await path in monitor.paths { iterated.append(path) }
      }
      try await iterated.waitFor(count: 1, "the first path through paths")
      _ = try await monitor.waitForPath()
      task.cancel()
      monitor.stopMonitoring()
      try await source.calls.waitUntil("a stop") { $0.contains { $0.hasPrefix("stop") } }
      #expect(source.calls.values.allSatisfy { $0.hasSuffix(" 0") }, "\(source.calls.values)")
    }

    @Test func followersStartAndStopTheMonitorTheyFollow() async throws {
      let source = RecordingSource()
      let monitor = NetworkMonitor(source: source)
      let settled = monitor.settled(offlineAfter: .seconds(1), onlineAfter: .seconds(1), clock: TestClock())
      try settled.start()
      settled.stop()
      monitor.stop()
      let connectivity = ConnectivityMonitor(monitor: monitor, source: .networkManager)
      connectivity.startMonitoring()
      connectivity.stopMonitoring()
      monitor.stop()
      try await source.calls.waitUntil("two starts and two stops") { $0.count >= 4 }
      #expect(source.calls.values.allSatisfy { $0.hasSuffix(" 0") }, "\(source.calls.values)")
    }

    @Test func aMonitorReleasedWhileRunningStopsItsSourceWithNoLockedHeld() throws {
      let source = RecordingSource()
      do {
        let monitor = NetworkMonitor(source: source)
        // No notification to post: once another suite has used the notification's name (the NetStatus module), the post
        // of the first path runs on the main queue and holds the monitor while it posts; at the end of this scope it
        // could be the last owner, and the stop came after the check below (seen once under ThreadSanitizer).
        monitor.postsNotifications = false
        // Started by a subscription, which goes with the monitor (one started with `start()` runs until `stop()`).
        _ = monitor.addSynchronousSubscriber { _ in }
      }
      #expect(source.calls.values == ["start 0", "stop 0"])
    }
  }
#endif
