import Dispatch

/// Tells whether the internet answers over a ``NetworkMonitor``'s path: full access, a captive portal, a
/// path that goes nowhere, or no path at all (see ``ConnectivityState``).
///
/// A satisfied path only means that a route exists. A connectivity monitor checks that the internet
/// answers by fetching a URL you choose (a ``ConnectivityProbe``), and only when something changed: when
/// monitoring starts, after each path change once it has settled, and again with backoff while the answer
/// is not full. While the answer is full it sends nothing more, unless you ask it to recheck periodically.
/// Nothing is ever sent without a probe: the ``NetworkMonitor`` itself makes no traffic.
///
/// ```swift
/// let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")  // expects 204
/// let connectivity = ConnectivityMonitor(monitor: .shared, probe: probe)
///
/// connectivity.connectivityUpdateHandler = { state in
///     print("internet: \(state)")  // unknown, none (no path), limited, portal (redirect to …), full
/// }
/// try connectivity.start()
///
/// for await state in connectivity.states where state.isFull {
///     await sync()
/// }
/// ```
///
/// It follows the monitor's paths through a subscription of its own, and starts the monitor if needed;
/// stopping it never stops the monitor. While the monitor is stopped (its path not known), the state is
/// ``ConnectivityState/unknown`` and nothing is sent; when the monitor starts again, its path is checked. Each check is
/// made over the path's preferred interface, and from inside the network namespace the monitor watches, if it watches
/// one. A check still in flight when the path changes is cancelled. Each address family the path supports is checked
/// on its own (``ipv4State``, ``ipv6State``); ``state`` is the best of them.
///
/// When the path monitor can no longer deliver (its source failed for good), the connectivity monitor stops too: its
/// state becomes ``ConnectivityState/unknown`` and ``states`` ends. A later ``start()`` begins again.
///
/// ## Transports
/// - **Linux**: a TCP socket bound to the interface by name (`SO_BINDTODEVICE`; when that is not permitted, the
///   kernel's routing chooses, and ``ConnectivityCheck/interface`` is `nil`).
/// - **macOS, iOS, tvOS, visionOS**: Network's `NWConnection`, bound to the interface itself
///   (`NWParameters.requiredInterface`) when the monitor's source is the default one, `NWPathMonitor`, whose paths
///   list Network's own interfaces (a settled monitor's too); with any other source (a scripted one), restricted to the
///   interface's *type* (`NWParameters.requiredInterfaceType`: Wi-Fi, cellular, wired Ethernet, …), and with two
///   interfaces of that type the system chooses. An interface gone since the path was reported makes the check
///   `limited`, "unreachable" over that interface. The same request, limits, deadline and judging as on Linux.
///   NetStatus's CI runs on Linux: there this transport is compiled and run against a stand-in `NWConnection` over
///   real sockets (Tests/NetworkStandIn), facing the same test servers as the Linux one; only a Mac runs it over
///   Apple's Network framework.
/// - **watchOS**: none (Apple's TN3135 allows the Network framework only to some apps): every check is
///   ``ConnectivityState/unknown``, as on any other platform without a transport.
///
/// ## Threads
/// Every property can be read from any thread. ``connectivityUpdateHandler`` runs on ``handlerQueue``
/// (the main queue unless you choose another); ``states`` delivers on the consumer's own executor.
public final class ConnectivityMonitor: Sendable {
  /// The monitor whose paths are checked.
  public let monitor: NetworkMonitor
  /// What to fetch, what to expect, and when to check again; `nil` when the state is NetworkManager's
  /// (``ConnectivitySource/networkManager``: no check of its own). A settled monitor's is the followed one's.
  public var probe: ConnectivityProbe? {
    switch locked.withLockedValue({ $0.mode }) {
    case .probing(let probe, _): probe
    case .networkManager: nil
    case .settled(let settled): settled.upstream.probe
    }
  }

  let transport: any ProbeTransport
  /// Everything that changes, behind the lock.
  let locked: Locked<State>

  struct State {
    var mode: Mode
    var isMonitoring = false
    /// Bumped on every start and stop; events of an older generation are dropped.
    var generation: UInt64 = 0
    var subscription: UInt64?
    var timerTask: Task<Void, Never>?
    var probeTask: Task<Void, Never>?
    var lastCheck: ConnectivityCheck?
    var checksStarted = 0
    var broadcast = Broadcast<ConnectivityState>()
    var queue: DispatchQueue = .main
    var updateHandler: (@Sendable (ConnectivityState) -> Void)?
    /// The connectivity monitor itself, while ``start()`` has started it: it runs until ``stop()`` (or its path
    /// monitor fails), held or not, as a ``NetworkMonitor`` does. Released outside the lock.
    var startedByCall: ConnectivityMonitor?

