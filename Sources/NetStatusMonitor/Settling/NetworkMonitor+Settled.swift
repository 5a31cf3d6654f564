extension NetworkMonitor {
  /// A monitor that follows this one and reports a change only once it has held: a blip shorter than the hold is
  /// never seen. Every way of observing it (``paths``, ``pathUpdateHandler``, ``NetworkStatusModel``, Combine, a
  /// ``ConnectivityMonitor`` built on it, SwiftUI's `.needsInternet()`) sees the settled paths.
  ///
  /// ```swift
  /// // A Wi-Fi roam or a flapping cable that drops for less than 3 s is not reported; coming back is reported
  /// // once the path has been satisfied for 1 s.
  /// let steady = NetworkMonitor.shared.settled(offlineAfter: .seconds(3), onlineAfter: .seconds(1))
  /// for await path in steady.paths {
  ///     print(path.isConnected ? "online" : "offline")
  /// }
  /// ```
  ///
  /// What counts as a change, and how long it must hold:
  /// - The first path is reported at once (not known → known is not a change to hold).
  /// - Going from satisfied to unsatisfied is reported once the path has been unsatisfied for `offlineAfter`;
  ///   going back to satisfied, once it has been satisfied for `onlineAfter`. The hold counts from the first path on
  ///   the new side, and the path reported is the latest one. A return to the reported path before then drops
  ///   the change.
  /// - Any other change (another interface type, expensive or constrained, other interfaces) is reported once that
  ///   exact path has held for the hold of its side (`onlineAfter` while satisfied, `offlineAfter` while not): a
  ///   path that keeps changing, as during a handover, is reported once it stops changing.
  /// - A hold of zero reports at once. A failure of this monitor's source is reported at once; when this monitor
  ///   stops, the settled one forgets what it held, and reports the next path at once.
  ///
  /// The settled monitor starts this one when it starts, and never stops it. It has the same interface filter.
  ///
  /// - Parameters:
  ///   - offlineAfter: How long a path must stay unsatisfied before the change is reported.
  ///   - onlineAfter: How long a path must stay satisfied (or a new satisfied path stay the same) before it is
  ///     reported.
  ///   - clock: The clock that measures the holds: `ContinuousClock` unless you pass another (tests pass one they
  ///     control).
  /// - Returns: A new monitor, stopped; its front-ends start it as any monitor's do.
  public func settled<C: Clock>(offlineAfter: Duration, onlineAfter: Duration, clock: C = ContinuousClock())
    -> NetworkMonitor
  where C.Duration == Duration {
    NetworkMonitor(
      source: SettledPathSource(upstream: self, onlineAfter: onlineAfter, offlineAfter: offlineAfter, clock: clock),
      requiredInterfaceType: requiredInterfaceType, prohibitedInterfaceTypes: Array(prohibitedInterfaceTypes))
  }

}
