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
  /// Every path `NWPathMonitor` delivers is sent as a change (``NetworkPath``'s "Changes": each carries a new
  /// ``PathObservation`` number), as Network's `path.h` says a new path means something changed even where no property
  /// shows it. The monitor's interface filter is `NWPathMonitor`'s own (`requiredInterfaceType`,
  /// `prohibitedInterfaceTypes`), and its paths are passed on as Network judged them: status and `isExpensive` are
  /// never derived again from interface types (a VPN path lists its tunnel first; a personal hotspot over Wi-Fi is
  /// expensive).
  ///
  /// A monitor's paths can go stale across sleep and resume, so the session replaces its `NWPathMonitor` with a new
  /// one when the app returns to the foreground (iOS, iPadOS, tvOS, visionOS, Mac Catalyst) or the Mac wakes from
  /// sleep (macOS). The new monitor's first path is a change only if it differs from the last one sent: it is the
  /// new monitor's starting point, not something that happened to the network.
  ///
  /// Each path's interfaces, as Network's own `NWInterface`s, are kept in the source's ``interfaces`` before the path
  /// is sent, so that the probe transport made for the monitor binds its connections to the path's interface itself
  /// (``NWConnectionProbeTransport/init(following:)``).
  ///
  /// No Network, UIKit or AppKit call is made while the session's lock is held.
  package struct NWPathMonitorSource: PathSource {
    /// Makes the `NWPathMonitor` for a start or a renewal; the seam through which tests watch the monitors.
    let makeMonitor: @Sendable (InterfaceFilter) -> NWPathMonitor
    /// Calls its argument each time the system resumes (foreground, wake), until the function it returns is called;
    /// the seam through which tests resume.
    let observeResume: @Sendable (_ resumed: @escaping @Sendable () -> Void) -> @Sendable () -> Void
    /// The interfaces of the latest path sent, shared by every copy of the source and each of its sessions.
    package let interfaces = NWInterfaceDirectory()

    /// `true`: `NWPathMonitor` applies the interface filter and judges status and cost itself; the monitor passes
    /// its paths on as the system judged them.
    package var appliesInterfaceFilter: Bool { true }

    /// Creates the source NetStatus uses by default on Apple platforms.
    package init() {
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

    package func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let session = Session(filter: filter, sink: sink, interfaces: interfaces, makeMonitor: makeMonitor)
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
        /// Whether the newest monitor replaced another and has not yet delivered its first path.
        var awaitingRenewedFirstPath = false
        /// The last path sent, with its observation number.
        var lastSent: NetworkPath?
        /// The number of the last observation sent (``PathObservation``).
        var observations: UInt64 = 0
        /// Ends the observation of resumes.
        var endObservation: (@Sendable () -> Void)?
      }

      private let state = Locked(State())
      /// The queue of every monitor of the session, so that their paths and the renewals come one at a time.
      private let queue = DispatchQueue(label: "NetStatus.NWPathMonitor")
      private let filter: InterfaceFilter
      private let sink: PathSink
      private let interfaces: NWInterfaceDirectory
      private let makeMonitor: @Sendable (InterfaceFilter) -> NWPathMonitor

      init(
        filter: InterfaceFilter, sink: PathSink, interfaces: NWInterfaceDirectory,
        makeMonitor: @escaping @Sendable (InterfaceFilter) -> NWPathMonitor
      ) {
        self.filter = filter
        self.sink = sink
        self.interfaces = interfaces
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
      ///
      /// The generation is taken under the lock, Network is called outside it, and the monitor is recorded under the
      /// lock again: a stop that came in between has already taken the previous monitor, so this one is cancelled
      /// here; its paths, of a generation no longer current once stopped, are dropped by ``deliver(_:generation:)``.
      func startMonitor() {
        let generation = state.withLockedValue { state -> Int? in
          guard !state.stopped else { return nil }
          state.generation += 1
          state.awaitingRenewedFirstPath = state.generation > 1
          return state.generation
        }
        guard let generation else { return }
        let monitor = makeMonitor(filter)
        monitor.pathUpdateHandler = { [weak self] path in
          self?.deliver(
            NWPathMonitorSource.networkPath(from: path), interfaces: path.availableInterfaces, generation: generation)
        }
        monitor.start(queue: queue)
        let running = RunningMonitor(monitor)
        let cancelled = state.withLockedValue { state -> [RunningMonitor] in
          guard !state.stopped, state.generation == generation else { return [running] }
          defer { state.monitor = running }
          return state.monitor.map { [$0] } ?? []
        }
        for old in cancelled { old.monitor.cancel() }
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

      /// Sends `path` if it comes from the current monitor of a running session, numbered as a new observation
      /// (``PathObservation``), unless it is a renewed monitor's first path and equal to the last one sent.
      /// The decision is made under the lock and the path sent outside it: the sink may stop the session from inside
      /// the send (a synchronous subscriber, a `pathPublisher` subscriber without `receive(on:)`), and that locks
      /// again. The path's `interfaces` (Network's) are kept in the source's ``NWInterfaceDirectory`` first, so that a
      /// check the path starts finds them.
      func deliver(_ path: NetworkPath, interfaces available: [NWInterface], generation: Int) {
        let numbered = state.withLockedValue { state -> NetworkPath? in
          guard !state.stopped, state.generation == generation else { return nil }
          var path = path
          if state.awaitingRenewedFirstPath, let last = state.lastSent {
            path.observation = last.observation
            if path.isRepeat(of: last) {
              state.awaitingRenewedFirstPath = false
              return path
            }
          }
          state.awaitingRenewedFirstPath = false
          state.observations += 1
          path.observation = PathObservation(number: state.observations)
          state.lastSent = path
          return path
        }
        guard let numbered else { return }
        interfaces.record(available, from: ObjectIdentifier(self))
        // A stop since the decision may have forgotten the interfaces before they were kept: a stopped session keeps
        // none.
        if state.withLockedValue({ $0.stopped }) { interfaces.forget(from: ObjectIdentifier(self)) }
        sink.send(numbered)
      }

      func stop() {
        let ended = state.withLockedValue { state -> (RunningMonitor?, (@Sendable () -> Void)?)? in
          guard !state.stopped else { return nil }
          state.stopped = true
          return (state.monitor.take(), state.endObservation.take())
        }
        guard let ended else { return }
        interfaces.forget(from: ObjectIdentifier(self))
        ended.1?()
        ended.0?.monitor.cancel()
      }
    }

    // MARK: Translation

    /// The monitor for a filter: `NWPathMonitor(requiredInterfaceType:)`, `NWPathMonitor(prohibitedInterfaceTypes:)`
    /// or `NWPathMonitor()`, which applies it itself (the ``NetworkMonitor`` passes its paths on unchanged). It takes
    /// one or the other: a required type makes the other types moot, unless it is prohibited too, and then every
    /// type is prohibited (no path can be satisfied, as the filter says).
    static func monitor(for filter: InterfaceFilter) -> NWPathMonitor {
      if let required = filter.requiredInterfaceType {
        if filter.prohibitedInterfaceTypes.contains(required) {
          return NWPathMonitor(prohibitedInterfaceTypes: InterfaceType.allCases.map(nwInterfaceType))
        }
        return NWPathMonitor(requiredInterfaceType: nwInterfaceType(required))
      }
      if !filter.prohibitedInterfaceTypes.isEmpty {
        let prohibited = InterfaceType.allCases.filter(filter.prohibitedInterfaceTypes.contains)
        return NWPathMonitor(prohibitedInterfaceTypes: prohibited.map(nwInterfaceType))
      }
      return NWPathMonitor()
    }

    /// Copies an `NWPath` into a ``NetworkPath``: status and reason, interfaces in order of preference, cost,
    /// address families, DNS, gateways, the VPN as a best effort (``vpn(of:)``), and from 26 on the link quality and
    /// whether the path is ultra-constrained (`readsLinkQuality`: whether this system's Network has them).
    static func networkPath(from path: NWPath, readsLinkQuality: Bool = networkHasLinkQuality) -> NetworkPath {
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
      let interfaces = path.availableInterfaces.map {
        NetworkInterface(name: $0.name, index: $0.index, type: interfaceType($0.type))
      }
      return NetworkPath(
        status: status,
        unsatisfiedReason: reason,
        availableInterfaces: interfaces,
        isExpensive: path.isExpensive,
        isConstrained: path.isConstrained,
        supportsIPv4: path.supportsIPv4,
        supportsIPv6: path.supportsIPv6,
        supportsDNS: path.supportsDNS,
        gateways: path.gateways.compactMap(gatewayAddress),
        vpn: vpn(of: interfaces),
        linkQuality: linkQuality(of: path, reads: readsLinkQuality),
        isUltraConstrained: isUltraConstrained(path, reads: readsLinkQuality)
      )
    }

    /// The reason's NetStatus spelling, or `nil` when Network gives none: its `.notAvailable` means "no reason
    /// given" (`nw_path_unsatisfied_reason_not_available`), not that no network is available. `vpnInactive`
    /// (iOS 17, macOS 14) is within the deployment targets; a reason added to Network later is no reason NetStatus
    /// knows, so `nil` too.
    static func unsatisfiedReason(_ reason: NWPath.UnsatisfiedReason) -> NetworkPath.UnsatisfiedReason? {
      switch reason {
      case .notAvailable: return nil
      case .cellularDenied: return .cellularDenied
      case .wifiDenied: return .wifiDenied
      case .localNetworkDenied: return .localNetworkDenied
      case .vpnInactive: return .vpnInactive
      @unknown default: return nil
      }
    }

    /// NetStatus's interface type for Network's. A type added to Network later counts as `other`.
    static func interfaceType(_ type: NWInterface.InterfaceType) -> InterfaceType {
      // The inverse of nwInterfaceType(_:), so that the two mappings cannot disagree.
      InterfaceType.allCases.first { nwInterfaceType($0) == type } ?? .other
    }

    /// Network's interface type for NetStatus's.
    package static func nwInterfaceType(_ type: InterfaceType) -> NWInterface.InterfaceType {
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