    /// The current state: the scheduler's, NetworkManager's, or the followed monitor's, settled.
    var current: ConnectivityState {
      switch mode {
      case .probing(_, let scheduler): scheduler.state
      case .networkManager(let follower): follower.published
      case .settled(let settled): settled.published
      }
    }

  }

  /// Creates a connectivity monitor of `monitor`'s paths, checked with `probe`. It does nothing until
  /// started (by ``start()``, or by iterating ``states``).
  ///
  /// - Parameters:
  ///   - monitor: The path monitor to follow; ``NetworkMonitor/shared`` by default. A monitor of a Linux
  ///     network namespace has its checks made from inside that namespace.
  ///   - probe: What to fetch and expect.
  public convenience init(monitor: NetworkMonitor = .shared, probe: ConnectivityProbe) {
    self.init(monitor: monitor, probe: probe, transport: makeDefaultProbeTransport(for: monitor))
  }

  /// Creates a connectivity monitor with its own transport: the seam for tests.
  convenience init(monitor: NetworkMonitor, probe: ConnectivityProbe, transport: any ProbeTransport) {
    self.init(monitor: monitor, mode: .probing(probe, ConnectivityScheduler(probe: probe)), transport: transport)
  }

  /// Creates a connectivity monitor in `mode`, for its whole life.
  init(monitor: NetworkMonitor, mode: Mode, transport: any ProbeTransport) {
    self.monitor = monitor
    self.transport = transport
    self.locked = Locked(State(mode: mode))
  }

  deinit {
    let (subscription, tasks, unsubscribe, session) = locked.withLockedValue { state in
      (
        state.subscription.take(), [state.timerTask.take(), state.probeTask.take()],
        state.networkManager?.unsubscribe.take(), state.settled?.session.take()
      )
    }
    for task in tasks { task?.cancel() }
    unsubscribe?()
    session?.stop()
    if let subscription { monitor.removeSubscriber(subscription) }
  }

  // MARK: Lifecycle

  /// Whether the connectivity monitor is running.
  public var isMonitoring: Bool { locked.withLockedValue { $0.isMonitoring } }

  /// Starts following the monitor's paths (starting the monitor if needed) and checking them. Does nothing
  /// if already running.
  ///
  /// Started here, it runs until ``stop()`` or until its path monitor fails, whether or not you keep a reference to
  /// it (as ``NetworkMonitor/start()``); started only by iterating ``states``, while something holds it.
  ///
  /// - Throws: The error that kept the path monitor from starting (``NetworkMonitor/start()``); the connectivity
  ///   monitor then stays stopped, and iterations of ``states`` waiting for it end.
  public func start() throws(NetworkMonitorError) {
    try start(byCall: true)
  }

  /// Starts checking; `byCall`: by ``start()``, and then it holds itself until stopped (``State/startedByCall``).
  func start(byCall: Bool) throws(NetworkMonitorError) {
    let generation: UInt64? = locked.withLockedValue { state in
      if byCall, state.startedByCall == nil { state.startedByCall = self }
      guard !state.isMonitoring else { return nil }
      state.isMonitoring = true
      state.generation &+= 1
      return state.generation
    }
    guard let generation else { return }
    switch locked.withLockedValue({ $0.mode }) {
    case .probing: break
    case .networkManager: startFollowingNetworkManager(generation: generation)
    case .settled: startFollowingSettled(generation: generation)
    }
    // A relay of its own per start: a path older than one received is dropped, and a path the monitor forgot
    // (stopped) makes the connectivity unknown until it reports one again. Events are handled outside the relay's
    // lock, under this monitor's, where a stale generation is dropped.
    monitor.addRelayedSubscriber(
      delivery: .newerVersions,
      registered: { id in
        locked.withLockedValue { state in
          guard state.generation == generation else { return false }
          state.subscription = id
          return true
        }
      },
      cleared: { [weak self] in self?.handle(.pathForgotten, generation: generation) },
      finished: { [weak self] in self?.pathMonitorEnded(generation: generation) },
      deliver: { [weak self] path in self?.handle(.path(path), generation: generation) })
    // Registering started the path monitor; if it could not start, `pathMonitorEnded` has stopped this one.
    if !monitor.isMonitoring, let error = monitor.lastError, !isMonitoring { throw error }
  }

