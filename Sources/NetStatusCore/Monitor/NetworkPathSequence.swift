/// The paths of a ``NetworkMonitor`` as an async sequence: the current path first, then every change.
///
/// Each iteration is its own subscriber, and any number can run at once. A slow consumer skips to the
/// newest path instead of building up a backlog, and never receives the same path twice in a row.
/// Ending an iteration (break, return, task cancellation) never stops the monitor or other subscribers.
///
/// Iterating starts the monitor if it is not running: the first `next()` does, unless its task is already
/// cancelled (a loop in a cancelled task ends at once and starts nothing). The start runs on a Dispatch queue of
/// its own and is awaited, so iterating from the main actor never blocks it. After
/// ``NetworkMonitor/stopMonitoring()`` the iteration waits, and resumes when the monitor starts again.
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

    /// The next path: the current one first, then each change. `nil` once the task is cancelled.
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

  /// Connectivity as a stream of booleans: the current state first (once known), then every change of
  /// ``NetworkPath/isConnected``, with no repeats.
  ///
  /// Each call is its own subscriber; ending the stream never stops the monitor. The stream starts the
  /// monitor if it is not running.
  ///
  /// ```swift
  /// .task {
  ///     for await connected in NetworkMonitor.shared.networkUpdates() {
  ///         isConnected = connected
  ///     }
  /// }
  /// ```
  public func networkUpdates() -> AsyncStream<Bool> {
    let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
    let registration = addRelayedSubscriber(\.isConnected) { continuation.yield($0) }
    continuation.onTermination = { [weak self] _ in self?.removeSubscriber(registration.id) }
    return stream
  }
}
