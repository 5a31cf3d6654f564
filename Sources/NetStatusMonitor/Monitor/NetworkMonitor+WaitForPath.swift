extension NetworkMonitor {
  /// Waits for the first real path, starting the monitor if needed, so that an app never shows
  /// "offline" before the source has reported.
  ///
  /// Returns at once when the path is already known. The start runs off the caller's executor (it may block: a
  /// netlink dump, lookups, NetworkManager's first reads), so waiting from the main actor holds nothing, and the
  /// timeout counts the start too.
  ///
  /// ```swift
  /// let path = try await NetworkMonitor.shared.waitForPath(timeout: .seconds(2))
  /// showOfflineBanner = !path.isConnected
  /// ```
  ///
  /// - Parameter timeout: How long to wait.
  /// - Returns: The current path.
  /// - Throws: ``NetworkMonitorError/timedOut(_:)`` when no path arrived in time, or the error that kept
  ///   the monitor from starting.
  public func waitForPath(timeout: Duration = .seconds(5)) async throws(NetworkMonitorError) -> NetworkPath {
    if let path = currentPath { return path }
    let sequence = paths
    let outcome = await withDeadline(timeout) { () async -> Result<NetworkPath, NetworkMonitorError>? in
      switch await runOffExecutor({ Result { () throws(NetworkMonitorError) in try self.start(byCall: false) } }) {
      case .failure(let error): return .failure(error)
      case .success: break
      case nil: return nil  // the deadline passed while starting
      }
      var iterator = sequence.makeAsyncIterator()
      return await iterator.next().map { .success($0) }
    }
    if let outcome { return try outcome.get() }
    if let error = lastError { throw error }
    throw .timedOut(timeout)
  }
}