  /// Takes the reference ``start()`` left, when the monitor is stopped, to release outside the lock.
  private func releaseStartedByCall(_ state: inout State) -> ConnectivityMonitor? {
    state.isMonitoring ? nil : state.startedByCall.take()
  }

  /// The path monitor can no longer deliver (its source failed): stops as ``stop()`` does, then ends the
  /// iterations of ``states``.
  func pathMonitorEnded(generation: UInt64) {
    var released: ConnectivityMonitor?
    defer { _ = released.take() }  // last, outside the lock
    let stopped: (subscription: UInt64?, work: Work, ended: Broadcast<ConnectivityState>.FinishFanout)? =
      locked.withLockedValue { state in
        guard state.isMonitoring, state.generation == generation else { return nil }
        state.isMonitoring = false
        state.generation &+= 1
        released = releaseStartedByCall(&state)
        let work = apply(.stopped, to: &state)
        return (state.subscription.take(), work, state.broadcast.finish())
      }
    guard let stopped else { return }
    if let id = stopped.subscription { monitor.removeSubscriber(id) }
    stopped.work.perform()
    stopped.ended.run()
  }

  /// Stops checking: cancels any check in flight and any timer, and the state becomes
  /// ``ConnectivityState/unknown``. The path monitor keeps running. Does nothing if not running.
  ///
  /// A stop ends no subscription: iterations of ``states`` wait, and resume when monitoring starts again.
  public func stop() {
    var released: ConnectivityMonitor?
    defer { _ = released.take() }  // last, outside the lock
    let stopped: (subscription: UInt64?, work: Work)? = locked.withLockedValue { state in
      guard state.isMonitoring else { return nil }
      state.isMonitoring = false
      state.generation &+= 1
      released = releaseStartedByCall(&state)
      return (state.subscription.take(), apply(.stopped, to: &state))
    }
    guard let stopped else { return }
    if let id = stopped.subscription { monitor.removeSubscriber(id) }
    stopped.work.perform()
  }

  /// Checks now, without waiting for the backoff: for example, after the user has logged in to a captive
  /// portal. Does nothing while there is no satisfied path or the monitor is not running.
  public func recheck() {
    let generation = locked.withLockedValue { $0.isMonitoring ? $0.generation : nil }
    guard let generation else { return }
    handle(.recheckRequested, generation: generation)
  }

  // MARK: State

  /// The current state; ``ConnectivityState/unknown`` until the first check ends (and while stopped).
  ///
  /// ```swift
  /// if case .portal(let login?) = connectivity.state { showLoginHint(login) }
  /// ```
  public var state: ConnectivityState { locked.withLockedValue { $0.current } }

  /// Whether the internet answers: the state is ``ConnectivityState/full``.
  public var hasInternetAccess: Bool { state.isFull }

  /// The latest check, with what it saw; `nil` before the first. A settled monitor
  /// (``settled(offlineAfter:onlineAfter:clock:)``) gives the followed monitor's.
  public var lastCheck: ConnectivityCheck? {
    let (check, followed) = locked.withLockedValue { ($0.lastCheck, $0.settled?.upstream) }
    return followed?.lastCheck ?? check
  }

  /// The number of checks started so far (for diagnostics and tests: it never grows while idle).
  package var checksStarted: Int { locked.withLockedValue { $0.checksStarted } }

  // MARK: Closure

  /// The queue ``connectivityUpdateHandler`` runs on. The main queue unless you set another.
  public var handlerQueue: DispatchQueue {
    get { locked.withLockedValue { $0.queue } }
    set { locked.withLockedValue { $0.queue = newValue } }
  }

  /// Called on ``handlerQueue`` with every new state, in order.
  ///
  /// ```swift
  /// connectivity.connectivityUpdateHandler = { state in
  ///     if case .portal(let redirect?) = state { print("log in at \(redirect)") }
  /// }
  /// ```
  public var connectivityUpdateHandler: (@Sendable (ConnectivityState) -> Void)? {
    get { locked.withLockedValue { $0.updateHandler } }
    set { locked.withLockedValue { $0.updateHandler = newValue } }
  }

  // MARK: Driving the scheduler

