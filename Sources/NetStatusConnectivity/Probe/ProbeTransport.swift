/// Carries out one probe exchange over the network: the seam between the ``ConnectivityMonitor`` and
/// sockets, so that tests can supply their own.

#if canImport(NetStatusLinuxSource)
  import NetStatusLinuxSource
#endif

package protocol ProbeTransport: Sendable {
  /// Fetches the probe's URL once, over `interface` when given (the path's preferred interface), and reports what
  /// came back.
  ///
  /// What "over `interface`" binds differs by platform: on Linux the socket is bound to the interface by name
  /// (`SO_BINDTODEVICE`, see `Linux/HTTPProbeConnection.swift`); on Apple platforms the connection is bound to the
  /// interface itself (`NWParameters.requiredInterface`) when the monitor's source is `NWPathMonitor`'s, which knows
  /// Network's own interface, and restricted to the interface's type otherwise (`NWParameters.requiredInterfaceType`,
  /// see `Apple/NWConnectionProbeTransport.swift`).
  ///
  /// Returns promptly with ``ProbeFailure/cancelled`` when the calling task is cancelled.
  func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?) async -> ProbeExchange

  /// Whether ``exchange(_:interface:family:)`` connects over the one family it is given: only then does a
  /// ``ConnectivityMonitor`` check each family on its own.
  var separatesFamilies: Bool { get }

  /// As ``exchange(_:interface:)``, connecting only to the host's addresses of `family` (its A or AAAA records).
  func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily) async -> ProbeExchange
}

extension ProbeTransport {
  /// A transport that cannot restrict a connection to one family makes one check that stands for both.
  package var separatesFamilies: Bool { false }

  /// The family-blind exchange, for a transport that does not separate families.
  package func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily) async
    -> ProbeExchange
  {
    await exchange(probe, interface: interface)
  }
}

/// The transport a ``ConnectivityMonitor`` uses for `monitor`: TCP sockets on Linux, created inside the
/// network namespace the monitor's source says it watches (``PathSource/networkNamespacePath``); Network's
/// `NWConnection` on Apple platforms but watchOS.
func makeDefaultProbeTransport(for monitor: NetworkMonitor) -> any ProbeTransport {
  #if os(Linux)
    return SocketProbeTransport(namespace: monitor.source.networkNamespacePath.map(NetworkNamespace.init(path:)))
  #elseif os(watchOS)
    return UnsupportedProbeTransport(reason: UnsupportedProbeTransport.watchOS)
  #elseif canImport(Network)
    return NWConnectionProbeTransport(following: monitor.source)
  #else
    return UnsupportedProbeTransport()
  #endif
}

/// A transport for platforms without one: every check is ``ConnectivityState/unknown``, and nothing is sent.
struct UnsupportedProbeTransport: ProbeTransport {
  /// Why watchOS has none: what DefaultPathSource.swift says of `NWPathMonitor` holds for `NWConnection` too.
  static let watchOS =
    "watchOS lets an app use the Network framework only while it streams audio or runs a call (Apple's TN3135)"

  /// Why there is no transport, as each check's detail says.
  var reason = "NetStatus has no probe transport on this platform"

  func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?) async -> ProbeExchange {
    ProbeExchange(result: .failed(.local(reason)), boundInterface: nil, bindingProblem: nil, duration: .zero)
  }
}
