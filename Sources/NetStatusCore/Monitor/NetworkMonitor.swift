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
/// monitor.startMonitoring()
///
/// for await path in monitor.paths {
///     print(path)
/// }
/// ```
///
/// ## State
/// ``currentPath`` is `nil` until the source has reported: "not known yet" is not "offline". On Linux the
/// first path is known when ``startMonitoring()`` returns; on Apple platforms it arrives shortly after, and
/// ``waitForPath(timeout:)`` awaits it. Stopping forgets the path.
///
/// ## Threads
/// Every property can be read from any thread. The closures run on ``handlerQueue`` (the main queue unless
/// you choose another); notifications are posted on the main queue (turn them off with
/// ``postsNotifications`` where nothing runs it); async sequences deliver on the consumer's own executor.
public final class NetworkMonitor: Sendable {
  /// The monitor most apps share. It uses the platform's default source and no interface filter.
  public static let shared = NetworkMonitor()

  /// The only interface type the monitor's paths may use, or `nil` for any.
  public var requiredInterfaceType: InterfaceType? { filter.requiredInterfaceType }
  /// The interface types the monitor's paths may not use.
  public var prohibitedInterfaceTypes: Set<InterfaceType> { filter.prohibitedInterfaceTypes }

  let filter: InterfaceFilter
  /// The filter applied to the source's paths: ``filter``, or none when the system applies it
  /// (``SystemFilteredPathSource``: `NWPathMonitor`'s own judgement is not derived again from interface types).
  private let appliedFilter: InterfaceFilter
  let source: any PathSource
  /// Serialises start and stop, which call into the source (and so into Network on Apple platforms): a
  /// ``CallOutLock``, not a ``Locked``. Never taken while `state` is held.
  private let lifecycle = CallOutLock()
  let state: Locked<State>

  struct Handlers {
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
    /// The session whose source failed, until it is stopped: on a global queue, or by ``stopMonitoring()`` if
    /// that comes first (see ``stopFailedSession()``).
    var failedSession: (any PathSourceSession)?
    /// Bumped on every start and stop; a sink only counts while its generation is current.
    var generation: UInt64 = 0
    var currentPath: NetworkPath?
    var lastError: NetworkMonitorError?
    var handlers = Handlers()
    var broadcast = Broadcast<NetworkPath>()
    var notifications = NotificationMailbox()
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
    self.appliedFilter = source is any SystemFilteredPathSource ? .none : filter
    self.state = Locked(State())
  }

  deinit {
    let session = state.withLockedValue { $0.session.take() }
    session?.stop()
  }

  // MARK: Lifecycle

  /// Whether the monitor is running.
  public var isMonitoring: Bool { state.withLockedValue { $0.isMonitoring } }

  /// Starts monitoring. Does nothing if the monitor is already running.
  ///
  /// A failure to start is not thrown: it is kept in ``lastError``, passed to ``errorHandler``, and the
  /// monitor stays stopped. Use ``start()`` to handle it where you call.
  public func startMonitoring() {
    try? start()
  }