  /// Feeds an event of `generation` (if it is still current) to the scheduler and carries out its actions.
  private func handle(_ event: ConnectivityScheduler.Event, generation: UInt64) {
    let work = locked.withLockedValue { state -> Work in
      guard state.generation == generation else { return Work() }
      return apply(event, to: &state)
    }
    work.perform()
  }

  /// Feeds an event to the scheduler and carries out its actions, under the lock: timers, probes and the
  /// broadcast are decided here; cancellations and deliveries are returned, for after the lock.
  private func apply(_ event: ConnectivityScheduler.Event, to state: inout State) -> Work {
    let probe: ConnectivityProbe
    var scheduler: ConnectivityScheduler
    switch state.mode {
    case .networkManager: return applyNetworkManager(event, to: &state)
    case .settled: return applySettled(event, to: &state)
    case .probing(let own, let current):
      probe = own
      scheduler = current
    }
    let actions = scheduler.handle(event)
    state.mode = .probing(probe, scheduler)
    var work = Work()
    let generation = state.generation
    for action in actions {
      switch action {
      case .cancelTimer:
        if let task = state.timerTask.take() { work.cancel.append(task) }
      case .cancelProbe:
        if let task = state.probeTask.take() { work.cancel.append(task) }
      case .startTimer(let id, let delay, _):
        if let task = state.timerTask.take() { work.cancel.append(task) }
        state.timerTask = Task { [weak self] in
          do { try await Task.sleep(for: delay) } catch { return }
          self?.handle(.timerFired(id), generation: generation)
        }
      case .startProbe(let id, let path):
        if let task = state.probeTask.take() { work.cancel.append(task) }
        state.checksStarted += 1
        let transport = transport
        let interface = path.availableInterfaces.first
        let (monitor, index) = (monitor, interface?.index)
        state.probeTask = Task { [weak self] in
          let checked = await Self.check(over: path, interface: interface, probe: probe, transport: transport)
          guard !Task.isCancelled else { return }
          // A portal's address: the one its network advertised, if any (AdvertisedCaptivePortal.swift).
          let check = AdvertisedCaptivePortal.apply(
            AdvertisedCaptivePortal.url(of: monitor, interfaceIndex: index), to: checked)
          self?.handle(.probeFinished(id, check), generation: generation)
        }
      case .record(let check):
        state.lastCheck = check
      case .publish(let newState):
        work = work.merged(with: publish(newState, in: &state))
      }
    }
    return work
  }

  /// Publishes `newState` to the iterators (returned, to run after the lock) and the closure (enqueued under it, so
  /// that the closure sees the states in order).
  func publish(_ newState: ConnectivityState, in state: inout State) -> Work {
    var work = Work()
    work.deliveries.append((newState, state.broadcast.publish(newState)))
    if let handler = state.updateHandler { state.queue.async { handler(newState) } }
    return work
  }

  /// What to do once the lock is released.
  struct Work {
    var cancel: [Task<Void, Never>] = []
    var deliveries: [(ConnectivityState, Broadcast<ConnectivityState>.Fanout)] = []
    /// Run last (a NetworkManager subscription to end).
    var after: [@Sendable () -> Void] = []

    func perform() {
      for task in cancel { task.cancel() }
      for (state, fanout) in deliveries { fanout.run(with: state) }
      for action in after { action() }
    }

    func merged(with other: Work) -> Work {
      Work(
        cancel: cancel + other.cancel, deliveries: deliveries + other.deliveries, after: after + other.after)
    }
  }

  /// Judges an exchange. The detail is for people and quotes what the server sent (a `Location`, a header):
  /// its control characters are escaped.
  static func check(_ exchange: ProbeExchange, probe: ConnectivityProbe) -> ConnectivityCheck {
    let (state, detail) = ConnectivityClassifier.classify(exchange.result, probe: probe)
    var text = detail
    if let problem = exchange.bindingProblem { text += " (not bound to the path's interface: \(problem))" }
    return ConnectivityCheck(
      state: state, detail: text.escapingControlCharacters(), interface: exchange.boundInterface,
      duration: exchange.duration)
  }
}

extension ConnectivityMonitor: BroadcastHost {
  package func withBroadcast<Result: Sendable>(
    _ body: (inout Broadcast<ConnectivityState>, ConnectivityState?) -> Result
  ) -> Result {
    locked.withLockedValue { state in
      let current = state.current
      return body(&state.broadcast, current)
    }
  }

  package func subscriberAdded() {
    try? start(byCall: false)
  }
}
