/// The paths of a ``NetworkMonitor`` as an async sequence: the current path first, then every change.
///
/// Each iteration is its own subscriber, and any number can run at once. A slow consumer skips to the
/// newest path instead of building up a backlog, and never receives the same path twice in a row.
/// Ending an iteration (break, return, task cancellation) never stops the monitor or other subscribers.
///
/// Iterating starts the monitor if it is not running: the first `next()` does, unless its task is already
/// cancelled (a loop in a cancelled task ends at once and starts nothing). The start runs on a Dispatch queue of
/// its own and is awaited, so iterating from the main actor never blocks it. After
/// ``NetworkMonitor/stop()`` the iteration waits, and resumes when the monitor starts again.
///
/// The sequence ends when its monitor can no longer deliver: when the source fails for good (a watched network
/// namespace is deleted, or the monitor cannot start), the iteration receives the last, unsatisfied path, then ends;
/// ``NetworkMonitor/lastError`` says why. A new iteration starts the monitor again.
///
/// ```swift
/// for await path in NetworkMonitor.shared.paths {
///     updateBanner(online: path.isConnected)
/// }
/// ```
public struct NetworkPathSequence: AsyncSequence, Sendable {
  /// The sequence's elements: network paths.
  public typealias Element = NetworkPath
  /// The sequence never throws.
  public typealias Failure = Never

  let monitor: NetworkMonitor

  /// Subscribes to the monitor and returns the subscription's iterator, whose first `next()` starts the
  /// monitor if needed.
  public func makeAsyncIterator() -> Iterator {
    Iterator(subscription: BroadcastSubscription(host: monitor))
  }

  /// One subscriber's view of the monitor's paths.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    let subscription: BroadcastSubscription<NetworkMonitor>

    /// The next path: the current one first, then each change. `nil` once the task is cancelled, or once the
    /// monitor's source has failed and the last path has been returned.
    public mutating func next() async -> NetworkPath? {
      await subscription.next()
    }

    /// The next path, awaited on the caller's actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> NetworkPath? {
      await subscription.next()
    }
  }
}

extension NetworkMonitor {
  /// The current path, then every change, as an async sequence. See ``NetworkPathSequence``.
  public var paths: NetworkPathSequence { NetworkPathSequence(monitor: self) }

}
