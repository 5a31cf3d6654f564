/// Carries out one probe exchange over the network: the seam between the ``ConnectivityMonitor`` and
/// sockets, so that tests can supply their own.
protocol ProbeTransport: Sendable {
  /// Fetches the probe's URL once, bound to `interface` when given, and reports what came back.
  ///
  /// Returns promptly with ``ProbeFailure/cancelled`` when the calling task is cancelled.
  func exchange(_ probe: ConnectivityProbe, interface: String?) async -> ProbeExchange
}

/// The transport a ``ConnectivityMonitor`` uses for `monitor`: TCP sockets on Linux, created inside the
/// network namespace the monitor's source says it watches (``PathSource/networkNamespacePath``).
func makeDefaultProbeTransport(for monitor: NetworkMonitor) -> any ProbeTransport {
  #if os(Linux)
    return SocketProbeTransport(namespace: monitor.source.networkNamespacePath.map(NetworkNamespace.init(path:)))
  #else
    return UnsupportedProbeTransport()
  #endif
}

/// A transport for platforms without one: every check is ``ConnectivityState/unknown``, and nothing is sent.
struct UnsupportedProbeTransport: ProbeTransport {
  func exchange(_ probe: ConnectivityProbe, interface: String?) async -> ProbeExchange {
    ProbeExchange(
      result: .failed(.local("NetStatus has no probe transport on this platform yet")), boundInterface: nil,
      bindingProblem: nil, duration: .zero)
  }
}
