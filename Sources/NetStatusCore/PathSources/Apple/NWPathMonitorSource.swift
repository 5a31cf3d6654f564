#if canImport(Network)
  import Dispatch
  import Foundation
  import Network

  #if canImport(AppKit) && !targetEnvironment(macCatalyst) && !NETSTATUS_NETWORK_STAND_IN
    import AppKit
  #elseif canImport(UIKit) && !os(watchOS) && !NETSTATUS_NETWORK_STAND_IN
    import UIKit
  #endif

  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network, for the tests
  // (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatusCore
  #endif
  // IPAddressBytes; CocoaPods compiles it into this same module.
  #if canImport(NetStatusNetlink)
    import NetStatusNetlink
  #endif

  /// The path source on Apple platforms: Network's `NWPathMonitor`.
  ///
  /// Each start creates a new `NWPathMonitor` (a cancelled one cannot be restarted), set up with the monitor's
  /// interface filter, its handler set before `start(queue:)`, on a serial queue of the session's own. Each `NWPath`
  /// is copied into a ``NetworkPath`` on that queue; nothing else touches Network types. Stopping cancels the
  /// monitor; no path is sent once ``PathSourceSession/stop()`` has returned, except one whose send had already
  /// begun on the queue (the ``NetworkMonitor`` drops it: its generation is over).
  ///
  /// A monitor's paths can go stale across sleep and resume, so the session replaces its `NWPathMonitor` with a new
  /// one when the app returns to the foreground (iOS, iPadOS, tvOS, visionOS, Mac Catalyst) or the Mac wakes from
  /// sleep (macOS); the new monitor's first path is sent like any other, and the ``NetworkMonitor`` publishes it if
  /// it differs from the last.
  struct NWPathMonitorSource: PathSource {
    /// Makes the `NWPathMonitor` for a start or a renewal; the seam through which tests watch the monitors.
    let makeMonitor: @Sendable (InterfaceFilter) -> NWPathMonitor
    /// Calls its argument each time the system resumes (foreground, wake), until the function it returns is called;
    /// the seam through which tests resume.
    let observeResume: @Sendable (_ resumed: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// Creates the source NetStatus uses by default on Apple platforms.
    init() {
      #if NETSTATUS_NETWORK_STAND_IN
        self.init(makeMonitor: NWPathMonitorSource.monitor(for:))
      #else
        self.init(makeMonitor: NWPathMonitorSource.monitor(for:), observeResume: SystemResume.observe)
      #endif
    }

    /// Creates a source that makes its monitors with `makeMonitor` and renews them when `observeResume` says.
    init(
      makeMonitor: @escaping @Sendable (InterfaceFilter) -> NWPathMonitor,
      observeResume: @escaping @Sendable (_ resumed: @escaping @Sendable () -> Void) -> @Sendable () -> Void = { _ in
        {}
      }
    ) {
      self.makeMonitor = makeMonitor
      self.observeResume = observeResume
    }

    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let session = Session(filter: filter, sink: sink, makeMonitor: makeMonitor)
      session.startMonitor()
      session.keepObserving(observeResume { [weak session] in session?.renew() })
      return session
    }

    /// A running `NWPathMonitor`: `@unchecked Sendable` because `NWPathMonitor` may not be declared `Sendable`. After
    /// `start(queue:)` only its `cancel()` is called, which Network lets any thread call.
    final class RunningMonitor: @unchecked Sendable {
      let monitor: NWPathMonitor

      init(_ monitor: NWPathMonitor) {
        self.monitor = monitor
      }
    }

    /// The monitors of one start, one after another: the first, and one more after each resume.
    final class Session: PathSourceSession, Sendable {
      private struct State {
        var stopped = false
        /// The monitor whose paths are sent: the newest.
        var monitor: RunningMonitor?
        /// Which monitor that is; a path from an older one is dropped.
        var generation = 0
        /// Ends the observation of resumes.
        var endObservation: (@Sendable () -> Void)?
      }

      private let state = Locked(State())
      /// The queue of every monitor of the session, so that their paths and the renewals come one at a time.
      private let queue = DispatchQueue(label: "NetStatus.NWPathMonitor")
      private let filter: InterfaceFilter
      private let sink: PathSink
      private let makeMonitor: @Sendable (InterfaceFilter) -> NWPathMonitor

      init(
        filter: InterfaceFilter, sink: PathSink, makeMonitor: @escaping @Sendable (InterfaceFilter) -> NWPathMonitor
      ) {
        self.filter = filter
        self.sink = sink
        self.makeMonitor = makeMonitor
      }

      /// A session dropped without ``stop()`` (the monitor always stops it first) still cancels its monitor.
      deinit {
        stop()
      }

      /// Makes and starts a monitor that replaces the current one (which is cancelled), unless the session has
      /// stopped. The handler is set before the monitor starts, so that the first path is not missed. It holds the
      /// session weakly: the session holds the monitor, and a monitor may keep its handler after `cancel()`; a
      /// strong reference would be a cycle that outlives the stop.
      func startMonitor() {
        guard !state.withLockedValue({ $0.stopped }) else { return }
        let monitor = makeMonitor(filter)
        let replaced = state.withLockedValue { state -> RunningMonitor? in
          guard !state.stopped else { return nil }
          state.generation += 1
          let generation = state.generation
          monitor.pathUpdateHandler = { [weak self] path in
            self?.deliver(NWPathMonitorSource.networkPath(from: path), generation: generation)
          }
          // Under the lock, so that a stop cannot cancel the monitor before it starts; `start(queue:)` only
          // schedules work on the queue.
          monitor.start(queue: queue)
          defer { state.monitor = RunningMonitor(monitor) }
          return state.monitor
        }
        replaced?.monitor.cancel()
      }

      /// Replaces the monitor, on the session's queue (after any path already queued): the system has resumed.
      func renew() {
        queue.async { [weak self] in self?.startMonitor() }
      }

      /// Keeps `end`, which ends the observation of resumes, to call it on ``stop()``; calls it now if stopped.
      func keepObserving(_ end: @escaping @Sendable () -> Void) {
        let kept = state.withLockedValue { state -> Bool in
          guard !state.stopped else { return false }
          state.endObservation = end
          return true
        }
        if !kept { end() }
      }

      /// Sends `path` if it comes from the current monitor of a running session. The decision is made under the
      /// lock and the path sent outside it: the sink may stop the session from inside the send (a synchronous
      /// subscriber, a `pathPublisher` subscriber without `receive(on:)`), and that locks again.
      func deliver(_ path: NetworkPath, generation: Int) {
        let current = state.withLockedValue { !$0.stopped && $0.generation == generation }
        if current { sink.send(path) }
      }

      func stop() {
        let ended = state.withLockedValue { state -> (RunningMonitor?, (@Sendable () -> Void)?)? in
          guard !state.stopped else { return nil }
          state.stopped = true
          return (state.monitor.take(), state.endObservation.take())
        }
        guard let ended else { return }
        ended.1?()
        ended.0?.monitor.cancel()
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
      // (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1), so no `#available` check, which would only warn.
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
    ///
    /// Written from the address's bytes (``IPAddressBytes``, RFC 5952 for IPv6), not from Network's
    /// `debugDescription`, whose form is Network's to change: it writes a scoped link-local address with its
    /// interface, `fe80::1%en0`. NetStatus leaves the scope out, `fe80::1`, as the Linux source does: a gateway is an
    /// address, and the interface it is reached through is in ``NetworkPath/availableInterfaces``.
    static func gatewayAddress(_ endpoint: NWEndpoint) -> String? {
      guard case .hostPort(let host, _) = endpoint else { return nil }
      switch host {
      case .ipv4(let address): return IPAddressBytes(address.rawValue)?.description
      case .ipv6(let address): return IPAddressBytes(address.rawValue)?.description
      case .name(let name, _): return name
      @unknown default: return nil
      }
    }
  }

  #if !NETSTATUS_NETWORK_STAND_IN
    /// The system's resumes, as ``NWPathMonitorSource`` renews its monitor after them: the Mac waking from sleep
    /// (`NSWorkspace.didWakeNotification`, which only `NSWorkspace`'s own notification center posts), the app
    /// returning to the foreground (`UIApplication.willEnterForegroundNotification`, posted whether or not the app
    /// uses scenes). Neither on watchOS, where NetStatus does not use `NWPathMonitor` (DefaultPathSource.swift).
    enum SystemResume {
      /// Calls `resumed` on every resume until the returned function is called.
      static func observe(_ resumed: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        #if canImport(AppKit) && !targetEnvironment(macCatalyst)
          let observer = Observer(
            center: NSWorkspace.shared.notificationCenter, name: NSWorkspace.didWakeNotification, resumed)
          return { observer.end() }
        #elseif canImport(UIKit) && !os(watchOS)
          let observer = Observer(center: .default, name: UIApplication.willEnterForegroundNotification, resumed)
          return { observer.end() }
        #else
          return {}
        #endif
      }

      /// One observer of one notification. `@unchecked Sendable`: `NotificationCenter` may be used from any thread,
      /// and the observer token is only passed back to it.
      private final class Observer: @unchecked Sendable {
        private let center: NotificationCenter
        private let token: any NSObjectProtocol

        init(center: NotificationCenter, name: Notification.Name, _ resumed: @escaping @Sendable () -> Void) {
          self.center = center
          self.token = center.addObserver(forName: name, object: nil, queue: nil) { _ in resumed() }
        }

        func end() {
          center.removeObserver(token)
        }
      }
    }
  #endif
#endif
