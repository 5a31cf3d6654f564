// The seeds' names for starting and stopping a connectivity monitor, beside NetworkMonitor's
// (Sources/NetStatusMonitor/Monitor/NetworkMonitor+FamiliarNames.swift).

extension ConnectivityMonitor {
  /// Starts following the monitor's paths and checking them, keeping a failure instead of throwing it: a familiar
  /// name for `try? start()`.
  public func startMonitoring() {
    try? start()
  }

  /// Stops checking: a familiar name for ``stop()``.
  public func stopMonitoring() {
    stop()
  }
}
