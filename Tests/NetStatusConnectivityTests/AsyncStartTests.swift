import Dispatch
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

/// Async callers start a monitor off their executor: a start that blocks (a netlink dump, lookups, a namespace's
/// thread, NetworkManager's first reads) must not hold the main actor or a thread of the cooperative pool.
@Suite("starting from async code does not block the caller's executor")
struct AsyncStartTests {
  /// A source whose start blocks until the test opens its gate (at most 60 s, so that a failing test ends).
  final class GatedPathSource: PathSource {
    let path: NetworkPath
    private let gate = DispatchSemaphore(value: 0)
    /// Yields once each time a start begins.
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation

    init(_ path: NetworkPath) {
      self.path = path
      (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    struct Session: PathSourceSession {
      func stop() {}
    }

    /// Whether each start ran inside a task: on a thread of one of Swift's executors (the cooperative pool, the
    /// main actor's thread), which a blocking start would hold.
    let startsInTask = Locked<[Bool]>([])
    /// How many starts have returned.
    let startsEnded = Locked(0)

    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let inTask = withUnsafeCurrentTask { $0 != nil }
      startsInTask.withLockedValue { $0.append(inTask) }
      enteredContinuation.yield()
      _ = gate.wait(timeout: .now() + 60)
      startsEnded.withLockedValue { $0 += 1 }
      sink.send(path)
      return Session()
    }

    /// Lets the start that waits (and any later one) go on.
    func open() {
      for _ in 0..<4 { gate.signal() }
    }

    /// Waits (up to 10 s) until a start has begun.
    func awaitStart() async -> Bool {
      let entered = entered
      return await withDeadline(.seconds(10)) { () async -> Bool? in
        var iterator = entered.makeAsyncIterator()
        return await iterator.next() != nil ? true : nil
      } ?? false
    }
  }

  /// The start runs outside any task (so on no executor's thread), and the path arrives once it ends.
  @Test("the first next() of paths and waitForPath start off the caller's executor", arguments: [false, true])
  func startDoesNotHoldTheCaller(waitForPath: Bool) async throws {
    let path = NetworkPath.test(.wifi)
    let source = GatedPathSource(path)
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    defer { monitor.stopMonitoring() }
    let waiting = Task { @MainActor () async throws -> NetworkPath? in
      if waitForPath { return try await monitor.waitForPath(timeout: .seconds(30)) }
      var iterator = monitor.paths.makeAsyncIterator()
      return await iterator.next()
    }
    defer { source.open() }  // a failing test must not leave the start waiting
    #expect(await source.awaitStart(), "the monitor started")
    #expect(source.startsInTask.withLockedValue { $0 } == [false], "the start ran on a thread of Swift's executors")
    source.open()
    #expect(try await waiting.value == path)
  }

  /// A NetworkStatusModel (on the main actor) starts its monitor off it: created while the start blocks, its path
  /// comes once the start ends.
  @Test @MainActor func aModelStartsItsMonitorOffTheMainActor() async throws {
    let path = NetworkPath.test(.wifi)
    let source = GatedPathSource(path)
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    defer { monitor.stopMonitoring() }
    defer { source.open() }  // a failing test must not leave the start waiting
    let model = NetworkStatusModel(monitor: monitor)
    #expect(!model.isKnown)
    #expect(await source.awaitStart(), "the model started the monitor")
    #expect(source.startsInTask.withLockedValue { $0 } == [false], "the start ran on a thread of Swift's executors")
    #expect(!model.isKnown, "the start still blocks")
    source.open()
    try await withTimeout(.seconds(30), "the model to know the path") { @MainActor in
      while model.path != path {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
  }

  /// The start a model runs later starts nothing once its subscription is gone (the model was released first).
  @Test func aLaterStartOfARemovedSubscriptionStartsNothing() {
    let monitor = NetworkMonitor(source: ScriptedPathSource(.test(.wifi)))
    monitor.postsNotifications = false
    defer { monitor.stopMonitoring() }
    let removed = monitor.addRelayedSubscriberStartedLater { _ in }
    monitor.removeSubscriber(removed.id)
    removed.start()
    #expect(!monitor.isMonitoring)
    let kept = monitor.addRelayedSubscriberStartedLater { _ in }
    #expect(!monitor.isMonitoring, "not started at registration")
    kept.start()
    #expect(monitor.isMonitoring)
    monitor.removeSubscriber(kept.id)
  }

  /// A deadline counts the start: waitForPath times out while the start still blocks.
  @Test func waitForPathTimesOutDuringAStartThatBlocks() async throws {
    let source = GatedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    defer { monitor.stopMonitoring() }
    defer { source.open() }
    await #expect(throws: NetworkMonitorError.timedOut(.milliseconds(200))) {
      try await monitor.waitForPath(timeout: .milliseconds(200))
    }
    #expect(source.startsEnded.withLockedValue { $0 } == 0, "it returned while the start still blocked")
  }
}
