// The familiar names: spellings many Swift networking guides use for a reachability helper, kept so that code
// written that way compiles. Each is another name for an API of this module; the DocC topic group "Familiar names"
// lists them apart from the main topics.

extension NetworkMonitor {
  /// Starts monitoring, keeping a failure instead of throwing it: a familiar name for `try? start()`.
  ///
  /// A failure to start is kept in ``lastError`` and passed to ``errorHandler``; the monitor stays stopped. Use
  /// ``start()`` to handle it where you call.
  public func startMonitoring() {
    try? start()
  }

  /// Stops monitoring: a familiar name for ``stop()``.
  public func stopMonitoring() {
    stop()
  }

  /// The type of the interface in use: a familiar name for ``interfaceType``.
  public var currentConnectionType: InterfaceType? { interfaceType }

  /// Called on ``handlerQueue`` after every change of the path, right after ``pathUpdateHandler``: a familiar name
  /// for a ``pathUpdateHandler`` that ignores the path.
  ///
  /// ```swift
  /// monitor.netStatusChangeHandler = { [weak self] in
  ///     MainActor.assumeIsolated { self?.tableView.reloadData() }  // handlerQueue is .main
  /// }
  /// ```
  public var netStatusChangeHandler: (@Sendable () -> Void)? {
    get { state.withLockedValue { $0.handlers.netStatusChange } }
    set { state.withLockedValue { $0.handlers.netStatusChange = newValue } }
  }

  /// Connectivity as a stream of booleans: a familiar name for ``paths`` mapped to ``NetworkPath/isConnected``,
  /// without repeats. The current state comes first (once known), then every change.
  ///
  /// Each call is its own subscriber; ending the stream never stops the monitor. The stream starts the monitor if
  /// it is not running, and ends, as ``paths`` does, when the monitor can no longer deliver (its source failed).
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
    // An end may come while subscribing (the monitor cannot start), before `onTermination` is set: then the
    // subscription is removed here.
    let ended = Locked(false)
    let registration = addRelayedSubscriber(
      \.isConnected,
      finished: {
        ended.withLockedValue { $0 = true }
        continuation.finish()
      },
      deliver: { continuation.yield($0) })
    continuation.onTermination = { [weak self] _ in self?.removeSubscriber(registration.id) }
    if ended.withLockedValue({ $0 }) { removeSubscriber(registration.id) }
    return stream
  }
}

extension NetworkStatusProviding {
  /// Whether the device is connected: a familiar name for ``isConnected``.
  public func execute() -> Bool { isConnected }
}
