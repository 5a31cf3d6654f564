/// Decides when to probe and what the connectivity state is. Pure: no clocks, no tasks, no I/O.
///
/// The ``ConnectivityMonitor`` feeds it events (a new path, a timer that fired, a finished check) and
/// carries out the actions it returns (start or cancel a timer or a probe, publish a state). Its rules:
///
/// - An unsatisfied path: the state is ``ConnectivityState/noPath`` and nothing is sent. No path known (not
///   reported yet, or the path monitor stopped): ``ConnectivityState/unknown``, and nothing is sent.
/// - The first satisfied path after starting is probed at once; a later path change is probed once it
///   has settled (``ConnectivityProbe/settleDelay``). A change cancels any probe in flight and any timer.
/// - After a check that is not full, check again after the backoff: ``ConnectivityProbe/initialBackoff``,
///   doubling after each such check up to ``ConnectivityProbe/maximumBackoff``. A path change or a full
///   answer resets it.
/// - While full: nothing more, unless ``ConnectivityProbe/recheckInterval`` is set.
/// - The verdict of a check holds while the path changes on the same preferred interface (so that an
///   address change does not flicker the state); when the preferred interface changes, the state is
///   ``ConnectivityState/unknown`` until the new check ends.
/// - Each address family the path supports has a state of its own (``families``; `nil` for a family it does not
///   support), under the same rules; the overall state is the best of them. A check made per family (its
///   ``ConnectivityCheck/families``) sets each; one that stood for both sets both. While a family's check answered
///   short of full, check again after the backoff, even when the overall state is full. A check that changes a
///   family's state alone publishes the (same) overall state again; a path change that only adds or removes a family
///   publishes nothing (the path says it).
struct ConnectivityScheduler: Sendable {
  /// What happened.
  enum Event: Sendable, Hashable {
    /// The monitor reported a path.
    case path(NetworkPath)
    /// The monitor stopped: its path is not known any more.
    case pathForgotten
    /// The timer with this id fired.
    case timerFired(UInt64)
    /// The probe with this id ended with this check.
    case probeFinished(UInt64, ConnectivityCheck)
    /// Someone asked for a check now (for example after logging in to a portal).
    case recheckRequested
    /// Monitoring stopped.
    case stopped
  }

  /// Why a timer runs.
  enum TimerPurpose: Sendable, Hashable {
    /// Letting a path change settle.
    case settle
    /// Checking again while not full.
    case retry
    /// Checking again while full (only with a recheck interval).
    case recheck
  }

  /// What to do. Starting a timer or a probe replaces the previous one (cancel it first).
  enum Action: Sendable, Hashable {
    /// Cancel the pending timer.
    case cancelTimer
    /// Cancel the probe in flight.
    case cancelProbe
    /// Start a timer; when it fires, send ``Event/timerFired(_:)`` with its id.
    case startTimer(id: UInt64, after: Duration, purpose: TimerPurpose)
    /// Probe over the path; when it ends, send ``Event/probeFinished(_:_:)`` with its id.
    case startProbe(id: UInt64, path: NetworkPath)
    /// The state changed: tell everyone.
    case publish(ConnectivityState)
    /// A check ended: keep it as the latest.
    case record(ConnectivityCheck)
  }

  let settleDelay: Duration
  let initialBackoff: Duration
  let maximumBackoff: Duration
  let recheckInterval: Duration?

  /// The current state.
  private(set) var state = ConnectivityState.unknown
  /// The state of each address family the path supports.
  private(set) var families = FamilyConnectivity()
  /// The latest path, or `nil` before the first one (and after stopping).
  private(set) var path: NetworkPath?
  /// The wait before the next retry while not full.
  private(set) var backoff: Duration
  /// The pending timer, if any.
  private(set) var timer: (id: UInt64, purpose: TimerPurpose)?
  /// The id of the probe in flight, if any.
  private(set) var probeInFlight: UInt64?
  /// The preferred interface the current verdict was made over.
  private var verdictInterface: NetworkInterface?
  private var nextID: UInt64 = 0

  /// A scheduler with the probe's timing settings.
  init(probe: ConnectivityProbe) {
    self.init(
      settleDelay: probe.settleDelay, initialBackoff: probe.initialBackoff, maximumBackoff: probe.maximumBackoff,
      recheckInterval: probe.recheckInterval)
  }

  /// A scheduler with these timing settings.
  init(settleDelay: Duration, initialBackoff: Duration, maximumBackoff: Duration, recheckInterval: Duration?) {
    self.settleDelay = settleDelay
    self.initialBackoff = initialBackoff
    self.maximumBackoff = max(maximumBackoff, initialBackoff)
    self.recheckInterval = recheckInterval
    self.backoff = initialBackoff
  }

