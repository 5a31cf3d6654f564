/// One demand-driven subscription to a monitor's paths: the platform-independent core of the Combine publisher
/// (``NetworkMonitor/pathPublisher``), so that its logic is tested on every platform.
///
/// It subscribes on creation (starting the monitor if needed) and delivers the current path, then every change,
/// in order and without repeats, but only as far as the subscriber has asked: while no demand is left it keeps only
/// the newest path, as ``NetworkPathSequence`` does for a slow consumer. It delivers from one thread at a time and
/// never while holding its lock, so the subscriber may call ``request(_:)`` or ``cancel()`` from inside `deliver`.
/// Cancelling, or releasing the relay, ends the subscription; the monitor itself is never stopped.
package final class PathDemandRelay: Sendable {
  private struct State {
    var demand = 0
    var pending: NetworkPath?
    var delivering = false
    var cancelled = false
    var subscription: UInt64?
  }

  private let state = Locked(State())
  private let monitor: NetworkMonitor
  private let deliver: @Sendable (NetworkPath) -> Int

  /// Subscribes to `monitor`.
  ///
  /// - Parameter deliver: Hands a path to the subscriber and returns how many more it wants (`Int.max`: no limit).
  package init(monitor: NetworkMonitor, deliver: @escaping @Sendable (NetworkPath) -> Int) {
    self.monitor = monitor
    self.deliver = deliver
    monitor.addRelayedSubscriber(
      registered: { id in
        state.withLockedValue { $0.subscription = id }
        return true
      },
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
      guard !state.cancelled else { return false }
      state.pending = path
      return claimDelivery(&state)
    }
    if start { drain() }
  }

  /// Whether the caller should deliver: there is a path, demand for it, and no delivery under way.
  private func claimDelivery(_ state: inout State) -> Bool {
    guard !state.delivering, state.pending != nil, state.demand > 0 else { return false }
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
      guard let next else { return }
      let more = deliver(next)
      if more > 0 {
        state.withLockedValue { state in
          state.demand = state.demand > Int.max - more ? Int.max : state.demand + more
        }
      }
    }
  }
}
