/// The states of a ``ConnectivityMonitor`` as an async sequence: the current state first, then every
/// change. It behaves as ``NetworkPathSequence`` does.
///
/// Each iteration is its own subscriber, and any number can run at once. A slow consumer skips to the
/// newest state instead of building up a backlog, and never receives the same state twice in a row.
/// Ending an iteration never stops the connectivity monitor or other subscribers. Iterating starts the
/// connectivity monitor (and so its path monitor) if it is not running: the first `next()` does, unless its
/// task is already cancelled.
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

    /// The next state: the current one first, then each change. `nil` once the task is cancelled.
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

  /// Waits until the state is ``ConnectivityState/full``, starting the monitor if needed.
  ///
  /// ```swift
  /// if await connectivity.waitForInternetAccess(timeout: .seconds(10)) { upload() }
  /// ```
  ///
  /// - Parameter timeout: How long to wait, or `nil` to wait until the task is cancelled.
  /// - Returns: Whether the state became full in time.
  public func waitForInternetAccess(timeout: Duration?) async -> Bool {
    let sequence = states
    let reached = await withDeadline(timeout) { () -> Bool? in
      for await state in sequence where state.isFull { return true }
      return nil
    }
    return reached ?? false
  }
}