  /// Starts monitoring, throwing if the source cannot start. Does nothing if already running.
  ///
  /// ```swift
  /// do { try monitor.start() } catch { print(error) }  // for example: namespace does not exist, and what to do
  /// ```
  public func start() throws(NetworkMonitorError) {
    try lifecycle.withLock { () throws(NetworkMonitorError) in
      let generation: UInt64? = state.withLockedValue { state in
        guard !state.isMonitoring else { return nil }
        state.isMonitoring = true
        state.generation &+= 1
        state.lastError = nil
        return state.generation
      }
      guard let generation else { return }
      let sink = PathSink { [weak self] event in self?.receive(event, generation: generation) }
      let session: any PathSourceSession
      do throws(NetworkMonitorError) {
        session = try source.start(filter: filter, sink: sink)
      } catch {
        let handlers = state.withLockedValue { state in
          if state.generation == generation {
            state.isMonitoring = false
            state.generation &+= 1
          }
          state.lastError = error
          return state.handlers
        }
        if let handler = handlers.error { handlers.queue.async { handler(error) } }
        throw error
      }
      let outcome: (started: Bool, handlers: Handlers) = state.withLockedValue { state in
        guard state.isMonitoring, state.generation == generation else { return (false, state.handlers) }
        state.session = session
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
  /// becomes ``ConnectivityState/unknown``. Subscribers of ``paths`` stay subscribed and resume when the
  /// monitor starts again.
  public func stopMonitoring() {
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

  // MARK: Receiving

  private func receive(_ event: PathSink.Event, generation: UInt64) {
    switch event {
    case .path(let path):
      publish(appliedFilter.apply(to: path), generation: generation, error: nil)
    case .failure(let error):
      publish(NetworkPath.offline, generation: generation, error: error)
    }
  }

  /// What ``publish(_:generation:error:)`` decides under the lock, to act on once it is released. A struct, not a
  /// tuple: an optional tuple of these fields was copied through its runtime metadata on every publish.
  private struct PublishDecision {
    var changed: Bool
    var fanout: Broadcast<NetworkPath>.Fanout
    var handlers: Handlers?
    var stopsFailedSession: Bool
    var schedulesNotification: Bool
  }

  /// Records a path (and an error, if the source failed), then notifies everyone, outside the lock.
  ///
  /// The handlers are copied out of the lock only when some must run: a change with no path closures set (a
  /// command-line tool, a daemon) copies none of them.
  private func publish(_ path: NetworkPath, generation: UInt64, error: NetworkMonitorError?) {
    guard
      let decision = state.withLockedValue({ state -> PublishDecision? in
        guard state.isMonitoring, state.generation == generation else { return nil }
        var stopsFailedSession = false
        if let error {
          state.lastError = error
          state.isMonitoring = false
          state.generation &+= 1
          state.failedSession = state.session.take()
          stopsFailedSession = state.failedSession != nil
        }
        // Compared in place: `currentPath != path` would first copy `path` into an optional.
        if case .some(let current) = state.currentPath, path.isRepeat(of: current) {
          return PublishDecision(
            changed: false, fanout: Broadcast<NetworkPath>.Fanout(), handlers: error == nil ? nil : state.handlers,
            stopsFailedSession: stopsFailedSession, schedulesNotification: false)
        }
        state.currentPath = path
        let needsHandlers =
          error != nil || state.handlers.pathUpdate != nil || state.handlers.netStatusChange != nil
        return PublishDecision(
          changed: true, fanout: state.broadcast.publish(path), handlers: needsHandlers ? state.handlers : nil,
          stopsFailedSession: stopsFailedSession, schedulesNotification: state.notifications.enqueue(path))
      })
    else { return }
    let handlers = decision.handlers
    if decision.changed {
      decision.fanout.run(with: path)
      if let handlers {
        let pathUpdate = handlers.pathUpdate
        let netStatusChange = handlers.netStatusChange
        if pathUpdate != nil || netStatusChange != nil {
          handlers.queue.async {
            pathUpdate?(path)
            netStatusChange?()
          }
        }
      }
      if decision.schedulesNotification { schedulePendingNotifications() }
    }
    if let error, let handlers {
      if let handler = handlers.error { handlers.queue.async { handler(error) } }
      if let didStop = handlers.didStop { handlers.queue.async(execute: didStop) }
    }
    // The failing source calls us from its own thread: stop it from elsewhere so that it can join.
    if decision.stopsFailedSession {
      DispatchQueue.global().async { self.stopFailedSession() }
    }
  }

  /// Stops the session whose source failed, unless ``stopMonitoring()`` has already. Under `lifecycle`, so that a
  /// ``stopMonitoring()`` that comes meanwhile returns only once the session is stopped: `netstatus watch` exits
  /// right after, and a session thread left unjoined at exit is a leak (ThreadSanitizer reports it).
  private func stopFailedSession() {
    lifecycle.withLock {
      state.withLockedValue { $0.failedSession.take() }?.stop()
    }
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

  /// The type of the interface in use: ``interfaceType`` under the tutorials' name (the seed tutorials'
  /// `currentConnectionType`), kept as public API so that code written from them compiles.
  public var currentConnectionType: InterfaceType? { interfaceType }

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

  /// Whether path changes are posted as ``Foundation/NSNotification/Name/connectivityStatus`` on the main
  /// queue. `true` by default, so that an app's observers work as the tutorials show.
  ///
  /// Posting comes with the NetStatus module (`import NetStatus`), from the first use of that notification's name
  /// on; with NetStatusCore alone, nothing is posted.
  ///
  /// Set it to `false` where nothing observes the notification, above all in a process that never runs the
  /// main queue (a server, a daemon, a command-line tool): a change then costs nothing more. Left on there,
  /// a monitor keeps at most one block waiting on the main queue (which does not keep the monitor alive) and
  /// at most ``maximumPendingNotifications`` paths for it. Turning it off drops the changes not posted yet.
  ///
  /// ```swift
  /// let monitor = NetworkMonitor()
  /// monitor.postsNotifications = false   // a daemon: no main run loop, no observers
  /// ```
  public var postsNotifications: Bool {
    get { state.withLockedValue { $0.notifications.isEnabled } }
    set { state.withLockedValue { $0.notifications.isEnabled = newValue } }
  }

  /// Called on ``handlerQueue`` with every new path, in order.
  public var pathUpdateHandler: (@Sendable (NetworkPath) -> Void)? {
    get { state.withLockedValue { $0.handlers.pathUpdate } }
    set { state.withLockedValue { $0.handlers.pathUpdate = newValue } }
  }

  /// Called on ``handlerQueue`` after every change of the path, right after ``pathUpdateHandler``.
  ///
  /// `netStatusChangeHandler` is the tutorials' name (the seed tutorials' spelling), kept as public API so that
  /// code written from them compiles.
  ///
  /// ```swift
  /// monitor.netStatusChangeHandler = { [weak self] in
  ///     MainActor.assumeIsolated { self?.tableView.reloadData() }  // handlerQueue is .main
  /// }
  /// ```
  public var netStatusChangeHandler: (@Sendable () -> Void)? {
    get { state.withLockedValue { $0.handlers.netStatusChange } }
    set { state.withLockedValue { $0.handlers.netStatusChange = newValue } }
  }

  /// Called on ``handlerQueue`` when monitoring starts.
  public var didStartMonitoringHandler: (@Sendable () -> Void)? {
    get { state.withLockedValue { $0.handlers.didStart } }
    set { state.withLockedValue { $0.handlers.didStart = newValue } }
  }

  /// Called on ``handlerQueue`` when monitoring stops, by ``stopMonitoring()`` or because the source failed.
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
  func withBroadcast<Result: Sendable>(_ body: (inout Broadcast<NetworkPath>, NetworkPath?) -> Result) -> Result {
    state.withLockedValue { state in
      let current = state.currentPath
      return body(&state.broadcast, current)
    }
  }

  func subscriberAdded() {
    startMonitoring()
  }
}
