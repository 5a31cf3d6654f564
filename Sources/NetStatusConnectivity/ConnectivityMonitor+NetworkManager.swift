#if canImport(NetStatusNetworkManager)
  import NetStatusNetworkManager
#endif

#if canImport(NetStatusLinuxSource)
  import NetStatusLinuxSource
#endif

extension ConnectivityMonitor {
  /// Creates a connectivity monitor of `monitor`'s paths whose state comes from `source`: checks with a probe
  /// (as ``init(monitor:probe:)``), or NetworkManager's connectivity, with no traffic (see
  /// ``ConnectivitySource/networkManager``). It does nothing until started.
  ///
  /// ```swift
  /// let connectivity = ConnectivityMonitor(source: .networkManager)
  /// for await state in connectivity.states where state.isFull { await sync() }
  /// ```
  ///
  /// With ``ConnectivitySource/networkManager``, ``probe`` is `nil`: no check is made.
  public convenience init(monitor: NetworkMonitor = .shared, source: ConnectivitySource) {
    switch source {
    case .probe(let probe):
      self.init(monitor: monitor, probe: probe)
    case .networkManager:
      self.init(
        monitor: monitor, mode: .networkManager(NetworkManagerConnectivity()),
        transport: makeDefaultProbeTransport(for: monitor))
    }
  }

  /// Where the state comes from; a settled monitor's is the followed one's.
  public var source: ConnectivitySource {
    switch locked.withLockedValue({ $0.mode }) {
    case .probing(let probe, _): .probe(probe)
    case .networkManager: .networkManager
    case .settled(let settled): settled.upstream.source
    }
  }

  /// With ``ConnectivitySource/networkManager``: why NetworkManager's connectivity is not used now (not started,
  /// no libsystemd or system bus, NetworkManager not running, a monitor of another namespace, not Linux), or `nil`
  /// while it is. Always `nil` with a probe.
  package var networkManagerUnavailableReason: String? {
    locked.withLockedValue { state in
      guard let follower = state.networkManager else { return nil }
      return follower.unavailableReason
    }
  }

  /// The watch a NetworkManager-fed monitor follows: the one its path monitor's source uses (the system bus's,
  /// or a test's), or none for a monitor of another namespace.
  var networkManagerWatch: NetworkManagerWatchReference? {
    #if os(Linux)
      if let source = monitor.source as? NetworkManagerPathSource { return NetworkManagerWatchReference(source.watch) }
      // The same rule as the default path source's (SystemNamespace.swift): not for another namespace, nor from a
      // process moved out of the one NetworkManager manages.
      guard monitor.source.networkNamespacePath == nil, SystemNamespace.followsSystemNetworkManager else { return nil }
      return NetworkManagerWatchReference(.system)
    #else
      return nil
    #endif
  }

  /// Subscribes a starting NetworkManager-fed monitor to NetworkManager; called by ``startMonitoring()``.
  func startFollowingNetworkManager(generation: UInt64) {
    guard let watch = networkManagerWatch else {
      #if os(Linux)
        let reason = SystemNamespace.networkManagerNotFollowed(
          namespaceGiven: monitor.source.networkNamespacePath != nil, relation: SystemNamespace.own)
      #else
        let reason = "NetworkManager is followed on Linux only"
      #endif
      handleNetworkManager(.unavailable(reason), generation: generation)
      return
    }
    let (id, status) = watch.subscribe { [weak self] status in
      self?.handleNetworkManager(status, generation: generation)
    }
    let stale = locked.withLockedValue { state -> Bool in
      guard state.generation == generation, state.networkManager != nil else { return true }
      state.networkManager?.unsubscribe = { watch.unsubscribe(id) }
      return false
    }
    if stale {
      watch.unsubscribe(id)
      return
    }
    handleNetworkManager(status, generation: generation, initial: true)
  }

