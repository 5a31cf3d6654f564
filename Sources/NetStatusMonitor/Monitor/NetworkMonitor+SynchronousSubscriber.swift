extension NetworkMonitor {
  /// Calls `handler` with the current path (once known), then with every change, in order and without
  /// repeats, synchronously on the thread that publishes it: the source's thread (on Linux, the rtnetlink
  /// thread), or the caller's for the current path (a change published while that first call runs is handed to
  /// the same thread, right after it). No queue or task hop: for consumers where a thread wake-up matters, such
  /// as `netstatus watch`. The handler must be quick; while it runs, the source waits (and coalesces what happens
  /// meanwhile). It is called with no lock held: it may stop the monitor or make its source publish. Starts the
  /// monitor if needed.
  ///
  /// - Returns: The id to pass to ``removeSynchronousSubscriber(_:)``.
  package func addSynchronousSubscriber(_ handler: @escaping @Sendable (NetworkPath) -> Void) -> UInt64 {
    addRelayedSubscriber(deliver: handler).id
  }

  /// Ends a subscription made with ``addSynchronousSubscriber(_:)``; the handler is not called afterwards
  /// (except by a publication already under way on another thread).
  package func removeSynchronousSubscriber(_ id: UInt64) {
    removeSubscriber(id)
  }
}
