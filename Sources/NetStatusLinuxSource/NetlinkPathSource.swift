#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import Dispatch
  import CNetStatusShim
  import Glibc

  /// The Linux path source: the kernel's own routing decision, through rtnetlink.
  ///
  /// Not public: an app reaches it through ``NetworkMonitor/init()`` and
  /// ``NetworkMonitor/init(networkNamespace:requiredInterfaceType:prohibitedInterfaceTypes:)``, which always choose
  /// the namespace's resolver configuration and, for the process's own namespace, apply NetworkManager's metered view:
  /// one answer however the monitor is made.
  ///
  /// Event-driven: one NETLINK_ROUTE socket per session subscribed to link, address, route, rule and nexthop
  /// changes, and inotify on the resolver configuration's folders; one thread serves every session of the process
  /// (`netstatus-rtnl`, over `epoll`). Links and addresses are mirrored; routes are not: after a relevant
  /// change the source asks the kernel's route lookup (what `ip route get` asks) on the same socket. An idle
  /// source makes no system calls. The
  /// README's "How it works" says what the kernel decides and what NetStatus adds.
  ///
  /// `start(filter:sink:)` returns only after the initial dump: the first path has been sent to the sink,
  /// on the caller's thread, by then. Later paths are sent from the session's thread, in order, only when
  /// the path changed.
  package final class NetlinkPathSource: PathSource {
    /// Settings this package's tests and benchmarks change (the other half of ``TestHooks``); the package
    /// initializers use the defaults.
    package struct Options: Sendable {
      /// The defaults.
      package init() {}

      /// The receive buffer to ask for. Large, so that bursts of changes are not lost; tests make it tiny
      /// to force ENOBUFS.
      var receiveBufferSize = 4 * 1024 * 1024
      /// systemd-resolved's upstream list, followed when resolv.conf points at its stub.
      package var resolvedUpstreamPath = ResolverConfiguration.systemdResolvedUpstreamPath
      /// Whether to keep a copy of the kernel state after each recomputation, for tests.
      var recordsKernelState = false
      /// For tests: the rtnetlink thread runs the session only once this is signalled, after the first path, so a
      /// test can make changes pile up in the socket (and overflow a tiny buffer) deterministically.
      var eventGate: DispatchSemaphore?
      /// For tests: told of every new ``NetlinkPathSource/networkd`` status, on the thread that read it.
      package var networkdObserver: (@Sendable (NetworkdStatus) -> Void)?
      /// Told of the links and their addresses whenever they change (and once at start), on the thread that
      /// read the change: `netstatus wait --interface` judges each link's operational state from them.
      package var linkObserver: (@Sendable ([LinkInventory.Link]) -> Void)?
      /// How long a session waits for the kernel's answer (a lookup's, a dump's next part) before it asks again.
      package var replyTimeoutMilliseconds = InitialDump.replyTimeoutMilliseconds
      /// For tests and benchmarks: once started, the session's requests (lookups, dumps) go unsent, as if the kernel
      /// never answered them.
      package var swallowsRequestsAfterStart = false
      /// The generic netlink family and multicast group a Wi-Fi link's signal is read from: nl80211's, and its
      /// `mlme` group; tests of the socket on a kernel without nl80211 name another family.
      package var wirelessFamilyName = NL80211.familyName
      package var wirelessGroupName = NL80211.mlmeGroupName
      /// For tests: links of these names are followed as Wi-Fi links by the nl80211 reading, whatever their type (a
      /// veth, the only link a test can make, is never Wi-Fi). Their paths are rated as their type says.
      package var followedAsWiFi: Set<String> = []
    }

    let namespace: NetworkNamespace?
    let sysfsRoot: String
    let resolverConfigurationPath: String
    let options: Options
    let shared: NetlinkSourceRecord
    /// systemd-networkd's per-link state as the sessions read it (NetworkdLinkWatcher.swift).
    let networkdRecord: NetworkdRecord

    /// A source for the host's network namespace, reading `/sys` and `/etc/resolv.conf`.
    package convenience init() {
      self.init(
        namespace: nil, sysfsRoot: "/sys", resolverConfigurationPath: "/etc/resolv.conf", networkdRoot: nil,
        options: Options())
    }

    /// A source for a network namespace, or for the process's own when `networkNamespace` is `nil`.
    ///
    /// - Parameters:
    ///   - networkNamespace: A name as `ip netns` uses it (`/run/netns/NAME`), or the path of a namespace
    ///     file such as `/proc/PID/ns/net`. Checked now. Sessions end with
    ///     ``NetworkMonitorError/namespaceDeleted(path:)`` when the name is deleted or, for `/proc/PID/ns/net`,
    ///     when process PID exits.
    ///   - sysfsRoot: Where sysfs is mounted, for classifying interfaces. sysfs shows the namespace that
    ///     mounted it; for another namespace, entries are used only when their index and MAC address match.
    ///   - resolverConfigurationPath: The resolver configuration giving ``NetworkPath/supportsDNS``. For a
    ///     namespace made with `ip netns`, that may be `/etc/netns/NAME/resolv.conf`; for `/proc/PID/ns/net`,
    ///     `/proc/PID/root/etc/resolv.conf`. The monitor's initializer chooses so:
    ///     ``NetworkMonitor/init(networkNamespace:requiredInterfaceType:prohibitedInterfaceTypes:)``.
    ///   - networkdRoot: Where systemd-networkd keeps its state (``networkd``). `nil`: `/run/systemd/netif` for the
    ///     process's own namespace, none for another (networkd manages the host's links).
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` or
    ///   ``NetworkMonitorError/namespaceNotEnterable(path:errno:)``.
    package convenience init(
      networkNamespace: String? = nil, sysfsRoot: String = "/sys",
      resolverConfigurationPath: String = "/etc/resolv.conf", networkdRoot: String? = nil
    ) throws(NetworkMonitorError) {
      try self.init(
        networkNamespace: networkNamespace, sysfsRoot: sysfsRoot, resolverConfigurationPath: resolverConfigurationPath,
        networkdRoot: networkdRoot, options: Options())
    }

    /// The initializer tests and benchmarks use, with options.
    package convenience init(
      networkNamespace: String?, sysfsRoot: String = "/sys", resolverConfigurationPath: String = "/etc/resolv.conf",
      networkdRoot: String? = nil, options: Options
    ) throws(NetworkMonitorError) {
      let namespace = try networkNamespace.map { name throws(NetworkMonitorError) in try NetworkNamespace(name) }
      self.init(
        namespace: namespace, sysfsRoot: sysfsRoot, resolverConfigurationPath: resolverConfigurationPath,
        networkdRoot: networkdRoot, options: options)
    }

    init(
      namespace: NetworkNamespace?, sysfsRoot: String, resolverConfigurationPath: String, networkdRoot: String?,
      options: Options
    ) {
      self.namespace = namespace
      self.sysfsRoot = sysfsRoot
      self.resolverConfigurationPath = resolverConfigurationPath
      self.options = options
      self.shared = NetlinkSourceRecord(recordsKernelState: options.recordsKernelState)
      self.networkdRecord = NetworkdRecord(
        root: networkdRoot ?? NetworkdRecord.defaultRoot(ownNamespace: namespace == nil),
        unused: NetworkdRecord.unusedReason(ownNamespace: namespace == nil),
        observer: options.networkdObserver)
    }

    /// Whether systemd-networkd's per-link state is in use, or why not, and what it says about each link.
    ///
    /// Where networkd runs (for the process's own namespace), each session reads its state files
    /// (`/run/systemd/netif/links/IFINDEX`) and follows them with inotify, with no thread or polling of its own. The
    /// path stays the kernel's answer; this adds what networkd thinks of each link (its operational and online state,
    /// whether it is required for online, the captive-portal URL its network advertised), which `netstatus show
    /// --all` prints and a ``ConnectivityMonitor`` uses for a portal's address.
    package var networkd: NetworkdStatus { networkdRecord.status }

    /// The namespace file the source watches (`/run/netns/NAME` for a name), or `nil` for the process's own
    /// namespace. A ``ConnectivityMonitor`` of a monitor with this source probes from inside it.
    package var networkNamespacePath: String? { namespace?.path }

    /// What the source has done so far, across its sessions: dumps, lookups, and every loss and re-sync.
    ///
    /// No loss is silent: when the kernel drops notifications (its receive buffer overflowed) or a dump is
    /// interrupted, the source dumps again and counts it here.
    ///
    /// ```swift
    /// let source = NetlinkPathSource()
    /// let monitor = NetworkMonitor(source: source)
    /// monitor.start()
    /// // later
    /// if source.statistics.overflows > 0 { print("re-synced \(source.statistics.resyncs) times") }
    /// ```
    package var statistics: NetlinkSourceStatistics { shared.withLock { $0.statistics } }

    /// What this package's tests read from a running source; none of it is API.
    package struct TestHooks: Sendable {
      fileprivate let shared: NetlinkSourceRecord

      /// The port ID (`nl_pid`) of the netlink socket the latest session opened last: where a spoofer would send.
      package var portID: UInt32? { shared.withLock { $0.portID } }

      /// The port ID lookup answers go to (the same socket, since lookups share it): where a forged answer would
      /// go.
      package var lookupPortID: UInt32? { shared.withLock { $0.lookupPortID } }

      /// The kernel state after the last recomputation, when ``Options/recordsKernelState`` is set.
      var recordedKernelState: KernelState? { shared.withLock { $0.kernelState } }
    }

    /// What this package's tests read from a running source (``Options`` holds what they set).
    package var testHooks: TestHooks { TestHooks(shared: shared) }

    /// Starts a session: subscribes inside the namespace, dumps links and addresses, asks the first lookups,
    /// and hands the session to the process's one rtnetlink thread (`netstatus-rtnl`), which follows changes.
    ///
    /// Returns once the first path has been sent to `sink` on the calling thread. Later paths come from the
    /// rtnetlink thread (`netstatus-rtnl`), shared by every session of the process.
    package func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let handle = try namespace?.open()
      let reservation: NetlinkEventHub.Reservation
      do throws(NetworkMonitorError) {
        reservation = try NetlinkEventHub.shared.reserve()
      } catch {
        if let handle { SystemCall.close(handle.fd) }
        throw error
      }
      let control = NetlinkSessionControl()
      let worker = NetlinkSessionWorker(
        configuration: NetlinkSessionWorker.Configuration(
          namespace: namespace, namespaceHandle: handle, classifier: InterfaceClassifier(sysfsRoot: sysfsRoot),
          resolverConfigurationPath: resolverConfigurationPath, resolvedUpstreamPath: options.resolvedUpstreamPath,
          receiveBufferSize: options.receiveBufferSize, replyTimeoutMilliseconds: options.replyTimeoutMilliseconds,
          filter: filter,
          networkd: networkdRecord.status.root.map { NetworkdLinkWatcher(root: $0, record: networkdRecord) },
          linkObserver: options.linkObserver,
          wireless: WirelessSignalTracker(familyName: options.wirelessFamilyName, groupName: options.wirelessGroupName),
          followedAsWiFi: options.followedAsWiFi),
        sink: sink, control: control, shared: shared, reservation: reservation)
      let path: NetworkPath
      do throws(NetworkMonitorError) {
        path = try worker.startUp()  // closes the namespace handle
      } catch {
        worker.close()
        NetlinkEventHub.shared.cancel(reservation)
        throw error
      }
      NetlinkEventHub.shared.register(reservation, client: worker)
      sink.send(path)
      shared.withLock {
        $0.statistics.sessionsStarted += 1
        $0.statistics.pathsSent += 1
      }
      worker.useHubBuffer(swallowsRequests: options.swallowsRequestsAfterStart)
      let session = NetlinkPathSession(reservation: reservation, control: control)
      if let gate = options.eventGate {
        // Tests: the hub's thread leaves the session alone until the gate opens, so changes pile up in its socket.
        do throws(SystemCallError) {
          try POSIXThread.detach(name: "netstatus-gate") {
            gate.wait()
            Self.activate(worker, control: control, sink: sink)
          }
        } catch {
          session.stop()
          throw NetworkMonitorError(error)
        }
      } else {
        Self.activate(worker, control: control, sink: sink)
      }
      return session
    }

    /// Hands the session to the event loop; if epoll refuses it (out of memory), the session ends with that
    /// failure, as if it had failed right after its first path.
    private static func activate(_ worker: NetlinkSessionWorker, control: NetlinkSessionControl, sink: PathSink) {
      do throws(NetworkMonitorError) {
        try NetlinkEventHub.shared.activate(worker.reservation)
      } catch {
        if !control.isStopRequested { sink.fail(error) }
      }
    }
  }

  /// A running ``NetlinkPathSource`` session: its place in the rtnetlink event loop.
  final class NetlinkPathSession: PathSourceSession {
    private let reservation: NetlinkEventHub.Reservation
    private let control: NetlinkSessionControl

    init(reservation: NetlinkEventHub.Reservation, control: NetlinkSessionControl) {
      self.reservation = reservation
      self.control = control
    }

    /// Blocks until the session's descriptors are closed (after `stop()`, or after it failed), or until `timeout`
    /// passed. For tests, which fail on `false` instead of hanging.
    ///
    /// - Returns: Whether the session was closed in time.
    func waitUntilClosed(timeout: Duration) -> Bool {
      NetlinkEventHub.shared.awaitClose(reservation, timeout: timeout)
    }

    /// Stops the session: nothing is sent to its sink after this returns, and its descriptors are closed. A second
    /// stop does nothing.
    ///
    /// Called from the rtnetlink thread while this session's sink runs (a sink that stops its own session),
    /// it cannot wait for itself: the loop closes the session once the sink returns, and the session sends nothing
    /// more meanwhile.
    func stop() {
      if reservation.loop.isCurrentThread { control.isStopRequested = true }
      NetlinkEventHub.shared.stop(reservation)
    }
  }
#endif
