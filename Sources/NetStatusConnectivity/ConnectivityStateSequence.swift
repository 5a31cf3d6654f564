/// The states of a ``ConnectivityMonitor`` as an async sequence: the current state first, then every
/// change. It behaves as ``NetworkPathSequence`` does.
///
/// Each iteration is its own subscriber, and any number can run at once. A slow consumer skips to the
/// newest state instead of building up a backlog, and never receives the same state twice in a row.
/// Ending an iteration never stops the connectivity monitor or other subscribers. Iterating starts the
/// connectivity monitor (and so its path monitor) if it is not running: the first `next()` does, unless its
/// task is already cancelled.
///
/// The sequence ends when its monitor can no longer deliver: when the path monitor's source fails for good (a
/// watched network namespace is deleted, or the path monitor cannot start), the connectivity monitor stops and the
/// iteration ends after its last state. A new iteration starts it again.
///
/// ```swift
/// for await state in connectivity.states {
///     banner = state.isFull ? nil : "No internet (\(state))"
/// }
/// ```
public struct ConnectivityStateSequence: AsyncSequence, Sendable {
  /// The sequence's elements: connectivity states.
  public typealias Element = ConnectivityState
  /// The sequence never throws.
  public typealias Failure = Never

  let monitor: ConnectivityMonitor

  /// Subscribes to the connectivity monitor and returns the subscription's iterator, whose first `next()`
  /// starts it if needed.
  public func makeAsyncIterator() -> Iterator {
    Iterator(subscription: BroadcastSubscription(host: monitor))
  }

  /// One subscriber's view of the states.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    let subscription: BroadcastSubscription<ConnectivityMonitor>

    /// The next state: the current one first, then each change. `nil` once the task is cancelled, or once the
    /// path monitor's source has failed and the last state has been returned.
    public mutating func next() async -> ConnectivityState? {
      await subscription.next()
    }

    /// The next state, awaited on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> ConnectivityState? {
      await subscription.next()
    }
  }
}

extension ConnectivityMonitor {
  /// The current state, then every change, as an async sequence. See ``ConnectivityStateSequence``.
  public var states: ConnectivityStateSequence { ConnectivityStateSequence(monitor: self) }

  /// Waits until the internet answers (the state is ``ConnectivityState/full``), starting the monitor if needed,
  /// as ``NetworkMonitor/waitForPath(timeout:)`` waits for a path.
  ///
  /// Returns at once when the state is already full.
  ///
  /// ```swift
  /// do {
  ///     try await connectivity.waitForInternetAccess(timeout: .seconds(10))
  ///     upload()
  /// } catch {
  ///     print(error)  // timed out, or the path monitor could not start or failed
  /// }
  /// ```
  ///
  /// - Parameter timeout: How long to wait.
  /// - Throws: ``NetworkMonitorError/timedOut(_:)`` when the state did not become full in time, or the error that
  ///   kept the path monitor from starting or ended it.
  public func waitForInternetAccess(timeout: Duration) async throws(NetworkMonitorError) {
    if state.isFull { return }
    let sequence = states
    let reached = await withDeadline(timeout) { () -> Bool? in
      for await state in sequence where state.isFull { return true }
      return false  // the path monitor ended
    }
    if reached == true { return }
    if !monitor.isMonitoring, let error = monitor.lastError { throw error }
    throw .timedOut(timeout)
  }
}
