// Internet per address family: each family the path supports is checked on its own (ConnectivityScheduler.swift
// keeps a state per family; the overall state is the best of them).
extension ConnectivityMonitor {
  /// Whether the internet answers over IPv4: checked by connecting to the probe host's IPv4 (A) addresses only; `nil`
  /// when the path does not support IPv4 (``NetworkPath/supportsIPv4``), or no path is known.
  ///
  /// ```swift
  /// if connectivity.state.isFull, connectivity.ipv6State?.isFull == false { print("IPv6 is broken upstream") }
  /// ```
  ///
  /// Each family is checked on its own, on Linux and on Apple platforms but watchOS (which has no probe transport),
  /// where the `NWConnection` is restricted to the family's IP version. NetworkManager's connectivity
  /// (``ConnectivitySource/networkManager``) gives the `Ip4Connectivity` of the device of the path's interface in
  /// use (NetworkManager 1.16 and later), else its overall `Connectivity`. Where one check stands for both (a probe
  /// URL that is an IP address for the other family, which leaves this one ``ConnectivityState/unknown``), each
  /// supported family has that check's state. A settled monitor
  /// (``settled(offlineAfter:onlineAfter:clock:)``) gives the followed monitor's, unsettled.
  public var ipv4State: ConnectivityState? { families.ipv4 }

  /// Whether the internet answers over IPv6: checked by connecting to the probe host's IPv6 (AAAA) addresses only;
  /// `nil` when the path does not support IPv6 (``NetworkPath/supportsIPv6``), or no path is known. See ``ipv4State``.
  public var ipv6State: ConnectivityState? { families.ipv6 }

  /// Both families' states.
  package var families: FamilyConnectivity {
    let (own, followed) = locked.withLockedValue { ($0.currentFamilies, $0.settled?.upstream) }
    return followed?.families ?? own
  }

  /// Checks `path` once: each family it supports on its own when the transport can (in parallel, within the probe's
  /// one timeout each), else one check for both. The per-family check's state is the best of the families'.
  static func check(
    over path: NetworkPath, interface: NetworkInterface?, probe: ConnectivityProbe, transport: any ProbeTransport
  ) async -> ConnectivityCheck {
    let literal = IPFamily.ofLiteral(probe.endpoint)
    let wanted = IPFamily.allCases.filter { $0.isSupported(by: path) && (literal == nil || literal == $0) }
    guard transport.separatesFamilies, !wanted.isEmpty else {
      return check(await transport.exchange(probe, interface: interface), probe: probe)
    }
    let checks = await withTaskGroup(of: (IPFamily, ConnectivityCheck).self) { group in
      for family in wanted {
        group.addTask {
          (family, check(await transport.exchange(probe, interface: interface, family: family), probe: probe))
        }
      }
      var found: [IPFamily: ConnectivityCheck] = [:]
      for await (family, check) in group { found[family] = check }
      return found
    }
    var families = FamilyConnectivity()
    for family in IPFamily.allCases where family.isSupported(by: path) {
      families[family] = checks[family]?.state ?? .unknown
    }
    let ordered = IPFamily.allCases.compactMap { family in checks[family].map { (family, $0) } }
    // Every family asked for answers (a cancelled exchange too), so there is a first.
    guard let first = ordered.first?.1 else {
      return check(ProbeExchange(result: .failed(.cancelled), duration: .zero), probe: probe)
    }
    guard ordered.count > 1 else {
      var only = first
      only.families = families
      return only
    }
    var combined = ConnectivityCheck(
      state: families.best ?? .unknown,
      detail: ordered.map { "\($0.0.label): \($0.1.detail)" }.joined(separator: "; "),
      interface: first.interface, duration: ordered.map(\.1.duration).max() ?? .zero)
    combined.families = families
    return combined
  }
}

extension ConnectivityMonitor.State {
  /// The current per-family states: NetworkManager's per-family answers as last published, or the scheduler's. (A
  /// settled monitor's come from the monitor it follows: ``ConnectivityMonitor/families``.)
  var currentFamilies: FamilyConnectivity {
    switch mode {
    case .probing(_, let scheduler): scheduler.families
    case .networkManager(let follower): follower.publishedFamilies
    case .settled: FamilyConnectivity()
    }
  }
}
