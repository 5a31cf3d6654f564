#if canImport(NetStatusLinuxSource)
  import NetStatusLinuxSource
#endif

#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  /// The Linux probe transport: each exchange runs on a short-lived thread of its own which, when the
  /// monitor watches a network namespace, enters it first (`setns`), so that the socket is created there.
  ///
  /// Cancelling the calling task wakes the thread through an eventfd in its `poll(2)` set and returns at
  /// once; the thread closes its socket and ends on its own. The probe's timeout bounds a host-name lookup
  /// too (see ``BoundedHostLookup``). In a named namespace with its own `/etc/netns/NAME/resolv.conf`, host
  /// names are resolved as `ip netns exec` would (see ``NamespaceResolver``).
  struct SocketProbeTransport: ProbeTransport {
    // Made with the memberwise initializer, `init(namespace:limits:lookUp:)`: the properties' order is its arguments'.

    /// The namespace to create sockets in, or `nil` for the process's own.
    var namespace: NetworkNamespace?
    /// The bytes an answer may take; the probe's limits unless a test gives others.
    var limits = HTTPResponseParser.Limits()
    /// How host names are looked up: `getaddrinfo(3)`, unless a test gives another.
    var lookUp: HTTPProbeConnection.HostLookup = HTTPProbeConnection.systemLookUp

    var separatesFamilies: Bool { true }

    func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?) async -> ProbeExchange {
      await exchange(probe, interface: interface, family: nil)
    }

    func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily) async -> ProbeExchange {
      await exchange(probe, interface: interface, family: Optional(family))
    }

    /// One exchange, connecting to the host's addresses of `family` only, or to all of them.
    private func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily?) async
      -> ProbeExchange
    {
      let operation = ProbeOperation(transport: self, probe: probe, interface: interface, family: family)
      return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in operation.start(continuation) }
      } onCancel: {
        operation.cancel()
      }
    }
  }

  /// One exchange on its own thread (named `netstatus-probe`), and the hand-over of its result to the
  /// waiting task.
  final class ProbeOperation: Sendable {
    /// The name of every probe thread, as `/proc/PID/task/TID/comm` shows it.
    static let threadName = "netstatus-probe"

    private struct State: ~Copyable {
      var continuation: CheckedContinuation<ProbeExchange, Never>?
      var cancelled = false
      /// The eventfd that wakes the thread; `nil` before the thread starts and once closed (by ``finish(_:)``, under
      /// the lock that ``cancel()`` signals it under, so never signalled once closed).
      var wake: EventFD?
      var threadRunning = false
    }

    /// Where and how: the namespace, the limits of an answer, the host-name lookup.
    let transport: SocketProbeTransport
    let probe: ConnectivityProbe
    let interface: NetworkInterface?
    /// The only family to connect over, or `nil` for any.
    let family: IPFamily?
    private let state = Mutex(State())
    private let clock = ContinuousClock()
    private let started = ContinuousClock.now

    /// An exchange of `probe` over `interface` (and `family`, if given), made as `transport` says.
    init(transport: SocketProbeTransport, probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily?) {
      self.transport = transport
      self.probe = probe
      self.interface = interface
      self.family = family
    }

    /// Starts the thread, which resumes `continuation` (unless a cancellation does first).
    func start(_ continuation: CheckedContinuation<ProbeExchange, Never>) {
      var wake: EventFD?
      do throws(NetworkMonitorError) {
        wake = try EventFD.opened()
      } catch {
        continuation.resume(returning: exchange(.failed(.local(error.description))))
        return
      }
      let proceed = state.withLockedValue { state -> Bool in
        guard !state.cancelled else { return false }
        state.continuation = continuation
        state.wake = wake.take()
        state.threadRunning = true
        return true
      }
      guard proceed else {
        wake?.close()
        continuation.resume(returning: exchange(.failed(.cancelled)))
        return
      }
      do throws(SystemCallError) {
        try POSIXThread.detach(name: Self.threadName) { self.run() }
      } catch {
        finish(.failed(.local(NetworkMonitorError(error).description)))
      }
    }

    /// Wakes the thread and hands `cancelled` to the waiting task now.
    func cancel() {
      let waiting = state.withLockedValue { state -> CheckedContinuation<ProbeExchange, Never>? in
        state.cancelled = true
        if let wake = state.wake.take() {
          try? wake.signal()
          state.wake = consume wake
        }
        return state.continuation.take()
      }
      waiting?.resume(returning: exchange(.failed(.cancelled)))
    }

    /// The thread's body.
    private func run() {
      // Closed only by this thread's finish(_:), after the connection is done with it.
      let wakeFD = state.withLockedValue { $0.wake?.rawValue ?? -1 }
      let namespace = transport.namespace
      if let namespace {
        do throws(NetworkMonitorError) {
          let handle = try namespace.open()
          defer { SystemCall.close(handle.fd) }
          try NetworkNamespace.enter(handle, path: namespace.path)
        } catch {
          finish(.failed(.local(error.description)))
          return
        }
      }
      var connection = HTTPProbeConnection(
        endpoint: probe.endpoint, interface: interface, timeout: probe.timeout, wakeFD: wakeFD)
      connection.lookUp = transport.lookUp
      connection.limits = transport.limits
      connection.family = family
      // Looked for at each check, as `ip netns exec` looks at each run.
      connection.namespaceResolver = namespace.flatMap(NamespaceResolver.forNamespace)
      let outcome = connection.run()
      var report = exchange(
        outcome.result, boundInterface: outcome.boundInterface, bindingProblem: outcome.bindingProblem)
      report.cpuTime = Self.threadCPUTime()
      finish(report)
    }

    /// The CPU time the calling thread has used so far.
    private static func threadCPUTime() -> Duration? {
      var time = timespec()
      guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return nil }
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Hands a failure over (unless cancelled already) and closes the wake descriptor.
    private func finish(_ result: ProbeExchange.Result) {
      finish(exchange(result))
    }

    /// Hands the report over (unless cancelled already) and closes the wake descriptor.
    private func finish(_ report: ProbeExchange) {
      let waiting = state.withLockedValue { state -> CheckedContinuation<ProbeExchange, Never>? in
        state.wake.take()?.close()
        state.threadRunning = false
        return state.continuation.take()
      }
      waiting?.resume(returning: report)
    }

    private func exchange(_ result: ProbeExchange.Result, boundInterface: String? = nil, bindingProblem: String? = nil)
      -> ProbeExchange
    {
      ProbeExchange(
        result: result, boundInterface: boundInterface, bindingProblem: bindingProblem, duration: clock.now - started)
    }
  }
#endif
