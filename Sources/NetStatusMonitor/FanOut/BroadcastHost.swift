/// Something that owns a ``Broadcast`` under its lock: a ``NetworkMonitor`` (paths) or a
/// ``ConnectivityMonitor`` (connectivity states). ``BroadcastSubscription`` subscribes through it.
package protocol BroadcastHost: AnyObject, Sendable {
  /// What the host broadcasts.
  associatedtype Element: FanOutElement

  /// Runs `body` under the host's lock with its broadcast and the current value (`nil` while not known).
  func withBroadcast<Result: Sendable>(_ body: (inout Broadcast<Element>, Element?) -> Result) -> Result

  /// A subscriber was added: the host starts producing values if it is not already doing so.
  func subscriberAdded()
}

extension BroadcastHost {
  /// Ends a subscription. A waiting iterator returns `nil`.
  package func removeSubscriber(_ id: UInt64) {
    let waiting = withBroadcast { broadcast, _ in broadcast.remove(id) }
    waiting?.resume(returning: nil)
  }

  /// Registers a callback called with every new value and its version, on the publishing thread, outside
  /// the lock, then lets the host start (unless `startsHost` is `false`: the caller starts it later). `cleared`, if
  /// given, is called the same way with the version of each time the host forgets its value (see
  /// ``Broadcast/clear()``); `finished`, if given, is called when the host can no longer deliver (see
  /// ``Broadcast/finish()``). Returns the id to pass to ``removeSubscriber(_:)``, and the value known at registration
  /// with its version.
  package func addCallbackSubscriber(
    _ callback: @escaping @Sendable (Element, UInt64) -> Void, cleared: (@Sendable (UInt64) -> Void)? = nil,
    finished: (@Sendable () -> Void)? = nil, startsHost: Bool = true
  ) -> (id: UInt64, current: Element?, version: UInt64) {
    let id = withBroadcast { broadcast, _ in broadcast.addCallback(callback, cleared: cleared, finished: finished) }
    if startsHost { subscriberAdded() }
    // Read after starting, so that a host that reports while starting (Linux) is already known.
    return withBroadcast { broadcast, current in (id, current, broadcast.version) }
  }

  /// The number of live subscriptions (iterators, streams, models).
  var subscriberCount: Int { withBroadcast { broadcast, _ in broadcast.count } }
}
