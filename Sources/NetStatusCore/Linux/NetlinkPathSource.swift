#if os(Linux)
  import Dispatch
  import CNetStatusShim
  import Glibc

  /// The Linux path source: the kernel's own routing decision, through rtnetlink.
  ///
  /// Event-driven: one NETLINK_ROUTE socket subscribed to link, address, route, rule and nexthop changes, and
  /// inotify on the resolver configuration's folders, waited on with `poll(2)` by one thread per session.
  /// Links and addresses are mirrored; routes are not: after a relevant change the source asks the kernel's
  /// route lookup (what `ip route get` asks) on a second socket. An idle source makes no system calls. The
  /// README's "How it works" says what the kernel decides and what NetStatus adds.
  ///
  /// ```swift
  /// // Watch a namespace made with `ip netns add lab`:
  /// let source = try NetlinkPathSource(networkNamespace: "lab")
  /// let monitor = NetworkMonitor(source: source)
  /// ```
  ///
  /// `start(filter:sink:)` returns only after the initial dump: the first path has been sent to the sink,
  /// on the caller's thread, by then. Later paths are sent from the session's thread, in order, only when
  /// the path changed.
  public final class NetlinkPathSource: PathSource {
    /// Settings tests change; the public initializers use the defaults.
    struct Options: Sendable {
      /// The receive buffer to ask for. Large, so that bursts of changes are not lost; tests make it tiny
      /// to force ENOBUFS.
      var receiveBufferSize = 4 * 1024 * 1024
      /// systemd-resolved's upstream list, followed when resolv.conf points at its stub.
      var resolvedUpstreamPath = ResolverConfiguration.systemdResolvedUpstreamPath
      /// Whether to keep a copy of the kernel state after each recomputation, for tests.
      var recordsKernelState = false
      /// For tests: the event thread waits on this after the first path, before it reads any event, so a
      /// test can make changes pile up in the socket (and overflow a tiny buffer) deterministically.
      var eventGate: DispatchSemaphore?
    }

    let namespace: NetworkNamespace?
    let sysfsRoot: String
    let resolverConfigurationPath: String
    let options: Options
    let shared: NetlinkSourceRecord

    /// A source for the host's network namespace, reading `/sys` and `/etc/resolv.conf`.
    public convenience init() {
      self.init(namespace: nil, sysfsRoot: "/sys", resolverConfigurationPath: "/etc/resolv.conf", options: Options())
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
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` or
    ///   ``NetworkMonitorError/namespaceNotEnterable(path:errno:)``.
    public convenience init(
      networkNamespace: String? = nil, sysfsRoot: String = "/sys",
      resolverConfigurationPath: String = "/etc/resolv.conf"
    ) throws(NetworkMonitorError) {
      try self.init(
        networkNamespace: networkNamespace, sysfsRoot: sysfsRoot, resolverConfigurationPath: resolverConfigurationPath,
        options: Options())
    }

    /// The initializer tests use, with internal options.
    convenience init(
      networkNamespace: String?, sysfsRoot: String = "/sys", resolverConfigurationPath: String = "/etc/resolv.conf",
      options: Options
    ) throws(NetworkMonitorError) {
      let namespace = try networkNamespace.map { name throws(NetworkMonitorError) in try NetworkNamespace(name) }
      self.init(
        namespace: namespace, sysfsRoot: sysfsRoot, resolverConfigurationPath: resolverConfigurationPath,
        options: options)
    }

    init(namespace: NetworkNamespace?, sysfsRoot: String, resolverConfigurationPath: String, options: Options) {
      self.namespace = namespace
      self.sysfsRoot = sysfsRoot
      self.resolverConfigurationPath = resolverConfigurationPath
      self.options = options
      self.shared = NetlinkSourceRecord(recordsKernelState: options.recordsKernelState)
    }

    /// What the source has done so far (dumps, re-dumps, losses), across its sessions.
    var statistics: NetlinkSourceStatistics { shared.withLock { $0.statistics } }

    /// The port ID (`nl_pid`) of the netlink socket the latest session opened last: where a spoofer would send.
    var portID: UInt32? { shared.withLock { $0.portID } }

    /// The port ID of the lookup socket the latest session opened: where a forged lookup answer would go.
    var lookupPortID: UInt32? { shared.withLock { $0.lookupPortID } }

    /// The kernel state after the last recomputation, when ``Options/recordsKernelState`` is set.
    var recordedKernelState: KernelState? { shared.withLock { $0.kernelState } }

    /// Starts a session: a thread that enters the namespace (if any), subscribes, dumps, and then follows
    /// changes.
    ///
    /// Returns once the initial dump is done and the first path has been sent to `sink` on the calling
    /// thread. Later paths come from the session's thread.
    public func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let handle = try namespace?.open()
      let wakeFD: Int32
      do throws(NetworkMonitorError) {
        wakeFD = try SystemCall.run("eventfd") { eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)) }
      } catch {
        if let handle { SystemCall.close(handle.fd) }
        throw error
      }
      let control = NetlinkSessionControl(wakeFD: wakeFD)
      let loop = NetlinkEventLoop(
        configuration: NetlinkEventLoop.Configuration(
          namespace: namespace, namespaceHandle: handle, classifier: InterfaceClassifier(sysfsRoot: sysfsRoot),
          resolverConfigurationPath: resolverConfigurationPath, resolvedUpstreamPath: options.resolvedUpstreamPath,
          receiveBufferSize: options.receiveBufferSize, filter: filter, eventGate: options.eventGate),
        sink: sink, control: control, shared: shared)

      let thread: pthread_t
      do throws(NetworkMonitorError) {
        thread = try POSIXThread.start { loop.run() }
      } catch {
        SystemCall.close(wakeFD)
        if let handle { SystemCall.close(handle.fd) }
        throw error
      }

      control.ready.wait()
      switch control.state.withLockedValue({ $0.startup }) {
      case .ready(let path):
        sink.send(path)
        shared.withLock {
          $0.statistics.sessionsStarted += 1
          $0.statistics.pathsSent += 1
        }
        control.state.withLockedValue { $0.proceeding = true }
        control.proceed.signal()
        return NetlinkPathSession(thread: thread, control: control)
      case .failed(let error):
        pthread_join(thread, nil)
        SystemCall.close(wakeFD)
        throw error
      case nil:
        pthread_join(thread, nil)
        SystemCall.close(wakeFD)
        throw .sourceFailed("the rtnetlink thread ended without starting")
      }
    }
  }

  /// A running ``NetlinkPathSource`` session: its thread and its wake descriptor.
  final class NetlinkPathSession: PathSourceSession {
    private let thread: pthread_t
    private let control: NetlinkSessionControl

    init(thread: pthread_t, control: NetlinkSessionControl) {
      self.thread = thread
      self.control = control
    }

    /// Blocks until the session's thread has closed its descriptors (after `stop()`, or after it failed).
    /// For tests.
    func waitUntilThreadEnds() {
      control.finished.wait()
      control.finished.signal()
    }

    /// Wakes the thread, waits for it to end and closes the wake descriptor; the thread closed the rest.
    ///
    /// Called from the session's own thread (from the sink), it cannot wait for itself: the thread is
    /// detached, ends once the sink returns, and closes the wake descriptor itself.
    func stop() {
      let isSessionThread = pthread_equal(pthread_self(), thread) != 0
      let first = control.state.withLockedValue { state -> Bool in
        guard !state.stopRequested else { return false }
        state.stopRequested = true
        state.threadClosesWake = isSessionThread
        return true
      }
      guard first else { return }
      if isSessionThread {
        pthread_detach(thread)
        return
      }
      _ = eventfd_write(control.wakeFD, 1)
      pthread_join(thread, nil)
      SystemCall.close(control.wakeFD)
    }
  }
#endif
