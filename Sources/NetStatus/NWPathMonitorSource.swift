#if canImport(Network)
  import Dispatch
  import Network

  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network, for the tests
  // (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatus
  #endif

  /// The path source on Apple platforms: Network's `NWPathMonitor`.
  ///
  /// Each start creates a new `NWPathMonitor` (a cancelled one cannot be restarted), set up with the monitor's
  /// interface filter, its handler set before `start(queue:)`, on a serial queue of its own. Each `NWPath` is copied
  /// into a ``NetworkPath`` on that queue; nothing else touches Network types. Stopping cancels the monitor; no path
  /// is sent once ``PathSourceSession/stop()`` has returned, even one the system had already queued, except one whose
  /// send had already begun on the queue (the ``NetworkMonitor`` drops it).
  struct NWPathMonitorSource: PathSource {
    /// Makes the `NWPathMonitor` for a start; the seam through which tests watch the monitors.
    let makeMonitor: @Sendable (InterfaceFilter) -> NWPathMonitor

    /// Creates the source NetStatus uses by default on Apple platforms.
    init() {
      self.init(makeMonitor: NWPathMonitorSource.monitor(for:))
    }

    /// Creates a source that makes its monitors with `makeMonitor`.
    init(makeMonitor: @escaping @Sendable (InterfaceFilter) -> NWPathMonitor) {
      self.makeMonitor = makeMonitor
    }

    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let monitor = makeMonitor(filter)
      let session = Session(monitor: monitor)
      // The handler is set before the monitor starts, so that the first path is not missed. It holds the session
      // weakly: the session holds the monitor, and a monitor may keep its handler after `cancel()`; a strong
      // reference would be a cycle that outlives the stop.
      monitor.pathUpdateHandler = { [weak session] path in
        session?.deliver(NWPathMonitorSource.networkPath(from: path), to: sink)
      }
      monitor.start(queue: DispatchQueue(label: "NetStatus.NWPathMonitor"))
      return session
    }

    /// A running `NWPathMonitor`.
    ///
    /// `@unchecked Sendable` because `NWPathMonitor` may not be declared `Sendable`: after `start(queue:)` the
    /// session only calls the monitor's `cancel()`, which Network lets any thread call, and guards its own flag
    /// with a lock.
    final class Session: PathSourceSession, @unchecked Sendable {
      private let monitor: NWPathMonitor
      private let stopped = Locked(false)

      init(monitor: NWPathMonitor) {
        self.monitor = monitor
      }

      /// A session dropped without ``stop()`` (the monitor always stops it first) still cancels its monitor.
      deinit {
        stop()
      }

      /// Sends `path` unless the session has stopped, so that a path the system had queued before the monitor was
      /// cancelled is dropped. The decision is made under the lock and the path sent outside it: the sink may stop
      /// the session from inside the send (a synchronous subscriber, a `pathPublisher` subscriber without
      /// `receive(on:)`, the monitor's last reference dropped), and that locks again. A send that began before
      /// ``stop()`` may end after it; the ``NetworkMonitor`` drops it (its generation is over).
      func deliver(_ path: NetworkPath, to sink: PathSink) {
        let running = stopped.withLockedValue { !$0 }
        if running { sink.send(path) }
      }

      func stop() {
        let wasStopped = stopped.withLockedValue { stopped in
          defer { stopped = true }
          return stopped
        }
        if !wasStopped { monitor.cancel() }
      }
    }

    // MARK: Translation

    /// The monitor for a filter: `NWPathMonitor(requiredInterfaceType:)`, `NWPathMonitor(prohibitedInterfaceTypes:)`
    /// or `NWPathMonitor()`. `NWPathMonitor` takes one or the other; the required type wins, and the
    /// ``NetworkMonitor`` applies the whole filter to every path in any case.
    static func monitor(for filter: InterfaceFilter) -> NWPathMonitor {
      if let required = filter.requiredInterfaceType {
        return NWPathMonitor(requiredInterfaceType: nwInterfaceType(required))
      }
      if !filter.prohibitedInterfaceTypes.isEmpty {
        let prohibited = InterfaceType.allCases.filter(filter.prohibitedInterfaceTypes.contains)
        return NWPathMonitor(prohibitedInterfaceTypes: prohibited.map(nwInterfaceType))
      }
      return NWPathMonitor()
    }

    /// Copies an `NWPath` into a ``NetworkPath``: status and reason, interfaces in order of preference, cost,
    /// address families, DNS and gateways.
    static func networkPath(from path: NWPath) -> NetworkPath {
      let status: NetworkPath.Status
      switch path.status {
      case .satisfied: status = .satisfied
      case .unsatisfied: status = .unsatisfied
      case .requiresConnection: status = .requiresConnection
      @unknown default: status = .unsatisfied
      }
      // `unsatisfiedReason` needs macOS 11, iOS 14.2, tvOS 14.2, watchOS 7.1: below NetStatus's deployment targets
      // (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2), so no `#available` check, which would only warn.
      let reason = status == .satisfied ? nil : unsatisfiedReason(path.unsatisfiedReason)
      return NetworkPath(
        status: status,
        unsatisfiedReason: reason,
        availableInterfaces: path.availableInterfaces.map {
          NetworkInterface(name: $0.name, index: $0.index, type: interfaceType($0.type))
        },
        isExpensive: path.isExpensive,
        isConstrained: path.isConstrained,
        supportsIPv4: path.supportsIPv4,
        supportsIPv6: path.supportsIPv6,
        supportsDNS: path.supportsDNS,
        gateways: path.gateways.compactMap(gatewayAddress)
      )
    }

    /// The reason's NetStatus spelling. `vpnInactive` (iOS 17, macOS 14) is within the deployment targets; a reason
    /// added to Network later counts as `notAvailable`.
    static func unsatisfiedReason(_ reason: NWPath.UnsatisfiedReason) -> NetworkPath.UnsatisfiedReason {
      switch reason {
      case .notAvailable: return .notAvailable
      case .cellularDenied: return .cellularDenied
      case .wifiDenied: return .wifiDenied
      case .localNetworkDenied: return .localNetworkDenied
      case .vpnInactive: return .vpnInactive
      @unknown default: return .notAvailable
      }
    }

    /// NetStatus's interface type for Network's. A type added to Network later counts as `other`.
    static func interfaceType(_ type: NWInterface.InterfaceType) -> InterfaceType {
      switch type {
      case .wifi: return .wifi
      case .cellular: return .cellular
      case .wiredEthernet: return .wiredEthernet
      case .loopback: return .loopback
      case .other: return .other
      @unknown default: return .other
      }
    }

    /// Network's interface type for NetStatus's.
    static func nwInterfaceType(_ type: InterfaceType) -> NWInterface.InterfaceType {
      switch type {
      case .wifi: return .wifi
      case .cellular: return .cellular
      case .wiredEthernet: return .wiredEthernet
      case .loopback: return .loopback
      case .other: return .other
      }
    }

    /// The address of a gateway endpoint (`.hostPort`), as text; `nil` for other kinds of endpoint.
    static func gatewayAddress(_ endpoint: NWEndpoint) -> String? {
      guard case .hostPort(let host, _) = endpoint else { return nil }
      switch host {
      case .ipv4(let address): return address.debugDescription
      case .ipv6(let address): return address.debugDescription
      case .name(let name, _): return name
      @unknown default: return host.debugDescription
      }
    }
  }
#endif
