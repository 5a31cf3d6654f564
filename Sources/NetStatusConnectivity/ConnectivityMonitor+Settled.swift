extension ConnectivityMonitor {
  /// A connectivity monitor that follows this one and reports a change of state only once it has held: a blip
  /// shorter than the hold is never seen. Its ``states``, ``connectivityUpdateHandler``, and a
  /// ``NetworkStatusModel`` or SwiftUI's `.needsInternet()` built on it see the settled states.
  ///
  /// ```swift
  /// let connectivity = ConnectivityMonitor(monitor: .shared, probe: probe)
  /// // Full access that drops for less than 5 s is not reported; regained access is, once it has lasted 2 s.
  /// let steady = connectivity.settled(offlineAfter: .seconds(5), onlineAfter: .seconds(2))
  /// for await state in steady.states { print("internet: \(state)") }
  /// ```
  ///
  /// The same rule as ``NetworkMonitor/settled(offlineAfter:onlineAfter:clock:)``, with full access
  /// (``ConnectivityState/isFull``) as "online": leaving ``ConnectivityState/full`` is reported once the state has
  /// not been full for `offlineAfter` (the latest state is reported), coming back once it has been full for
  /// `onlineAfter`; a change between states that are not full (no path, limited, a portal) once that state has held
  /// for `offlineAfter`. The first known state is reported at once, and ``ConnectivityState/unknown`` (a check over
  /// a new interface, not yet ended) counts as not full. When this monitor stops for good, so does the settled one.
  ///
  /// The settled monitor starts this one when it starts, and never stops it. Its ``monitor``, ``probe`` and
  /// ``source`` are this one's; ``recheck()`` asks this one to check.
  ///
  /// - Parameters:
  ///   - offlineAfter: How long the state must stay other than full before the change is reported.
  ///   - onlineAfter: How long the state must stay full before it is reported.
  ///   - clock: The clock that measures the holds: `ContinuousClock` unless you pass another (tests pass one they
  ///     control).
  /// - Returns: A new connectivity monitor, stopped; iterating its ``states`` starts it.
  public func settled<C: Clock>(offlineAfter: Duration, onlineAfter: Duration, clock: C = ContinuousClock())
    -> ConnectivityMonitor
  where C.Duration == Duration {
    let followed = self
    let following = SettledConnectivity(upstream: self) { send in
      let session = SettledSession(
        settler: Settler<ConnectivityState, C.Instant>(upHold: onlineAfter, downHold: offlineAfter), clock: clock,
        send: send)
      session.follow(followed)
      return session
    }
    return ConnectivityMonitor(monitor: monitor, mode: .settled(following), transport: transport)
  }

  /// Subscribes a starting settled monitor to the monitor it follows; called by ``start()``.
  func startFollowingSettled(generation: UInt64) {
    guard let begin = locked.withLockedValue({ $0.settled?.begin }) else { return }
    let session = begin { [weak self] event in self?.handleSettled(event, generation: generation) }
    let stale = locked.withLockedValue { state -> Bool in
      guard state.generation == generation, state.settled != nil else { return true }
      state.settled?.session = session
      return false
    }
    if stale { session.stop() }
  }

  private func handleSettled(_ event: SettledEvent<ConnectivityState>, generation: UInt64) {
    switch event {
    case .finished:
      pathMonitorEnded(generation: generation)
    case .value(let newState):
      let work = locked.withLockedValue { state -> Work in
        guard state.generation == generation, state.settled != nil, state.settled?.published != newState else {
          return Work()
        }
        state.settled?.published = newState
        return publish(newState, in: &state)
      }
      work.perform()
    }
  }

  /// The scheduler's event, for a settled monitor: paths are the followed monitor's business; a recheck is passed
  /// to it; a stop ends the session and publishes ``ConnectivityState/unknown``.
  func applySettled(_ event: ConnectivityScheduler.Event, to state: inout State) -> Work {
    guard let settled = state.settled else { return Work() }
    switch event {
    case .recheckRequested:
      var work = Work()
      work.after.append { settled.upstream.recheck() }
      return work
    case .stopped:
      var work = Work()
      if let session = state.settled?.session.take() { work.after.append { session.stop() } }
      guard settled.published != .unknown else { return work }
      state.settled?.published = .unknown
      return work.merged(with: publish(.unknown, in: &state))
    case .path, .pathForgotten, .timerFired, .probeFinished:
      return Work()
    }
  }
}

/// What a settled ``ConnectivityMonitor`` keeps: how to follow the monitor it settles, the running session, and the
/// state last published.
struct SettledConnectivity: Sendable {
  /// The connectivity monitor followed.
  let upstream: ConnectivityMonitor
  /// Starts a session that sends the followed monitor's settled states (the clock's type is erased here).
  let begin: @Sendable (@escaping @Sendable (SettledEvent<ConnectivityState>) -> Void) -> any PathSourceSession
  var session: (any PathSourceSession)?
  var published = ConnectivityState.unknown

  init(
    upstream: ConnectivityMonitor,
    begin: @escaping @Sendable (@escaping @Sendable (SettledEvent<ConnectivityState>) -> Void) -> any PathSourceSession
  ) {
    self.upstream = upstream
    self.begin = begin
  }
}
