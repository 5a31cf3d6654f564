import Dispatch
import Foundation
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Observation
import Testing

@testable import NetStatusCore
@testable import NetStatusMonitor

@Suite("NetworkMonitor with a scripted source")
struct NetworkMonitorTests {
  /// A script whose consecutive paths all differ, with connectivity flipping several times.
  static let script: [NetworkPath] = [
    .test(.wifi), .offline, .test(.cellular), .test(.wiredEthernet), NetworkPath(status: .requiresConnection),
    .test(.wifi, index: 7),
  ]

  @Test func lifecycleIsIdempotentAndRestartable() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    #expect(!monitor.isMonitoring)
    #expect(monitor.currentPath == nil)
    #expect(!monitor.isConnected)

    monitor.startMonitoring()
    monitor.startMonitoring()
    #expect(monitor.isMonitoring)
    #expect(source.startCount == 1)
    #expect(source.activeSessionCount == 1)
    #expect(monitor.currentPath == .test(.wifi))
    #expect(monitor.isConnected)
    #expect(monitor.interfaceType == .wifi)
    #expect(monitor.currentConnectionType == .wifi)
    #expect(monitor.availableInterfaceTypes == [.wifi])

    monitor.stopMonitoring()
    monitor.stopMonitoring()
    #expect(!monitor.isMonitoring)
    #expect(source.activeSessionCount == 0)
    #expect(monitor.currentPath == nil, "a stopped monitor does not claim to know the path")

    source.send(.test(.cellular))
    #expect(monitor.currentPath == nil, "a stopped monitor receives nothing")