  /// A new status of NetworkManager.
  private func handleNetworkManager(_ status: NetworkManagerStatus, generation: UInt64, initial: Bool = false) {
    let work = locked.withLockedValue { state -> Work in
      guard state.generation == generation, state.networkManager != nil else { return Work() }
      // The first status must not undo one the watch sent meanwhile.
      if initial, state.networkManager?.statusReceived == true { return Work() }
      state.networkManager?.statusReceived = true
      state.networkManager?.status = status
      return publishNetworkManagerState(&state)
    }
    work.perform()
  }

  /// The scheduler's event, for a NetworkManager-fed monitor: paths, a forgotten path and a stop change what
  /// NetworkManager's answer means; a recheck does nothing (NetworkManager checks on its own).
  func applyNetworkManager(_ event: ConnectivityScheduler.Event, to state: inout State) -> Work {
    switch event {
    case .path(let path): state.networkManager?.path = path
    case .pathForgotten: state.networkManager?.path = nil
    case .stopped:
      var work = Work()
      if let unsubscribe = state.networkManager?.unsubscribe { work.after.append(unsubscribe) }
      // Forgotten, but for the state last published: the stop publishes `unknown` if it was something else.
      let published = state.networkManager?.published ?? .unknown
      let publishedFamilies = state.networkManager?.publishedFamilies ?? FamilyConnectivity()
      state.networkManager = NetworkManagerConnectivity()
      state.networkManager?.published = published
      state.networkManager?.publishedFamilies = publishedFamilies
      return work.merged(with: publishNetworkManagerState(&state))
    case .recheckRequested, .timerFired, .probeFinished: return Work()
    }
    return publishNetworkManagerState(&state)
  }

  /// Publishes the state NetworkManager's status gives over the current path, if it or a family's changed (a
  /// family's change alone publishes the same state again, as a probing monitor's does).
  private func publishNetworkManagerState(_ state: inout State) -> Work {
    guard let follower = state.networkManager else { return Work() }
    let (newState, newFamilies) = (follower.state, follower.families)
    guard newState != follower.published || newFamilies != follower.publishedFamilies else { return Work() }
    state.networkManager?.published = newState
    state.networkManager?.publishedFamilies = newFamilies
    return publish(newState, in: &state)
  }
}

/// What a NetworkManager-fed ``ConnectivityMonitor`` keeps: NetworkManager's status, the path, and the state last
/// published. Pure.
struct NetworkManagerConnectivity: Sendable {
  var status = NetworkManagerStatus.stopped
  var statusReceived = false
  var path: NetworkPath?
  var published = ConnectivityState.unknown
  /// The families' states last published with ``published``.
  var publishedFamilies = FamilyConnectivity()
  var unsubscribe: (@Sendable () -> Void)?

  /// NetworkManager's answer over the path; unknown without it.
  var state: ConnectivityState {
    guard let view = status.view else { return .unknown }
    return view.connectivityState(over: path)
  }

  /// NetworkManager's per-family answers over the path (see ``NetworkManagerView/familyStates(over:)``); each
  /// supported family unknown without NetworkManager.
  var families: FamilyConnectivity {
    guard let view = status.view else { return FamilyConnectivity(.unknown, over: path) }
    return view.familyStates(over: path)
  }

  var unavailableReason: String? { status.diagnostic.unavailableReason }
}

/// A ``NetworkManagerWatch`` where there is one (Linux); nothing elsewhere.
struct NetworkManagerWatchReference: Sendable {
  #if os(Linux)
    let watch: NetworkManagerWatch
    init(_ watch: NetworkManagerWatch) { self.watch = watch }
  #endif

  func subscribe(_ handler: @escaping @Sendable (NetworkManagerStatus) -> Void) -> (UInt64, NetworkManagerStatus) {
    #if os(Linux)
      return watch.subscribe(handler)
    #else
      return (0, .unavailable("NetworkManager is followed on Linux only"))
    #endif
  }

  func unsubscribe(_ id: UInt64) {
    #if os(Linux)
      watch.unsubscribe(id)
    #endif
  }
}
