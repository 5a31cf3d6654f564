import Dispatch

/// Watches the device's network path and tells you the moment it changes.
///
/// Share ``shared`` or create and inject your own. Read the state from any thread; observe changes with
/// closures, `NotificationCenter`, an async sequence, or the Observation model ``NetworkStatusModel``.
///
/// ```swift
/// let monitor = NetworkMonitor.shared
/// monitor.pathUpdateHandler = { path in
///     print("now \(path.isConnected ? "online" : "offline") via \(path.interfaceType?.description ?? "nothing")")
/// }
/// try monitor.start()
///
/// for await path in monitor.paths {
///     print(path)
/// }
/// ```
///
/// ## State
/// ``currentPath`` is `nil` until the source has reported: "not known yet" is not "offline". On Linux the
/// first path is known when ``start()`` returns; on Apple platforms it arrives shortly after, and
/// ``waitForPath(timeout:)`` awaits it. Stopping forgets the path.
///
/// ## Threads
/// Every property can be read from any thread. The closures run on ``handlerQueue`` (the main queue unless
/// you choose another); the NetStatus module posts notifications on the main queue; async sequences
/// deliver on the consumer's own executor.
public final class NetworkMonitor: Sendable {
  /// The monitor most apps share. It uses the platform's default source and no interface filter.
  public static let shared = NetworkMonitor()

  /// The only interface type the monitor's paths may use, or `nil` for any.
  public var requiredInterfaceType: InterfaceType? { filter.requiredInterfaceType }
  /// The interface types the monitor's paths may not use.
  public var prohibitedInterfaceTypes: Set<InterfaceType> { filter.prohibitedInterfaceTypes }

  let filter: InterfaceFilter
  /// The filter applied to the source's paths: ``filter``, or `nil` when it lets everything through or the system
  /// applies it (``PathSource/appliesInterfaceFilter``: `NWPathMonitor`'s own judgement is not derived again from interface
  /// types). `nil` rather than ``InterfaceFilter/unrestricted``, so that a change costs no filter comparison and
  /// no copy of its path.
  let appliedFilter: InterfaceFilter?
  package let source: any PathSource
  /// Serialises start and stop, which call into the source (and so into Network on Apple platforms): a
  /// ``CallOutLock``, not a ``Locked``. Never taken while `state` is held.
  let lifecycle = CallOutLock()
  let state: Locked<State>

  struct Handlers: Sendable {
    var queue: DispatchQueue = .main
    var pathUpdate: (@Sendable (NetworkPath) -> Void)?
    var netStatusChange: (@Sendable () -> Void)?
    var didStart: (@Sendable () -> Void)?
    var didStop: (@Sendable () -> Void)?
    var error: (@Sendable (NetworkMonitorError) -> Void)?
  }

  struct State {
    var isMonitoring = false
    var session: (any PathSourceSession)?
    /// The session whose source failed, until it is stopped: on a global queue, or by ``stop()`` if
    /// that comes first (see ``stopFailedSession()``).
    var failedSession: (any PathSourceSession)?
    /// Bumped on every start and stop; a sink only counts while its generation is current.
    var generation: UInt64 = 0
    var currentPath: NetworkPath?
    var lastError: NetworkMonitorError?
    var handlers = Handlers()
    var broadcast = Broadcast<NetworkPath>()
    /// What modules above keep for this monitor (``NetworkMonitorCompanion``), by type.
    var companions: [ObjectIdentifier: any NetworkMonitorCompanion] = [:]
    /// The monitor itself, while ``start()`` has started it: a started monitor runs until ``stop()`` (or its
    /// source fails), whether or not anyone else holds it, as `NWPathMonitor` runs until `cancel()`. Released
    /// outside the lock, never inside it: the last reference would run `deinit` there.
    var startedByCall: NetworkMonitor?
  }

  // MARK: Creation

  /// Creates a monitor of every interface type, fed by the platform's source (rtnetlink on Linux,
  /// `NWPathMonitor` on Apple platforms).
  public convenience init() {
    self.init(source: makeDefaultPathSource())
  }

  /// Creates a monitor whose paths use only interfaces of the given type, like
  /// `NWPathMonitor(requiredInterfaceType:)`.
  public convenience init(requiredInterfaceType: InterfaceType) {
    self.init(source: makeDefaultPathSource(), requiredInterfaceType: requiredInterfaceType)
  }

  /// Creates a monitor whose paths never use interfaces of the given types, like
  /// `NWPathMonitor(prohibitedInterfaceTypes:)`.
  public convenience init(prohibitedInterfaceTypes: [InterfaceType]) {
    self.init(source: makeDefaultPathSource(), prohibitedInterfaceTypes: prohibitedInterfaceTypes)
  }