    monitor.startMonitoring()
    #expect(source.startCount == 2)
    #expect(monitor.currentPath == .test(.cellular))
    #expect(monitor.isExpensive)
    source.send(.offline)
    #expect(monitor.currentPath == .offline)
    monitor.stopMonitoring()
  }

  @Test func everyAPIStyleSeesEveryChangeExactlyOnceInOrder() async throws {
    let source = ScriptedPathSource(Self.script)
    let monitor = NetworkMonitor(source: source)
    let queue = DispatchQueue(label: "handlers")
    monitor.handlerQueue = queue

    let handled = Recorder<NetworkPath>()
    let changes = Recorder<Void>()
    let starts = Recorder<Void>()
    let stops = Recorder<Void>()
    monitor.pathUpdateHandler = { path in
      dispatchPrecondition(condition: .onQueue(queue))
      handled.append(path)
    }
    monitor.netStatusChangeHandler = { changes.append(()) }
    monitor.didStartMonitoringHandler = { starts.append(()) }
    monitor.didStopMonitoringHandler = { stops.append(()) }

    let notified = Recorder<NetworkPath>()
    let observer = NotificationCenter.default.addObserver(
      forName: .connectivityStatus, object: monitor, queue: nil
    ) { note in
      dispatchPrecondition(condition: .onQueue(.main))  // posted where UI code can use it
      if let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath { notified.append(path) }
    }
    defer { NotificationCenter.default.removeObserver(observer) }

    monitor.startMonitoring()

    let sequenced = Recorder<NetworkPath>()
    let iteration = Task {
      for await path in monitor.paths { sequenced.append(path) }
    }
    let connectivity = Recorder<Bool>()
    let connectivityTask = Task {
      for await connected in monitor.networkUpdates() { connectivity.append(connected) }
    }
    let model = await NetworkStatusModel(monitor: monitor)
    let observed = Recorder<NetworkPath?>()
    await model.record({ $0.path }, into: observed)

    var expectedBools: [Bool] = []
    for (step, path) in Self.script.enumerated() {
      if step > 0 { #expect(source.advance()) }
      if expectedBools.last != path.isConnected { expectedBools.append(path.isConnected) }
      let count = step + 1
      try await handled.waitFor(count: count, "handled paths")
      try await changes.waitFor(count: count, "netStatusChange calls")
      try await notified.waitFor(count: count, "notifications")
      try await sequenced.waitFor(count: count, "sequence elements")
      try await connectivity.waitFor(count: expectedBools.count, "connectivity booleans")
      if step > 0 { try await observed.waitFor(count: step, "model changes") }
      #expect(await model.path == path)
    }
    try await starts.waitFor(count: 1, "didStart")

    #expect(handled.values == Self.script)
    #expect(changes.count == Self.script.count)
    #expect(notified.values == Self.script)
    #expect(sequenced.values == Self.script)
    #expect(connectivity.values == expectedBools)
    #expect(observed.values == Array(Self.script.dropFirst()))
    #expect(starts.count == 1)

    // Sending the same path again is not a change.
    source.send(Self.script.last!)
    monitor.stopMonitoring()
    try await stops.waitFor(count: 1, "didStop")
    #expect(handled.values == Self.script)

    iteration.cancel()
    connectivityTask.cancel()
    await iteration.value
    await connectivityTask.value
  }

  /// Waits until the main queue has run everything queued on it before this call.
  @MainActor
  private func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
  }

  /// A process whose main queue never runs must still free a dropped monitor: the block that will post its
  /// notification must not hold it. The test holds the main actor (the main queue) from start to check, so
  /// the block is still waiting when the monitor is dropped. (Started by a subscription: one started with `start()`
  /// runs until `stop()`, MonitorLifetimeTests.)
  @Test @MainActor func aDroppedMonitorIsFreedWhileItsNotificationWaitsForTheMainQueue() async {
    _ = Notification.Name.connectivityStatus  // monitors post from the name's first use on
    let source = ScriptedPathSource(.test(.wifi))
    weak var dropped: NetworkMonitor?
    do {
      let monitor = NetworkMonitor(source: source)
      _ = monitor.addSynchronousSubscriber { _ in }
      source.send(.offline)
      dropped = monitor
    }
    #expect(dropped == nil, "nothing the published paths left on the main queue keeps the monitor alive")
    #expect(source.activeSessionCount == 0, "the dropped monitor stopped its session")
    await mainQueueTurn()  // the waiting block runs, finds no monitor and posts nothing
  }

  @Test @MainActor func notificationsCanBeTurnedOffAndWaitInOrderForTheMainQueue() async {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    #expect(monitor.postsNotifications, "on by default, as the tutorials expect")
    let notified = Recorder<NetworkPath>()
    let observer = NotificationCenter.default.addObserver(
      forName: .connectivityStatus, object: monitor, queue: nil
    ) { note in
      if let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath { notified.append(path) }
    }
    defer { NotificationCenter.default.removeObserver(observer) }

    monitor.postsNotifications = false
    monitor.startMonitoring()
    source.send(.offline)
    await mainQueueTurn()
    #expect(notified.values.isEmpty, "turned off, nothing is posted")

    monitor.postsNotifications = true
    source.send(.test(.cellular))
    await mainQueueTurn()
    #expect(notified.values == [.test(.cellular)])

    // While the main queue is busy (this test holds it), changes wait in order, the newest 64 at most.
    let burst = (0..<70).map { NetworkPath.test(.wifi, index: 100 + $0) }
    for path in burst { source.send(path) }
    await mainQueueTurn()
    let expected = [.test(.cellular)] + burst.suffix(NetworkMonitor.maximumPendingNotifications)
    #expect(notified.count == expected.count)
    #expect(notified.values == expected)
    monitor.stopMonitoring()
  }

  /// The tutorials' flow: the handler keeps the app's state on the main queue and the screen observes the
  /// notification; for each change the handler runs first, so the screen reads state that has the change.
  @Test @MainActor func theHandlerRunsBeforeTheNotificationOfTheSameChange() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    let events = Recorder<String>()
    monitor.pathUpdateHandler = { path in events.append("handler \(path.isConnected)") }
    let observer = NotificationCenter.default.addObserver(
      forName: .connectivityStatus, object: monitor, queue: .main
    ) { note in
      let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath
      events.append("notified \(path?.isConnected == true)")
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    monitor.startMonitoring()
    try await events.waitFor(count: 2, "the first path's handler and notification")
    // One change at a time, as a network changes: each change's handler, then its notification.
    for (step, path) in [NetworkPath.offline, .test(.cellular)].enumerated() {
      source.send(path)
      try await events.waitFor(count: 4 + 2 * step, "the handler and the notification of \(path)")
    }
    #expect(
      events.values == [
        "handler true", "notified true", "handler false", "notified false", "handler true", "notified true",
      ])
    monitor.stopMonitoring()
  }

  /// The poster is an ordinary subscriber of each monitor: one subscription while the monitor posts, none once it
  /// does not, and it starts nothing (a monitor nobody started reports nothing, as with no poster).
  @Test func thePosterSubscribesWithoutStartingTheMonitor() {
    _ = Notification.Name.connectivityStatus  // monitors post from the name's first use on
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    #expect(monitor.subscriberCount == 1, "the poster's subscription")
    #expect(!monitor.isMonitoring)
    #expect(source.activeSessionCount == 0, "subscribing started no session")
    monitor.postsNotifications = false
    #expect(monitor.subscriberCount == 0, "turned off, the poster unsubscribed")
    monitor.postsNotifications = true
    #expect(monitor.subscriberCount == 1)
    #expect(source.activeSessionCount == 0)
  }

  @Test func lateSubscriberGetsTheCurrentPathFirst() async throws {
    let source = ScriptedPathSource(Self.script)
    let monitor = NetworkMonitor(source: source)
    monitor.startMonitoring()
    source.advance()
    source.advance()
    var iterator = monitor.paths.makeAsyncIterator()
    let first = try await withTimeout(.seconds(30), "the first path") { [iterator] in
      var iterator = iterator
      return await iterator.next()
    }
    #expect(first == Self.script[2])
    source.advance()
    #expect(await iterator.next() == Self.script[3])
    monitor.stopMonitoring()
  }

  @Test func slowConsumerSkipsToTheNewestPathWithoutDuplicates() async throws {
    let source = ScriptedPathSource(Self.script)
    let monitor = NetworkMonitor(source: source)
    var iterator = monitor.paths.makeAsyncIterator()  // its first next() starts the monitor
    #expect(await iterator.next() == Self.script[0])
    while source.advance() {}
    #expect(await iterator.next() == Self.script.last, "only the newest path is kept for a slow consumer")
    source.send(Self.script[0])
    source.send(Self.script.last!)
    // The consumer already has the last path: the A→B→A round trip it missed is not a change for it.
    source.send(.offline)
    #expect(await iterator.next() == .offline)
    monitor.stopMonitoring()
  }

  /// A task cancelled before its loop begins must not start a stopped monitor, which would then run for no
  /// subscriber; a loop that consumes does start it.
  @Test func aCancelledTasksIterationNeverStartsTheMonitor() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    monitor.startMonitoring()
    monitor.stopMonitoring()
    #expect(source.startCount == 1)

    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var received = 0
      for await _ in monitor.paths { received += 1 }
      return received
    }
    #expect(await cancelled.value == 0, "a cancelled task's loop ends at once")
    #expect(source.startCount == 1, "its iteration did not start the monitor")
    #expect(!monitor.isMonitoring)
    #expect(monitor.subscriberCount == 0)

    // Making an iterator is not consuming: only its first next() in a live task starts the monitor.
    var iterator: NetworkPathSequence.Iterator? = monitor.paths.makeAsyncIterator()
    #expect(source.startCount == 1)
    iterator = nil
    #expect(monitor.subscriberCount == 0)
    _ = iterator

    let consumer = Task { () -> NetworkPath? in
      for await path in monitor.paths { return path }
      return nil
    }
    #expect(await consumer.value == .test(.wifi))
    #expect(source.startCount == 2, "a subscriber that consumes starts the monitor")
    #expect(monitor.isMonitoring)
    monitor.stopMonitoring()
  }

  @Test func thousandConcurrentSubscribersAllSeeTheFinalPath() async throws {
    let source = ScriptedPathSource(Self.script)
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    monitor.startMonitoring()
    let final = NetworkPath.test(.wiredEthernet, index: 99)
    let subscribed = Recorder<Void>()
    let finished = Recorder<Void>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<1_000 {
        group.addTask {
          var sawFirst = false
          for await path in monitor.paths {
            if !sawFirst {
              sawFirst = true
              subscribed.append(())
            }
            if path == final {
              finished.append(())
              return
            }
          }
          Issue.record("a subscriber ended without the final path")
        }
      }
      try await subscribed.waitFor(count: 1_000, timeout: .seconds(30), "subscribers")
      while source.advance() {}
      source.send(final)
      try await finished.waitFor(count: 1_000, timeout: .seconds(30), "subscribers to see the final path")
      try await group.waitForAll()
    }
    #expect(monitor.subscriberCount == 0, "finished iterations unsubscribe")
    monitor.stopMonitoring()
  }

  @Test func cancelledSubscriberLeavesTheOthersRunning() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let keep = Recorder<NetworkPath>()
    let cancelled = Recorder<NetworkPath>()
    let keeper = Task { for await path in monitor.paths { keep.append(path) } }
    let quitter = Task { for await path in monitor.paths { cancelled.append(path) } }
    try await keep.waitFor(count: 1)
    try await cancelled.waitFor(count: 1)
    #expect(monitor.subscriberCount == 2)

    quitter.cancel()
    await quitter.value
    #expect(monitor.isMonitoring, "a subscriber that ends never stops the monitor")
    #expect(monitor.subscriberCount == 1)

    source.send(.offline)
    source.send(.test(.cellular))
    try await keep.waitFor(count: 3)
    #expect(keep.values.last == .test(.cellular))
    #expect(cancelled.values == [.test(.wifi)])

    // A networkUpdates() stream that ends does not stop anything either.
    let stream = Task { for await _ in monitor.networkUpdates() { break } }
    await stream.value
    #expect(monitor.isMonitoring)

    keeper.cancel()
    await keeper.value
    #expect(monitor.subscriberCount == 0)
    monitor.stopMonitoring()
  }

  @Test func thousandStopStartCyclesLeakNoSubscriberNorSession() async throws {
    let source = ScriptedPathSource(Self.script, interval: .seconds(3600))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let seen = Recorder<NetworkPath>()
    let consumer = Task { for await path in monitor.paths { seen.append(path) } }
    try await seen.waitFor(count: 1)
    for _ in 0..<1_000 {
      monitor.stopMonitoring()
      #expect(source.activeSessionCount == 0)
      monitor.startMonitoring()
      #expect(source.activeSessionCount == 1)
    }
    #expect(source.startCount == 1_001)
    #expect(monitor.subscriberCount == 1)
    source.send(.offline)
    try await seen.waitFor(count: 2, "the change after 1,000 cycles")
    #expect(seen.values.last == .offline)
    consumer.cancel()
    await consumer.value
    monitor.stopMonitoring()
    #expect(monitor.subscriberCount == 0)
    #expect(source.activeSessionCount == 0)
  }

  @Test func requiredInterfaceTypeFiltersPaths() {
    let both = NetworkPath(
      status: .satisfied,
      availableInterfaces: [
        NetworkInterface(name: "wlan0", index: 3, type: .wifi),
        NetworkInterface(name: "wwan0", index: 4, type: .cellular),
      ], supportsIPv4: true)
    let source = ScriptedPathSource(both)
    let wifiOnly = NetworkMonitor(source: source, requiredInterfaceType: .wifi)
    let wiredOnly = NetworkMonitor(source: source, requiredInterfaceType: .wiredEthernet)
    #expect(wifiOnly.requiredInterfaceType == .wifi)
    wifiOnly.startMonitoring()
    wiredOnly.startMonitoring()
    #expect(wifiOnly.currentPath?.availableInterfaces.map(\.name) == ["wlan0"])
    #expect(wifiOnly.isConnected)
    #expect(!wiredOnly.isConnected)
    #expect(wiredOnly.currentPath?.unsatisfiedReason == .notAvailable)
    source.send(.test(.wiredEthernet))
    #expect(!wifiOnly.isConnected)
    #expect(wiredOnly.isConnected)
    wifiOnly.stopMonitoring()
    wiredOnly.stopMonitoring()
  }

  @Test func prohibitedInterfaceTypesFilterPaths() {
    let source = ScriptedPathSource(.test(.cellular))
    let noCellular = NetworkMonitor(source: source, prohibitedInterfaceTypes: [.cellular])
    #expect(noCellular.prohibitedInterfaceTypes == [.cellular])
    noCellular.startMonitoring()
    #expect(!noCellular.isConnected)
    #expect(!noCellular.isExpensive)
    source.send(.test(.wifi))
    #expect(noCellular.isConnected)
    noCellular.stopMonitoring()
  }

  @Test func waitForPathReturnsTheFirstRealPath() async throws {
    let source = ScriptedPathSource()
    let monitor = NetworkMonitor(source: source)
    // Far longer than a test process stalls under a loaded sanitizer run: the path comes when the test sends it.
    let waiter = Task { try await monitor.waitForPath(timeout: .seconds(120)) }
    try await withTimeout(.seconds(30), "the monitor to start") {
      // The waiter starts the monitor; the source has no path yet.
      while source.activeSessionCount == 0 {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    #expect(monitor.currentPath == nil)
    source.send(.test(.wifi))
    #expect(try await waiter.value == .test(.wifi))
    #expect(try await monitor.waitForPath(timeout: .zero) == .test(.wifi), "a known path returns at once")
    monitor.stopMonitoring()
  }

  @Test func waitForPathTimesOut() async throws {
    let monitor = NetworkMonitor(source: ScriptedPathSource())
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    await #expect(throws: NetworkMonitorError.timedOut(.milliseconds(50))) {
      try await monitor.waitForPath(timeout: .milliseconds(50))
    }
    #expect(monitor.subscriberCount == 0)
    monitor.stopMonitoring()
  }

  @Test func startFailureIsReportedAndTyped() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    source.startError = .namespaceNotFound(path: "/run/netns/nope")
    let monitor = NetworkMonitor(source: source)
    let errors = Recorder<NetworkMonitorError>()
    monitor.handlerQueue = DispatchQueue(label: "errors")
    monitor.errorHandler = { errors.append($0) }
    #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/nope")) { try monitor.start() }
    #expect(!monitor.isMonitoring)
    monitor.startMonitoring()
    #expect(monitor.lastError == .namespaceNotFound(path: "/run/netns/nope"))
    try await errors.waitFor(count: 2)
    #expect(String(describing: errors.values[0]).contains("ip netns list"), "errors say what to do")
    await #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/nope")) {
      try await monitor.waitForPath(timeout: .seconds(1))
    }

    source.startError = nil
    try monitor.start()
    #expect(monitor.lastError == nil)
    #expect(monitor.isConnected)
    monitor.stopMonitoring()
  }

  @Test func sourceFailureMakesThePathUnsatisfiedAndStops() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    let errors = Recorder<NetworkMonitorError>()
    let stops = Recorder<Void>()
    monitor.handlerQueue = DispatchQueue(label: "errors")
    monitor.errorHandler = { errors.append($0) }
    monitor.didStopMonitoringHandler = { stops.append(()) }
    let seen = Recorder<NetworkPath>()
    let consumer = Task { for await path in monitor.paths { seen.append(path) } }
    try await seen.waitFor(count: 1)

    source.fail(.namespaceDeleted(path: "/run/netns/gone"))
    try await seen.waitFor(count: 2, "the unsatisfied path")
    #expect(seen.values.last == .offline)
    try await errors.waitFor(count: 1)
    try await stops.waitFor(count: 1)
    #expect(errors.values == [.namespaceDeleted(path: "/run/netns/gone")])
    #expect(monitor.lastError == .namespaceDeleted(path: "/run/netns/gone"))
    #expect(!monitor.isMonitoring)
    #expect(monitor.currentPath == .offline)
    try await withTimeout(.seconds(30), "the failed session to be stopped") {
      while source.activeSessionCount > 0 {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }

    monitor.startMonitoring()
    #expect(monitor.isConnected, "the monitor restarts after a failure")
    consumer.cancel()
    await consumer.value
    monitor.stopMonitoring()
  }

  /// A sequence ends when its monitor can no longer deliver: after the source fails, `paths` hands over the last,
  /// unsatisfied path and then ends, and so does `networkUpdates()`; an iteration made later starts the monitor
  /// again and follows it.
  @Test func aFailedSourceEndsEverySequenceAndANewIterationStartsAgain() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    let seen = Recorder<NetworkPath>()
    let connectivity = Recorder<Bool>()
    let paths = Task { for await path in monitor.paths { seen.append(path) } }
    let booleans = Task { for await connected in monitor.networkUpdates() { connectivity.append(connected) } }
    // A third iteration that has already taken the current path and is parked in `next()` when the failure comes.
    var parked = monitor.paths.makeAsyncIterator()
    #expect(await parked.next() == .test(.wifi))
    try await seen.waitFor(count: 1)
    try await connectivity.waitFor(count: 1)

    source.fail(.namespaceDeleted(path: "/run/netns/gone"))
    try await withTimeout(.seconds(30), "the paths loop to end after the failure") { await paths.value }
    try await withTimeout(.seconds(30), "the networkUpdates loop to end after the failure") { await booleans.value }
    #expect(seen.values == [.test(.wifi), .offline], "the last path first, then the end")
    #expect(connectivity.values == [true, false])
    #expect(await parked.next() == .offline)
    #expect(await parked.next() == nil, "ended")
    #expect(await parked.next() == nil, "and stays ended, even once the monitor runs again")
    #expect(!monitor.isMonitoring)
    #expect(monitor.lastError == .namespaceDeleted(path: "/run/netns/gone"))

    // A new iteration starts the monitor again: the end was the old subscriptions', not the monitor's for good.
    var fresh = monitor.paths.makeAsyncIterator()
    #expect(await fresh.next() == .test(.wifi))
    #expect(monitor.isMonitoring)
    source.send(.test(.cellular))
    #expect(await fresh.next() == .test(.cellular))
    monitor.stop()
  }

  /// A monitor that cannot start can deliver nothing: the iteration that tried to start it ends, and
  /// `networkUpdates()` too, rather than wait for ever.
  @Test func aMonitorThatCannotStartEndsItsSequences() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    source.startError = .namespaceNotFound(path: "/run/netns/nope")
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    try await withTimeout(.seconds(30), "the paths loop to end") {
      for await path in monitor.paths { Issue.record("no path expected, got \(path)") }
    }
    try await withTimeout(.seconds(30), "the networkUpdates loop to end") {
      for await connected in monitor.networkUpdates() { Issue.record("no value expected, got \(connected)") }
    }
    #expect(monitor.lastError == .namespaceNotFound(path: "/run/netns/nope"))
    #expect(monitor.subscriberCount == 0, "the ended subscriptions are gone")
  }

  /// A stop is not an end: an iteration waits through it and resumes when the monitor starts again.
  @Test func aStopEndsNoSequence() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    monitor.postsNotifications = false
    var iterator = monitor.paths.makeAsyncIterator()
    #expect(await iterator.next() == .test(.wifi))
    monitor.stop()
    source.send(.test(.cellular))
    try monitor.start()
    #expect(await iterator.next() == .test(.cellular))
    monitor.stop()
  }

  /// The monitor stops a failed source's session on a global queue (the failure comes from the session's own
  /// thread). A `stopMonitoring()` that comes first, meanwhile or after must return only once that session is
  /// stopped: `netstatus watch` exits right after, and an unjoined session thread is a leak.
  @Test func stopAfterAFailureReturnsOnceTheFailedSessionIsStopped() throws {
    let source = ScriptedPathSource(.test(.wifi))
    // Many rounds: the global queue's stop may run before, during or after stopMonitoring.
    for round in 0..<200 {
      let monitor = NetworkMonitor(source: source)
      monitor.postsNotifications = false
      try monitor.start()
      source.fail(.sourceFailed("round \(round)"))
      monitor.stopMonitoring()
      #expect(source.activeSessionCount == 0, "round \(round): the failed session is still running")
    }
  }

  @Test @MainActor func observationModelFollowsTheMonitor() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: source)
    let model = NetworkStatusModel(monitor: monitor)
    // The model starts the monitor off the main actor (AsyncStartTests): the path comes once the start knows it.
    try await withTimeout(.seconds(30), "the model to know the path") { @MainActor in
      while !model.isKnown {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    #expect(monitor.isMonitoring, "the model starts the monitor")
    #expect(model.isConnected)
    #expect(model.interfaceType == .wifi)
    // A model of a monitor that runs already has its path at once.
    #expect(NetworkStatusModel(monitor: monitor).interfaceType == .wifi)

    let changed = Recorder<Void>()
    withObservationTracking {
      _ = model.path
    } onChange: {
      changed.append(())
    }
    source.send(.test(.cellular))
    try await changed.waitFor(count: 1, "an Observation change")
    try await withTimeout(.seconds(30), "the model to apply the change") { @MainActor in
      while model.path != .test(.cellular) {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    #expect(model.isExpensive)
    #expect(model.availableInterfaceTypes == [.cellular])
    monitor.stopMonitoring()
  }

  @Test func monitorConformsToTheInjectionProtocol() async throws {
    let source = ScriptedPathSource(.test(.wifi))
    let provider: any NetworkStatusProviding = NetworkMonitor(source: source)
    var updates = provider.networkUpdates().makeAsyncIterator()
    #expect(await updates.next() == true)
    #expect(provider.execute())
    source.send(.offline)
    #expect(await updates.next() == false)
    #expect(!provider.isConnected)
  }

  @Test func scriptedSourceReplaysOnItsOwn() async throws {
    let source = ScriptedPathSource(Self.script, interval: .milliseconds(1))
    let monitor = NetworkMonitor(source: source)
    try await withTimeout(.seconds(30), "the replay to reach the last path") {
      for await path in monitor.paths where path == Self.script.last { return }
    }
    monitor.stopMonitoring()
    #expect(source.activeSessionCount == 0)
  }
}