  /// Handles an event and returns what to do, in order.
  mutating func handle(_ event: Event) -> [Action] {
    switch event {
    case .path(let newPath): return pathChanged(to: newPath)
    case .pathForgotten: return forget()
    case .timerFired(let id): return timerFired(id)
    case .probeFinished(let id, let check): return probeFinished(id, check)
    case .recheckRequested: return recheckRequested()
    case .stopped: return stopped()
    }
  }

  private mutating func pathChanged(to newPath: NetworkPath) -> [Action] {
    guard newPath != path else { return [] }
    let isFirst = path == nil
    path = newPath
    backoff = initialBackoff
    var actions = cancelAll()
    guard newPath.isConnected else {
      verdictInterface = nil
      actions += set(.noPath, families: FamilyConnectivity())
      return actions
    }
    if verdictInterface != newPath.availableInterfaces.first || state == .noPath {
      verdictInterface = nil
      actions += set(.unknown, families: FamilyConnectivity(.unknown, over: newPath))
    } else {
      // The verdict holds; a family the path no longer supports has none, one it newly supports is not checked yet.
      var kept = FamilyConnectivity()
      for family in IPFamily.allCases where family.isSupported(by: newPath) {
        kept[family] = families[family] ?? .unknown
      }
      actions += set(state, families: kept)
    }
    if isFirst || settleDelay <= .zero {
      actions += startProbe()
    } else {
      actions += startTimer(after: settleDelay, purpose: .settle)
    }
    return actions
  }

  private mutating func timerFired(_ id: UInt64) -> [Action] {
    guard let timer, timer.id == id else { return [] }
    self.timer = nil
    guard path?.isConnected == true else { return [] }
    return startProbe()
  }

  private mutating func probeFinished(_ id: UInt64, _ check: ConnectivityCheck) -> [Action] {
    guard probeInFlight == id, let path, path.isConnected else { return [] }
    probeInFlight = nil
    var actions: [Action] = [.record(check)]
    var newFamilies = families
    if check.state != .unknown {
      // A local failure (unknown) says nothing about the network: keep the previous verdict.
      verdictInterface = path.availableInterfaces.first
      for family in IPFamily.allCases where family.isSupported(by: path) {
        let found = check.families.map { $0[family] ?? .unknown } ?? check.state
        if found != .unknown || newFamilies[family] == nil { newFamilies[family] = found }
      }
      actions += set(check.state, families: newFamilies, verdict: true)
    }
    if check.state == .full, !newFamilies.hasAnswerShortOfFull {
      backoff = initialBackoff
      if let recheckInterval { actions += startTimer(after: recheckInterval, purpose: .recheck) }
    } else {
      actions += startTimer(after: backoff, purpose: .retry)
      backoff = min(backoff * 2, maximumBackoff)
    }
    return actions
  }

  private mutating func recheckRequested() -> [Action] {
    guard path?.isConnected == true else { return [] }
    backoff = initialBackoff
    return cancelAll() + startProbe()
  }

  private mutating func stopped() -> [Action] {
    forget()
  }

  /// No path is known (monitoring stopped, or the path monitor did): nothing to check, nothing known; the
  /// next path is checked at once, as the first one is.
  private mutating func forget() -> [Action] {
    path = nil
    verdictInterface = nil
    backoff = initialBackoff
    return cancelAll() + set(.unknown, families: FamilyConnectivity())
  }

  // MARK: Helpers

  private mutating func cancelAll() -> [Action] {
    var actions: [Action] = []
    if timer != nil {
      timer = nil
      actions.append(.cancelTimer)
    }
    if probeInFlight != nil {
      probeInFlight = nil
      actions.append(.cancelProbe)
    }
    return actions
  }

  /// Sets the states; publishes the overall one when it changed, or (for a check's verdict, `verdict`) when a
  /// family's did. A path change that only makes a family unsupported, or not yet checked, publishes nothing: the path
  /// itself says so.
  private mutating func set(
    _ newState: ConnectivityState, families newFamilies: FamilyConnectivity, verdict: Bool = false
  ) -> [Action] {
    let familyChanged = newFamilies != families
    families = newFamilies
    guard newState != state || (verdict && familyChanged) else { return [] }
    state = newState
    return [.publish(newState)]
  }

  private mutating func startProbe() -> [Action] {
    guard let path else { return [] }
    nextID += 1
    probeInFlight = nextID
    return [.startProbe(id: nextID, path: path)]
  }

  private mutating func startTimer(after delay: Duration, purpose: TimerPurpose) -> [Action] {
    nextID += 1
    timer = (nextID, purpose)
    return [.startTimer(id: nextID, after: delay, purpose: purpose)]
  }
}