  /// Creates a monitor fed by the given source: the seam for tests and previews.
  ///
  /// `ScriptedPathSource`, a source driven by hand, is in the NetStatusTesting library (`import NetStatusTesting`).
  ///
  /// ```swift
  /// let script = ScriptedPathSource(.connected(via: .wifi))
  /// let monitor = NetworkMonitor(source: script)
  /// monitor.startMonitoring()
  /// script.send(.offline)
  /// ```
  ///
  /// - Parameters:
  ///   - source: Where paths come from.
  ///   - requiredInterfaceType: The only interface type paths may use, or `nil` for any.
  ///   - prohibitedInterfaceTypes: Interface types paths may not use.
  public init(
    source: any PathSource,
    requiredInterfaceType: InterfaceType? = nil,
    prohibitedInterfaceTypes: [InterfaceType] = []
  ) {
    self.source = source
    self.filter = InterfaceFilter(
      requiredInterfaceType: requiredInterfaceType,
      prohibitedInterfaceTypes: Set(prohibitedInterfaceTypes)
    )
    self.appliedFilter = source.appliesInterfaceFilter || filter == .unrestricted ? nil : filter
    self.state = Locked(State())
    joinLiveMonitors()
  }

  deinit {
    leaveLiveMonitors()
    let session = state.withLockedValue { $0.session.take() }
    session?.stop()
  }

  // MARK: Lifecycle

  /// Whether the monitor is running.
  public var isMonitoring: Bool { state.withLockedValue { $0.isMonitoring } }

  /// Starts monitoring, throwing if the source cannot start. Does nothing if already running.
  ///
  /// A monitor started here runs until ``stop()`` or until its source fails, whether or not you keep a reference to
  /// it, as `NWPathMonitor` runs until `cancel()`: a monitor made in a function, given a handler and started, keeps
  /// calling the handler after the function returns. One started only by a subscription (iterating ``paths``,
  /// ``networkUpdates()``, a ``NetworkStatusModel``, ``waitForPath(timeout:)``) runs while something holds it.
  ///
  /// A failure to start is also kept in ``lastError`` and passed to ``errorHandler``; the monitor stays stopped, and
  /// the subscriptions waiting for it (``paths``, ``networkUpdates()``) end, as when a running source fails.
  ///
  /// ```swift
  /// do { try monitor.start() } catch { print(error) }  // for example: namespace does not exist, and what to do
  /// ```
  public func start() throws(NetworkMonitorError) {
    try start(byCall: true)
  }

  /// Starts monitoring. `byCall`: started by ``start()``, so the monitor holds itself until ``stop()`` (see
  /// ``State/startedByCall``); otherwise by a subscription, and it lives as long as its holders.
  func start(byCall: Bool) throws(NetworkMonitorError) {
    var ended: Broadcast<NetworkPath>.FinishFanout?
    defer { ended?.run() }  // outside the lock: a subscriber told of the end may start or stop the monitor
    try lifecycle.withLock { () throws(NetworkMonitorError) in
      let generation: UInt64? = state.withLockedValue { state in
        guard !state.isMonitoring else {
          // Running already (a subscription started it): the call makes it hold itself from now on.
          if byCall, state.startedByCall == nil { state.startedByCall = self }
          return nil
        }
        state.isMonitoring = true
        state.generation &+= 1
        state.lastError = nil
        return state.generation
      }
      guard let generation else { return }
      let receiver = Receiver(self)
      let sink = PathSink { event in receiver.monitor?.receive(event, generation: generation) }
      let session: any PathSourceSession
      do throws(NetworkMonitorError) {
        session = try source.start(filter: filter, sink: sink)
      } catch {
        let handlers: Handlers
        (handlers, ended) = state.withLockedValue { state in
          var finish: Broadcast<NetworkPath>.FinishFanout?
          if state.generation == generation {
            state.isMonitoring = false
            state.generation &+= 1
            finish = state.broadcast.finish()
          }
          state.lastError = error
          return (state.handlers, finish)
        }
        if let handler = handlers.error { handlers.queue.async { handler(error) } }
        throw error
      }
      let outcome: (started: Bool, handlers: Handlers) = state.withLockedValue { state in
        guard state.isMonitoring, state.generation == generation else { return (false, state.handlers) }
        state.session = session
        if byCall { state.startedByCall = self }
        return (true, state.handlers)
      }
      if outcome.started {
        if let didStart = outcome.handlers.didStart { outcome.handlers.queue.async(execute: didStart) }
      } else {
        // The source failed while starting; the failure has been reported.
        session.stop()
      }
    }
  }

