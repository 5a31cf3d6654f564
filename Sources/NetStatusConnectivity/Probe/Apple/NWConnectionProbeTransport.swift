#if canImport(Network)
  import Dispatch
  import Foundation
  import Network

  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network that runs over
  // real sockets, for the tests (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatusCore
  #endif
  #if canImport(NetStatusSystem)
    import NetStatusSystem
  #endif
  // The path source whose interfaces a connection binds to (NWPathMonitorSource), a module of its own on a Mac.
  #if canImport(NetStatusAppleSource)
    import NetStatusAppleSource
  #endif

  /// The probe transport on Apple platforms: Network's `NWConnection`, carrying the project's own HTTP exchange (the
  /// request bytes and the judging of the answer are ``ProbeAnswerReader``'s, as on Linux).
  ///
  /// The limits are the Linux transport's: one deadline, the probe's timeout, over name resolution, connecting and
  /// the whole answer; the bytes and reads an answer may take (``HTTPResponseParser/Limits``); no redirect followed
  /// (the answer is judged as it is); and the server's text escaped where it is shown (``ConnectivityMonitor``).
  ///
  /// Binding: when the path names an interface, the connection is bound to that interface itself
  /// (`NWParameters.requiredInterface`) whenever Network's own `NWInterface` for it is known: the monitor's source is
  /// ``NWPathMonitorSource`` (directly, or behind a settled monitor), which keeps the latest path's `NWInterface`s
  /// (``NWInterfaceDirectory``), found here by the ``NetworkInterface``'s name and index. Otherwise (another source,
  /// such as a scripted one, or an interface the latest path no longer lists) it is restricted to the interface's
  /// *type* (`NWParameters.requiredInterfaceType`: Wi-Fi, cellular, wired Ethernet, loopback or other), and with two
  /// interfaces of one type the system chooses between them. An interface that goes away after it was looked up fails
  /// the connection, said as unreachable (``NWConnectionProbe/failure(_:host:family:)``). On Linux the socket is bound
  /// to the interface itself, by name (`SO_BINDTODEVICE`).
  ///
  /// Families: each is checked on its own, as on Linux. The connection's IP version is restricted to the family's
  /// (`NWProtocolIP.Options.version`, `.v4` or `.v6`, on the TCP parameters' default protocol stack), which Apple
  /// documents as "a required IP version that disables all other versions for a connection": it resolves and connects
  /// to the host's A or AAAA addresses only. A host without an address of that family is said as on Linux ("it has no
  /// IPv6 address"). ``exchange(_:interface:)`` leaves the version to Network (either family, happy eyeballs).
  ///
  /// A connection that cannot be made goes to `.waiting` (Network would wait for a better path): the check ends there,
  /// with what Network said (refused, unreachable, a name that does not resolve), as a refused `connect(2)` does on
  /// Linux. Cancelling the calling task cancels the connection at once.
  struct NWConnectionProbeTransport: ProbeTransport {
    /// Makes the connection: `NWConnection(host:port:using:)`, unless a test gives another.
    typealias MakeConnection = @Sendable (NWEndpoint.Host, NWEndpoint.Port, NWParameters) -> NWConnection

    /// The bytes and reads an answer may take; the probe's limits unless a test gives others.
    let limits: HTTPResponseParser.Limits
    /// Network's interfaces of the path source's latest path, to bind to exactly; `nil`: bind by type only.
    let interfaces: NWInterfaceDirectory?
    let makeConnection: MakeConnection

    init(
      limits: HTTPResponseParser.Limits = HTTPResponseParser.Limits(), interfaces: NWInterfaceDirectory? = nil,
      makeConnection: @escaping MakeConnection = { NWConnection(host: $0, port: $1, using: $2) }
    ) {
      self.limits = limits
      self.interfaces = interfaces
      self.makeConnection = makeConnection
    }

    /// The transport for a monitor whose source is `source`: it binds to the path's interface exactly when the source
    /// is an ``NWPathMonitorSource``, or follows a monitor whose source is one (a settled monitor's), and by type
    /// otherwise.
    init(following source: any PathSource) {
      self.init(interfaces: Self.interfaces(of: source))
    }

    /// The `NWInterface`s `source` keeps: an ``NWPathMonitorSource``'s, or those of the source it follows.
    static func interfaces(of source: any PathSource) -> NWInterfaceDirectory? {
      var source = source
      // A chain of settled monitors is finite: each follows one made before it.
      while true {
        if let system = source as? NWPathMonitorSource { return system.interfaces }
        guard let followed = source.followedSource else { return nil }
        source = followed
      }
    }

    var separatesFamilies: Bool { true }

    func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?) async -> ProbeExchange {
      await exchange(probe, interface: interface, family: nil)
    }

    func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily) async -> ProbeExchange {
      await exchange(probe, interface: interface, family: Optional(family))
    }

    /// One exchange, over `family` only, or over either.
    private func exchange(_ probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily?) async
      -> ProbeExchange
    {
      let operation = NWConnectionProbe(
        probe: probe, interface: interface, family: family, limits: limits, interfaces: interfaces)
      return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in operation.start(continuation, makeConnection: makeConnection) }
      } onCancel: {
        operation.finish(.failed(.cancelled))
      }
    }
  }

  /// One exchange over one `NWConnection`, and the hand-over of its result to the waiting task, exactly once: every
  /// ending (an answer, a failure, the deadline, a cancellation) is decided under the lock, and whichever comes first
  /// cancels the connection and resumes the task, outside it. No Network call is made with the lock held.
  final class NWConnectionProbe: Sendable {
    /// The connection. `@unchecked Sendable` because `NWConnection` may not be declared `Sendable`: after
    /// `start(queue:)`, `send` and `receive` are called on its queue (from its own completions) and `cancel()` from
    /// any thread, which Network allows.
    final class Connection: @unchecked Sendable {
      let connection: NWConnection

      init(_ connection: NWConnection) {
        self.connection = connection
      }
    }

    private struct State {
      var continuation: CheckedContinuation<ProbeExchange, Never>?
      var connection: Connection?
      var deadline: Task<Void, Never>?
      var finished = false
      var isReady = false
      var reader: ProbeAnswerReader
    }

    /// The interface a connection is bound to.
    struct Binding: Sendable {
      /// The path's interface's name.
      var name: String
      /// Its type, which the connection is restricted to when ``interface`` is not known.
      var type: NWInterface.InterfaceType
      /// Network's own interface, when the path source knows it: the connection is bound to it exactly.
      var interface: NWInterface?
    }

    let probe: ConnectivityProbe
    /// The interface the connection is bound to (exactly, or by type), or `nil`.
    let binding: Binding?
    /// The only family to connect over, or `nil` for either.
    let family: IPFamily?
    private let state: Locked<State>
    /// The connection's queue: its state updates and completions, one at a time.
    private let queue = DispatchQueue(label: "NetStatus.probe")
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant

    /// The most bytes one receive may return.
    static let receiveLength = 8192

    init(
      probe: ConnectivityProbe, interface: NetworkInterface?, family: IPFamily? = nil,
      limits: HTTPResponseParser.Limits, interfaces: NWInterfaceDirectory? = nil
    ) {
      self.probe = probe
      self.family = family
      self.binding = interface.map {
        Binding(
          name: $0.name, type: NWPathMonitorSource.nwInterfaceType($0.type),
          interface: interfaces?.interface(named: $0.name, index: $0.index))
      }
      self.state = Locked(State(reader: ProbeAnswerReader(limits: limits)))
      self.started = clock.now
    }

    /// Makes and starts the connection, and the deadline; resumes `continuation` once, when the exchange ends.
    func start(
      _ continuation: CheckedContinuation<ProbeExchange, Never>,
      makeConnection: NWConnectionProbeTransport.MakeConnection
    ) {
      let parameters = NWParameters.tcp
      if let exact = binding?.interface {
        parameters.requiredInterface = exact
      } else if let binding {
        parameters.requiredInterfaceType = binding.type
      }
      if let family, !Self.restrict(parameters, to: family) {
        let missing = "Network's TCP parameters have no IP options to restrict the connection to \(family.label)"
        continuation.resume(returning: report(.failed(.local(missing))))
        return
      }
      let endpoint = probe.endpoint
      let connection = Connection(
        makeConnection(NWEndpoint.Host(endpoint.host), NWEndpoint.Port(integerLiteral: endpoint.port), parameters))
      // Set before start(queue:), so that no state is missed. Weak: a late update after the end finds nothing to do.
      connection.connection.stateUpdateHandler = { [weak self] state in self?.handle(state) }
      let proceed = state.withLockedValue { state -> Bool in
        guard !state.finished else { return false }
        state.continuation = continuation
        state.connection = connection
        return true
      }
      guard proceed else {
        continuation.resume(returning: report(.failed(.cancelled)))
        return
      }
      let timeout = probe.timeout
      let deadline = Task { [weak self] in
        do { try await Task.sleep(for: timeout) } catch { return }
        self?.deadlinePassed()
      }
      let kept = state.withLockedValue { state -> Bool in
        guard !state.finished else { return false }
        state.deadline = deadline
        return true
      }
      // Cancelled meanwhile: finish(_:) has cancelled the connection and resumed the task; it is never started.
      guard kept else {
        deadline.cancel()
        return
      }
      connection.connection.start(queue: queue)
    }

    /// Ends the exchange with `result`, unless it has ended: cancels the connection and the deadline, and resumes the
    /// waiting task.
    func finish(_ result: ProbeExchange.Result) {
      let ended = state.withLockedValue {
        state -> (CheckedContinuation<ProbeExchange, Never>?, Connection?, Task<Void, Never>?)? in
        guard !state.finished else { return nil }
        state.finished = true
        return (state.continuation.take(), state.connection.take(), state.deadline.take())
      }
      guard let ended else { return }
      ended.2?.cancel()
      ended.1?.connection.cancel()
      ended.0?.resume(returning: report(result))
    }

    // MARK: Events (on the connection's queue, but the deadline)

    private func handle(_ update: NWConnection.State) {
      switch update {
      case .ready:
        let connection = state.withLockedValue { state -> Connection? in
          guard !state.finished else { return nil }
          state.isReady = true
          return state.connection
        }
        guard let connection else { return }
        let request = Data(ProbeAnswerReader.request(for: probe.endpoint))
        connection.connection.send(
          content: request,
          completion: .contentProcessed { [weak self] error in
            guard let error else { return }
            self?.finish(.failed(.closedWithoutAnswer(.whileSending(errno: Self.errno(of: error)))))
          })
        receive(on: connection)
      case .waiting(let error):
        // Network would wait for a better path; a probe reports this one.
        finish(.failed(Self.failure(error, host: probe.endpoint.host, family: family)))
      case .failed(let error):
        // Once connected, a failure is the reading's (the pending receive gets it too): a complete answer stands.
        let result = state.withLockedValue { state -> ProbeExchange.Result? in
          guard state.isReady else { return nil }
          return state.reader.failed(errno: Self.errno(of: error))
        }
        finish(result ?? .failed(Self.failure(error, host: probe.endpoint.host, family: family)))
      default:
        break  // setup, preparing, cancelled (after the end), and any state added later
      }
    }

    private func receive(on connection: Connection) {
      connection.connection.receive(minimumIncompleteLength: 1, maximumLength: Self.receiveLength) {
        [weak self] content, _, isComplete, error in
        self?.received(content, isComplete: isComplete, error: error)
      }
    }

    /// One receive's completion: the reader says whether the answer is over; if not, the next receive.
    private func received(_ content: Data?, isComplete: Bool, error: NWError?) {
      let (result, next) = state.withLockedValue { state -> (ProbeExchange.Result?, Connection?) in
        guard !state.finished else { return (nil, nil) }
        if let content, !content.isEmpty, let result = state.reader.received(content) { return (result, nil) }
        if isComplete { return (state.reader.peerClosed(), nil) }
        if let error { return (state.reader.failed(errno: Self.errno(of: error)), nil) }
        return (nil, state.connection)
      }
      if let result {
        finish(result)
      } else if let next {
        receive(on: next)
      }
    }

    private func deadlinePassed() {
      let result = state.withLockedValue { state -> ProbeExchange.Result? in
        state.finished ? nil : state.reader.deadlinePassed(probe.timeout)
      }
      if let result { finish(result) }
    }

    private func report(_ result: ProbeExchange.Result) -> ProbeExchange {
      ProbeExchange(result: result, boundInterface: binding?.name, bindingProblem: nil, duration: clock.now - started)
    }

    /// Restricts `parameters` to `family`'s IP version; `false` when their default protocol stack has no IP options to
    /// restrict (Apple's TCP parameters have), rather than check both families while saying one.
    static func restrict(_ parameters: NWParameters, to family: IPFamily) -> Bool {
      guard let options = parameters.defaultProtocolStack.internetProtocol as? NWProtocolIP.Options else {
        return false
      }
      options.version = family == .ipv4 ? .v4 : .v6
      return true
    }

    // MARK: Network's errors

    /// What a connection that could not be made (`.waiting`, or `.failed` before it was ready) means for the probe, over
    /// `family` when it was restricted to one. A plain `default` rather than `@unknown default`: Network's `NWError`
    /// has cases (`tls`) the stand-in does not.
    static func failure(_ error: NWError, host: String, family: IPFamily? = nil) -> ProbeFailure {
      switch error {
      case .posix(let code):
        switch code {
        case .ECONNREFUSED:
          return .refused
        // A blackhole route (EINVAL), a prohibit route (EACCES, EPERM), no route, no network, no answer to the SYN; the
        // required interface down or gone (ENETDOWN, ENXIO; ENODEV from the stand-in's SO_BINDTODEVICE).
        case .ENETUNREACH, .EHOSTUNREACH, .ENETDOWN, .EHOSTDOWN, .EADDRNOTAVAIL, .ETIMEDOUT, .EINVAL, .EACCES, .EPERM,
          .ENODEV, .ENXIO:
          return .unreachable(errno: code.rawValue)
        case .ECONNRESET, .ECONNABORTED, .EPIPE, .ENOTCONN:
          return .closedWithoutAnswer(.whileReceiving(errno: code.rawValue))
        case .ECANCELED:
          return .cancelled
        default:
          return .local("the connection failed: \(Errno.describe(code.rawValue))")
        }
      case .dns(let code):
        switch code {
        case Self.noSuchName: return .nameResolution(host: host, reason: "the name does not exist")
        // The name exists without an address of the kind asked: with a required IP version, that family's (A or AAAA),
        // said as the Linux transport says it (HTTPProbeConnection.swift).
        case Self.noSuchRecord:
          return .nameResolution(
            host: host, reason: family.map { "it has no \($0.label) address" } ?? "it has no address")
        case Self.dnsTimeout: return .resolverSilent(host: host, asked: "the system resolver", detail: "(it timed out)")
        default: return .nameResolution(host: host, reason: "DNS error \(code)")
        }
      default:
        return .local("the connection failed: \(error.debugDescription)")
      }
    }

    /// The errno of a failure while connected, for ``ProbeFailure/ClosedConnection``.
    static func errno(of error: NWError) -> Int32 {
      if case .posix(let code) = error { return code.rawValue }
      return POSIXErrorCode.ECONNRESET.rawValue
    }

    /// dnssd's `kDNSServiceErr_NoSuchName`, `kDNSServiceErr_NoSuchRecord` and `kDNSServiceErr_Timeout` (dns_sd.h), as
    /// `NWError.dns` carries them (a `DNSServiceErrorType`, which is an `Int32`).
    static let noSuchName: Int32 = -65538
    static let noSuchRecord: Int32 = -65554
    static let dnsTimeout: Int32 = -65568
  }
#endif
