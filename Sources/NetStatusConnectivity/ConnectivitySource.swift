/// Where a ``ConnectivityMonitor`` takes its state from: its own checks, or NetworkManager's.
///
/// ```swift
/// let probing = ConnectivityMonitor(monitor: .shared, source: .probe(try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")))
/// let quiet = ConnectivityMonitor(monitor: .shared, source: .networkManager)  // sends nothing
/// ```
public enum ConnectivitySource: Sendable, Hashable {
  /// Checks of its own, with this probe: traffic to the probe's URL (see ``ConnectivityMonitor``).
  case probe(ConnectivityProbe)
  /// NetworkManager's own connectivity check of the machine (its D-Bus `Connectivity` property, followed on its
  /// signals), on Linux: no traffic of NetStatus's own. The state is ``ConnectivityState/unknown`` where
  /// NetworkManager cannot be reached (`netstatus show --all` says why), for a
  /// monitor of another network namespace than the process's (NetworkManager manages the host's) or of a process
  /// whose namespace is not, or cannot be shown to be, the one NetworkManager manages, and on other platforms; ``ConnectivityState/noPath`` while the path is not satisfied. NetworkManager reports a portal without
  /// its address. Where both a probe and NetworkManager could be used, choose ``probe(_:)``: a probe is the
  /// authority on the path it checks.
  case networkManager
}