  /// Stops monitoring and releases the source. Does nothing if the monitor is not running.
  ///
  /// ``currentPath`` becomes `nil` (not known), and a ``ConnectivityMonitor`` following this monitor
  /// becomes ``ConnectivityState/unknown``. A stop ends no subscription: iterations of ``paths`` wait, and resume
  /// when the monitor starts again.
  public func stop() {
    // Released last, outside both locks: it may be the last reference (a monitor started and no longer held).
    var released: NetworkMonitor?
    defer { _ = released.take() }
    let forgotten: Broadcast<NetworkPath>.ClearFanout? = lifecycle.withLock {
      // A session that failed may still be stopping: stopped here if it is not yet, and in any case stopped once
      // this returns (its stop holds `lifecycle`), so that a process may exit right after without a thread left
      // unjoined.
      state.withLockedValue { $0.failedSession.take() }?.stop()
      let stopped:
        (session: (any PathSourceSession)?, handlers: Handlers, forgotten: Broadcast<NetworkPath>.ClearFanout)? =
          state.withLockedValue { state in
            guard state.isMonitoring else { return nil }
            state.isMonitoring = false
            state.generation &+= 1
            state.currentPath = nil
            released = state.startedByCall.take()
            return (state.session.take(), state.handlers, state.broadcast.clear())
          }
      guard let stopped else { return nil }
      stopped.session?.stop()
      if let didStop = stopped.handlers.didStop { stopped.handlers.queue.async(execute: didStop) }
      return stopped.forgotten
    }
    // Outside both locks: a subscriber told that the path is forgotten may start or stop things.
    forgotten?.run()
  }

  // MARK: State

  /// The latest path, or `nil` while it is not known (before the source reports, and after a stop).
  public var currentPath: NetworkPath? { state.withLockedValue { $0.currentPath } }

  /// Whether the current path is satisfied. `false` while the path is not known.
  public var isConnected: Bool { currentPath?.isConnected ?? false }

  /// Whether the current path is expensive (cellular, personal hotspot). `false` while not known.
  public var isExpensive: Bool { currentPath?.isExpensive ?? false }

  /// Whether the current path is constrained (Low Data Mode). `false` while not known.
  public var isConstrained: Bool { currentPath?.isConstrained ?? false }

  /// The type of the interface in use, or `nil` when there is none or the path is not known.
  public var interfaceType: InterfaceType? { currentPath?.interfaceType }

  /// The distinct types of the available interfaces, most preferred first; empty while not known.
  public var availableInterfaceTypes: [InterfaceType] { currentPath?.availableInterfaceTypes ?? [] }

  /// The error that last stopped the monitor or kept it from starting; `nil` after a successful start.
  public var lastError: NetworkMonitorError? { state.withLockedValue { $0.lastError } }

  // MARK: Closures

  /// The queue the closures run on. The main queue unless you set another; set it before starting.
  public var handlerQueue: DispatchQueue {
    get { state.withLockedValue { $0.handlers.queue } }
    set { state.withLockedValue { $0.handlers.queue = newValue } }
  }

  /// Called on ``handlerQueue`` with every new path, in order.
  public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
    get { state.withLockedValue { $0.handlers.pathUpdate } }
    set { state.withLockedValue { $0.handlers.pathUpdate = newValue } }
  }

  /// Called on ``handlerQueue`` when monitoring starts.
  public var didStartMonitoringHandler: (@Sendable () -> Void)? {
    get { state.withLockedValue { $0.handlers.didStart } }
    set { state.withLockedValue { $0.handlers.didStart = newValue } }
  }

  /// Called on ``handlerQueue`` when monitoring stops, by ``stop()`` or because the source failed.
  public var didStopMonitoringHandler: (@Sendable () -> Void)? {
    get { state.withLockedValue { $0.handlers.didStop } }
    set { state.withLockedValue { $0.handlers.didStop = newValue } }
  }

  /// Called on ``handlerQueue`` when the monitor cannot start or its source fails (for example, a
  /// watched network namespace is deleted).
  public var errorHandler: (@Sendable (NetworkMonitorError) -> Void)? {
    get { state.withLockedValue { $0.handlers.error } }
    set { state.withLockedValue { $0.handlers.error = newValue } }
  }
}

extension NetworkMonitor: BroadcastHost {
  package func withBroadcast<Result: Sendable>(_ body: (inout Broadcast<NetworkPath>, NetworkPath?) -> Result) -> Result
  {
    state.withLockedValue { state in
      let current = state.currentPath
      return body(&state.broadcast, current)
    }
  }

  package func subscriberAdded() {
    try? start(byCall: false)
  }
}
