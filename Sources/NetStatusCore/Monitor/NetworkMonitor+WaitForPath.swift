extension NetworkMonitor {
  /// Waits for the first real path, starting the monitor if needed, so that an app never shows
  /// "offline" before the source has reported.
  ///
  /// Returns at once when the path is already known.
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
    try start()
    let sequence = paths
    let result = await withDeadline(timeout) {
      var iterator = sequence.makeAsyncIterator()
      return await iterator.next()
    }
    if let result { return result }
    if let error = lastError { throw error }
    throw .timedOut(timeout)
  }
}
