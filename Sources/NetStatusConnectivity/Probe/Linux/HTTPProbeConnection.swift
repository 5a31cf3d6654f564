#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc

  /// One blocking HTTP/1.1 GET over a TCP socket, for the connectivity probe: resolve, connect, send,
  /// read, with one deadline over all of it, and a wake descriptor that cancels it at any point.
  ///
  /// Runs on the probe's own thread, which has entered the monitored network namespace: the socket is
  /// created there and keeps that namespace. The socket is non-blocking; every wait is a `poll(2)` on the
  /// socket and the wake descriptor, bounded by the deadline, and there is one before every read, so that
  /// a server that keeps sending (the socket always readable) still meets the deadline and the wake
  /// descriptor. What is read is bounded too (``limits``, see ``HTTPResponseParser``).
  struct HTTPProbeConnection {
    /// Looks up a host name (IP literals never reach it): the addresses, or why there are none.
    typealias HostLookup = @Sendable (_ host: String, _ port: UInt16) -> Result<[SocketAddress], ProbeFailure>

    let endpoint: HTTPProbeURL
    /// The interface to bind the socket to (by name, `SO_BINDTODEVICE`), or `nil` to let the routing choose.
    let interface: NetworkInterface?
    let timeout: Duration
    let wakeFD: Int32
    /// `getaddrinfo(3)`, unless a test gives another.
    var lookUp: HostLookup = HTTPProbeConnection.systemLookUp
    /// The resolver of the named namespace the probe runs in, when it has a resolv.conf of its own: used
    /// instead of ``lookUp``, on this thread.
    var namespaceResolver: NamespaceResolver?
    /// The bytes an answer may take: heads, the body kept, everything read.
    var limits = HTTPResponseParser.Limits()
    /// The only family to connect over (the host's A or AAAA addresses), or `nil` for any.
    var family: IPFamily?

    /// What the exchange came to, and whether the socket was bound to the interface.
    package struct Outcome {
      var result: ProbeExchange.Result
      var boundInterface: String?
      var bindingProblem: String?
    }

    /// Runs the exchange.
    func run() -> Outcome {
      let clock = ContinuousClock()
      let deadline = clock.now + timeout
      let addresses: [SocketAddress]
      switch resolve(until: deadline, clock: clock) {
      case .success(let found): addresses = found.filter { address in family.map { $0 == address.ipFamily } ?? true }
      case .failure(let failure): return Outcome(result: .failed(failure))
      }
      let none = family.map { "it has no \($0.label) address" } ?? "it has no address"
      var last = Outcome(result: .failed(.nameResolution(host: endpoint.host, reason: none)))
      // Try each address in turn (IPv6 and IPv4 of a name), within the one deadline.
      for address in addresses {
        last = exchange(with: address, deadline: deadline, clock: clock)
        switch last.result {
        case .failed(.refused), .failed(.unreachable): continue
        default: return last
        }
      }
      return last
    }

    // MARK: Steps

    private func exchange(with address: SocketAddress, deadline: ContinuousClock.Instant, clock: ContinuousClock)
      -> Outcome
    {
      if let refusal = Self.routeRefusal(to: address) { return Outcome(result: .failed(refusal)) }
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
      let fd: Int32
      do throws(NetworkMonitorError) {
        fd = try SystemCall.invoke("socket(\(address.familyName), SOCK_STREAM)") {
          socket(address.family, type, Int32(IPPROTO_TCP))
        }
      } catch {
        return Outcome(result: .failed(.local(error.description)))
      }
      defer { SystemCall.close(fd) }

      var outcome = Outcome(result: .failed(.cancelled))
      if let interface = interface?.name {
        do throws(NetworkMonitorError) {
          try SystemCall.invoke("setsockopt(SO_BINDTODEVICE, \(interface))") {
            interface.withCString { name in
              setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, name, socklen_t(strlen(name) + 1))
            }
          }
          outcome.boundInterface = interface
        } catch {
          // Not permitted (no CAP_NET_RAW before Linux 5.7) or no such device: the kernel's routing
          // chooses, which is the path's preferred interface for a default route.
          outcome.bindingProblem = error.description
        }
      }

      // Connect.
      do throws(Errno) {
        try SystemCall.attempt { address.connect(fd) }
      } catch {
        guard error == .nowInProgress else {
          outcome.result = .failed(Self.connectFailure(error, call: "connect(\(endpoint.hostHeader))"))
          return outcome
        }
        if let failure = waitOrFail(fd, for: Int16(POLLOUT), until: deadline, clock: clock) {
          outcome.result = .failed(failure)
          return outcome
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) != 0 { pending = errno }
        if pending != 0 {
          outcome.result = .failed(Self.connectFailure(Errno(rawValue: pending), call: "connect"))
          return outcome
        }
      }

      // Send the request.
      var request = ProbeAnswerReader.request(for: endpoint)[...]
      while !request.isEmpty {
        let sent = request.withUnsafeBytes { buffer in
          send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        }
        if sent >= 0 {
          request = request.dropFirst(sent)
          continue
        }
        let code = errno
        if code == EINTR { continue }
        guard code == EAGAIN || code == EWOULDBLOCK else {
          outcome.result = .failed(.closedWithoutAnswer(.whileSending(errno: code)))
          return outcome
        }
        if let failure = waitOrFail(fd, for: Int16(POLLOUT), until: deadline, clock: clock) {
          outcome.result = .failed(failure)
          return outcome
        }
      }

      // Read the answer. Wait before every read, not only when a read would block: a server that keeps
      // sending keeps the socket readable, and the deadline and the wake descriptor must still be seen. What the
      // answer comes to is ProbeAnswerReader's to say, as for every transport.
      var reader = ProbeAnswerReader(limits: limits)
      var buffer = [UInt8](repeating: 0, count: 8192)
      while true {
        switch wait(fd, for: Int16(POLLIN), until: deadline, clock: clock) {
        case .ready:
          break
        case .timedOut:
          outcome.result = reader.deadlinePassed(timeout)
          return outcome
        case .cancelled:
          outcome.result = .failed(.cancelled)
          return outcome
        }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
          if let result = reader.received(buffer[..<count]) {
            outcome.result = result
            return outcome
          }
          continue
        }
        if count == 0 {
          outcome.result = reader.peerClosed()
          return outcome
        }
        let code = errno
        if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
        outcome.result = reader.failed(errno: code)
        return outcome
      }
    }

    /// Whether the routing table refuses the destination (a blackhole, unreachable or prohibit route, or no
    /// route at all), as an unbound socket of any app would find. Asked with `connect(2)` on a UDP socket,
    /// which looks the route up and sends nothing.
    ///
    /// This matters because a socket bound to an interface (SO_BINDTODEVICE) does not honour such routes:
    /// when the lookup fails, Linux assumes the destination is on the interface's link and sends anyway.
    static func routeRefusal(to address: SocketAddress) -> ProbeFailure? {
      let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      guard
        let fd = try? SystemCall.invoke(
          "socket(\(address.familyName), SOCK_DGRAM)", { socket(address.family, type, 0) })
      else { return nil }
      defer { SystemCall.close(fd) }
      do throws(Errno) {
        try SystemCall.attempt { address.connect(fd) }
        return nil
      } catch {
        switch error {
        case .invalidArgument, .networkUnreachable, .noRouteToHost, .permissionDenied, .notPermitted:
          return .unreachable(errno: error.rawValue)
        default: return nil
        }
      }
    }

    /// What a failed connect means for connectivity.
    private static func connectFailure(_ error: Errno, call: String) -> ProbeFailure {
      switch error {
      case .connectionRefused: return .refused
      case .timedOut: return .unreachable(errno: error.rawValue)
      case .networkUnreachable, .noRouteToHost, .hostIsDown, .networkDown, .addressNotAvailable, .machineNotOnNetwork:
        return .unreachable(errno: error.rawValue)
      // A blackhole route (EINVAL), a prohibit route (EACCES, EPERM): the route says no.
      case .invalidArgument, .permissionDenied, .notPermitted: return .unreachable(errno: error.rawValue)
      default: return .local(NetworkMonitorError.systemCall(call: call, errno: error).description)
      }
    }

    /// Waits like ``wait(_:for:until:clock:)``; `nil` when `fd` is ready, else why the exchange ends:
    /// `timedOut` past the deadline, `cancelled` when woken.
    private func waitOrFail(
      _ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant, clock: ContinuousClock
    ) -> ProbeFailure? {
      switch wait(fd, for: events, until: deadline, clock: clock) {
      case .ready: return nil
      case .timedOut: return .timedOut(timeout)
      case .cancelled: return .cancelled
      }
    }

    /// Waits until `fd` is ready for `events`, the deadline passes, or the wake descriptor is written.
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant, clock: ContinuousClock)
      -> WakeablePoll.Outcome
    {
      var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
      return WakeablePoll.wait(&descriptors, wakeFD: wakeFD, until: deadline, clock: clock)
    }

    // MARK: Addresses

    /// The addresses to try: the literal in the URL, or what the resolver gives for its name within the
    /// deadline: the namespace's (``NamespaceResolver``, on this thread), or the system's (``lookUp`` on a
    /// thread of its own; see ``BoundedHostLookup``).
    private func resolve(until deadline: ContinuousClock.Instant, clock: ContinuousClock)
      -> Result<[SocketAddress], ProbeFailure>
    {
      if let literal = SocketAddress(literal: endpoint.host, port: endpoint.port) { return .success([literal]) }
      if endpoint.isIPv6Literal {
        return .failure(.nameResolution(host: endpoint.host, reason: "it is not an IPv6 address"))
      }
      if let namespaceResolver {
        return namespaceResolver.resolve(
          host: endpoint.host, port: endpoint.port, timeout: timeout, deadline: deadline, clock: clock,
          wakeFD: wakeFD)
      }
      let lookup: BoundedHostLookup
      switch BoundedHostLookup.start(host: endpoint.host, port: endpoint.port, lookUp: lookUp) {
      case .success(let started): lookup = started
      case .failure(let failure): return .failure(failure)
      }
      switch wait(lookup.ready.rawValue, for: Int16(POLLIN), until: deadline, clock: clock) {
      case .ready: break
      case .timedOut:
        return .failure(
          .resolverSilent(host: endpoint.host, asked: "the system resolver", detail: "within \(timeout)"))
      case .cancelled: return .failure(.cancelled)
      }
      return lookup.result ?? .failure(.local("the host-name lookup signalled without an answer"))
    }

    /// `getaddrinfo(3)`: blocking, and not interruptible (``BoundedHostLookup`` bounds the wait for it).
    static func systemLookUp(_ host: String, _ port: UInt16) -> Result<[SocketAddress], ProbeFailure> {
      var hints = addrinfo()
      hints.ai_family = AF_UNSPEC
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      hints.ai_flags = AI_ADDRCONFIG
      var list: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &list)
      guard status == 0 else {
        let reason = String(cString: gai_strerror(status))
        // EAI_AGAIN: the name servers did not answer in time, or answered "try again" (SERVFAIL).
        if status == EAI_AGAIN {
          return .failure(.resolverSilent(host: host, asked: "the system resolver", detail: "(\(reason))"))
        }
        return .failure(.nameResolution(host: host, reason: reason))
      }
      defer { freeaddrinfo(list) }
      var found: [SocketAddress] = []
      var entry = list
      while let current = entry {
        if let address = SocketAddress(current.pointee) { found.append(address) }
        entry = current.pointee.ai_next
      }
      return found.isEmpty ? .failure(.nameResolution(host: host, reason: "it has no address")) : .success(found)
    }
  }

  /// An IPv4 or IPv6 socket address.
  struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0
    var family: Int32 { Int32(storage.ss_family) }
    var familyName: String { family == AF_INET6 ? "AF_INET6" : "AF_INET" }
    var ipFamily: IPFamily { family == AF_INET6 ? .ipv6 : .ipv4 }

    /// An address from an IP literal, or `nil` when `text` is not one.
    init?(literal text: String, port: UInt16) {
      var v4 = in_addr()
      var v6 = in6_addr()
      if inet_pton(AF_INET, text, &v4) == 1 {
        self.init(
          copying: sockaddr_in(
            sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: v4, sin_zero: (0, 0, 0, 0, 0, 0, 0, 0)
          ))
      } else if inet_pton(AF_INET6, text, &v6) == 1 {
        self.init(
          copying: sockaddr_in6(
            sin6_family: sa_family_t(AF_INET6), sin6_port: port.bigEndian, sin6_flowinfo: 0, sin6_addr: v6,
            sin6_scope_id: 0))
      } else {
        return nil
      }
    }

    /// An address from a resolver entry, or `nil` for a family other than IPv4 and IPv6.
    init?(_ entry: addrinfo) {
      guard entry.ai_family == AF_INET || entry.ai_family == AF_INET6, let address = entry.ai_addr,
        Int(entry.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
      else { return nil }
      withUnsafeMutableBytes(of: &storage) { target in
        target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(entry.ai_addrlen)))
      }
      length = entry.ai_addrlen
    }

    private init<Address>(copying address: Address) {
      var address = address
      withUnsafeMutableBytes(of: &storage) { target in
        withUnsafeBytes(of: &address) { source in target.copyMemory(from: source) }
      }
      length = socklen_t(MemoryLayout<Address>.size)
    }

    /// `connect(2)` to this address.
    func connect(_ fd: Int32) -> Int32 {
      var storage = storage
      return withUnsafePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
      }
    }
  }
#endif
