/// One demand-driven subscription to a monitor's paths: the platform-independent core of the Combine publisher
/// (``NetworkMonitor/pathPublisher``), so that its logic is tested on every platform.
///
/// It subscribes on creation (starting the monitor if needed) and delivers the current path, then every change,
/// in order and without repeats, but only as far as the subscriber has asked: while no demand is left it keeps only
/// the newest path, as ``NetworkPathSequence`` does for a slow consumer. It delivers from one thread at a time and
/// never while holding its lock, so the subscriber may call ``request(_:)`` or ``cancel()`` from inside `deliver`.
/// Cancelling, or releasing the relay, ends the subscription; the monitor itself is never stopped. When the monitor
/// can no longer deliver (its source failed), the relay delivers what is pending, as demand allows, then calls
/// `finished` once, but not before the subscriber's first request (Combine hands it the subscription first, and only
/// then may it be completed): the publisher's `.finished`.
package final class PathDemandRelay: Sendable {
  private struct State {
    var demand = 0
    var pending: NetworkPath?
    var delivering = false
    var cancelled = false
    var subscription: UInt64?
    /// The monitor can no longer deliver: once nothing is pending, `finished` is called.
    var ended = false
    /// `finished` has been called (or claimed by the delivering thread).
    var completed = false
    /// The subscriber has asked for paths at least once: it holds its subscription, and may be completed.
    var requested = false
  }

  private let state = Locked(State())
  private let monitor: NetworkMonitor
  private let deliver: @Sendable (NetworkPath) -> Int
  private let finished: @Sendable () -> Void

  /// Subscribes to `monitor`.
  ///
  /// - Parameters:
  ///   - deliver: Hands a path to the subscriber and returns how many more it wants (`Int.max`: no limit).
  ///   - finished: Tells the subscriber that no path will follow (the monitor's source failed), once, after the
  ///     last path; never after ``cancel()``.
  package init(
    monitor: NetworkMonitor, deliver: @escaping @Sendable (NetworkPath) -> Int,
    finished: @escaping @Sendable () -> Void = {}
  ) {
    self.monitor = monitor
    self.deliver = deliver
    self.finished = finished
    monitor.addRelayedSubscriber(
      registered: { id in
        state.withLockedValue { state in
          guard !state.ended else { return false }  // ended while subscribing: the monitor could not start
          state.subscription = id
          return true
        }
      },
      finished: { [weak self] in self?.end() },
      deliver: { [weak self] path in self?.offer(path) })
  }

  deinit {
    cancel()
  }

  /// Adds `count` to the demand (`Int.max`: no limit) and delivers what is pending.
  package func request(_ count: Int) {
    guard count > 0 else { return }
    let start = state.withLockedValue { state -> Bool in
      guard !state.cancelled else { return false }
      state.demand = state.demand > Int.max - count ? Int.max : state.demand + count
      state.requested = true
      return claimDelivery(&state)
    }
    if start { drain() }
  }

  /// Ends the subscription. Nothing is delivered once this returns, unless a delivery is under way on another thread.
  package func cancel() {
    let subscription = state.withLockedValue { state -> UInt64? in
      state.cancelled = true
      state.pending = nil
      return state.subscription.take()
    }
    if let subscription { monitor.removeSubscriber(subscription) }
  }

  /// Takes a new path: it replaces any pending one, and is delivered if there is demand.
  private func offer(_ path: NetworkPath) {
    let start = state.withLockedValue { state -> Bool in
      guard !state.cancelled, !state.ended else { return false }
      state.pending = path
      return claimDelivery(&state)
    }
    if start { drain() }
  }

  /// The monitor can no longer deliver: the end follows what is pending.
  private func end() {
    let (start, subscription) = state.withLockedValue { state -> (Bool, UInt64?) in
      guard !state.cancelled, !state.ended else { return (false, nil) }
      state.ended = true
      return (claimDelivery(&state), state.subscription.take())
    }
    // Nothing follows an end, not even the paths of a later start.
    if let subscription { monitor.removeSubscriber(subscription) }
    if start { drain() }
  }

  /// Whether the caller should deliver: there is a path and demand for it, or an end with nothing pending, and no
  /// delivery under way.
  private func claimDelivery(_ state: inout State) -> Bool {
    guard !state.delivering else { return false }
    let hasPath = state.pending != nil && state.demand > 0
    let hasEnd = state.ended && state.requested && !state.completed && state.pending == nil
    guard hasPath || hasEnd else { return false }
    state.delivering = true
    return true
  }

  /// Delivers pending paths while there is demand, outside the lock; only the thread that claimed delivery runs it.
  private func drain() {
    while true {
      let next = state.withLockedValue { state -> NetworkPath? in
        guard !state.cancelled, state.demand > 0, let path = state.pending.take() else {
          state.delivering = false
          return nil
        }
        if state.demand != Int.max { state.demand -= 1 }
        return path
      }
      guard let next else {
        // Nothing left to deliver now: the end, if it came and nothing is pending.
        let completes = state.withLockedValue { state -> Bool in
          guard !state.cancelled, state.ended, state.requested, !state.completed, state.pending == nil,
            !state.delivering
          else {
            return false
          }
          state.completed = true
          return true
        }
        if completes { finished() }
        return
      }
      let more = deliver(next)
      if more > 0 {
        state.withLockedValue { state in
          state.demand = state.demand > Int.max - more ? Int.max : state.demand + more
        }
      }
    }
  }
}
