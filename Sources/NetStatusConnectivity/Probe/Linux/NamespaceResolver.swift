#if canImport(NetStatusLinuxSource)
  import NetStatusLinuxSource
#endif

#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Glibc

  /// How the probe resolves a host name from inside a named network namespace that has a resolver
  /// configuration of its own (`/etc/netns/NAME/resolv.conf`): as `ip netns exec NAME` would, with that file's
  /// name servers, asked from inside the namespace, and that namespace's hosts file (`/etc/netns/NAME/hosts`,
  /// else `/etc/hosts`). ``NetworkPath/supportsDNS`` reads the same resolv.conf.
  ///
  /// Why a small stub resolver, and not `getaddrinfo(3)` on a thread that has unshared its mount namespace
  /// and bind-mounted the namespace's files over `/etc` (what `ip netns exec` does for a whole process):
  ///
  /// - The C library's resolver state is the process's: glibc reloads resolv.conf (and nsswitch.conf) when
  ///   the file it sees changes, so one thread seeing another `/etc` would make every other thread's lookups
  ///   reload, and could mix the two configurations. A stub reads the files and touches nothing shared.
  /// - `getaddrinfo` can be neither interrupted nor given a deadline: ``BoundedHostLookup`` can only stop
  ///   waiting for it and leaves its thread running. The stub runs on the probe's own thread, and each of its
  ///   waits is a `poll(2)` bounded by the check's deadline with the wake descriptor in the set, like every
  ///   other wait of the probe: stopping ends it at once.
  /// - It tells the answers apart exactly: the name does not exist (NXDOMAIN), it has no address, the
  ///   servers refused or failed ("cannot resolve"), or nothing answered in time ("no answer").
  ///
  /// What it does not do, and `getaddrinfo` would: nsswitch.conf sources other than `files` and `dns`
  /// (mDNS, LDAP, systemd-resolved's NSS module), `search` domains and `ndots`, `options` (the check's
  /// deadline replaces `timeout` and `attempts`; servers are asked together, as musl's resolver does, and
  /// again every second), and TCP after a truncated reply. A probe URL names a public host, for which none
  /// of these matter; for anything else, use a namespace without its own resolv.conf (`getaddrinfo` as the
  /// host resolves) or an IP address in the URL.
  struct NamespaceResolver: Sendable, Hashable {
    /// The resolver configuration read: `/etc/netns/NAME/resolv.conf`.
    let configurationPath: String
    /// The hosts file read first.
    let hostsPath: String

    /// At most this many name servers are asked, the first ones of the file (the C library's MAXNS).
    static let maximumServers = 3
    /// How often a question still unanswered is asked again.
    static let retransmitInterval: Duration = .seconds(1)
    /// How long to wait for the other family's answer once one family has addresses (RFC 8305's
    /// "Resolution Delay").
    static let secondAnswerDelay: Duration = .milliseconds(50)
    /// The most datagrams read in one lookup: a server (or a spoofer) that keeps sending cannot keep the
    /// probe reading.
    static let maximumDatagrams = 256

    /// The resolver `ip netns exec` would show `namespace`: `nil` when it is not a named namespace
    /// (`/run/netns/NAME`) or has no `/etc/netns/NAME/resolv.conf`; the system resolver applies then.
    static func forNamespace(_ namespace: NetworkNamespace) -> NamespaceResolver? {
      let folder = NetworkNamespace.namedNamespaceFolder + "/"
      guard namespace.path.hasPrefix(folder) else { return nil }
      let name = String(namespace.path.dropFirst(folder.count))
      guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
      let configuration = "/etc/netns/\(name)/resolv.conf"
      guard LocalFile.exists(configuration) else { return nil }
      let hosts = "/etc/netns/\(name)/hosts"
      return NamespaceResolver(
        configurationPath: configuration, hostsPath: LocalFile.exists(hosts) ? hosts : "/etc/hosts")
    }

    /// Looks `host` up from the calling thread (inside the namespace), until `deadline` or until `wakeFD`
    /// is written: the hosts file, then the name servers. `timeout` is the check's, for the report.
    func resolve(
      host: String, port: UInt16, timeout: Duration, deadline: ContinuousClock.Instant, clock: ContinuousClock,
      wakeFD: Int32
    ) -> Result<[SocketAddress], ProbeFailure> {
      guard DNSMessage.encode(name: host) != nil else {
        return .failure(.nameResolution(host: host, reason: "it is not a DNS name"))
      }
      if let text = LocalFile.readText(hostsPath) {
        let found = Self.hostsAddresses(for: host, in: text).compactMap { SocketAddress(literal: $0, port: port) }
        if !found.isEmpty { return .success(found) }
      }
      guard let text = LocalFile.readText(configurationPath) else {
        return .failure(.nameResolution(host: host, reason: "\(configurationPath) cannot be read"))
      }
      let servers = Array(ResolverConfiguration.nameservers(in: text).prefix(Self.maximumServers))
      guard !servers.isEmpty else {
        return .failure(.nameResolution(host: host, reason: "\(configurationPath) lists no name server"))
      }
      var lookup = Lookup(host: host, port: port, servers: servers)
      defer { lookup.close() }
      return lookup.run(timeout: timeout, deadline: deadline, clock: clock, wakeFD: wakeFD)
    }

    /// The addresses `text` (a hosts file) gives `name`, in the file's order: lines of an address and its
    /// names, `#` starting a comment; names compare without case.
    static func hostsAddresses(for name: String, in text: String) -> [String] {
      let wanted = DNSMessage.canonical(name)
      var found: [String] = []
      for line in text.split(whereSeparator: \.isNewline) {
        let content = line.prefix { $0 != "#" }
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, IPAddressBytes(text: words[0]) != nil else { continue }
        if words.dropFirst().contains(where: { DNSMessage.canonical(String($0)) == wanted }) {
          found.append(String(words[0]))
        }
      }
      return found
    }

    /// One lookup: a connected UDP socket per name server, an A and an AAAA question on each.
    private struct Lookup {
      struct Server {
        var address: String
        var fd: Int32 = -1
        /// Why this server is no longer asked (it failed, refused, or cannot be reached), if it is not.
        var failure: String?
      }

      let host: String
      let port: UInt16
      var servers: [Server]
      /// The query id of each question (the same on every server and every retransmission).
      let ids: [DNSMessage.RecordType: UInt16]
      /// What is known of each question: `nil` until a server answered it.
      var answers: [DNSMessage.RecordType: [[UInt8]]] = [:]
      /// The server that said the name does not exist, if one did.
      var nameDoesNotExist: String?
      /// Datagrams read so far.
      var datagrams = 0

      init(host: String, port: UInt16, servers: [String]) {
        self.host = host
        self.port = port
        self.servers = servers.map { Server(address: $0) }
        var ids: [DNSMessage.RecordType: UInt16] = [:]
        for type in DNSMessage.RecordType.allCases { ids[type] = UInt16.random(in: 0...UInt16.max) }
        self.ids = ids
      }

      mutating func close() {
        for index in servers.indices {
          SystemCall.close(servers[index].fd)
          servers[index].fd = -1
        }
      }

      mutating func run(
        timeout: Duration, deadline: ContinuousClock.Instant, clock: ContinuousClock, wakeFD: Int32
      ) -> Result<[SocketAddress], ProbeFailure> {
        for index in servers.indices { open(index) }
        var nextSend = clock.now
        var enoughBy: ContinuousClock.Instant?
        while true {
          if let outcome = conclusion() { return outcome }
          let now = clock.now
          if let enoughBy, now >= enoughBy { return .success(addresses) }
          guard now < deadline else {
            if !addresses.isEmpty { return .success(addresses) }
            return .failure(
              .resolverSilent(host: host, asked: askedDescription, detail: "within \(timeout)"))
          }
          if now >= nextSend {
            sendPendingQuestions()
            nextSend = now + NamespaceResolver.retransmitInterval
          }
          if enoughBy == nil, !addresses.isEmpty { enoughBy = now + NamespaceResolver.secondAnswerDelay }
          let until = min(deadline, nextSend, enoughBy ?? deadline)
          switch waitForDatagrams(until: until, clock: clock, wakeFD: wakeFD) {
          case .cancelled: return .failure(.cancelled)
          case .ready(let readable): for index in readable { receive(index) }
          case .timedOut: continue
          }
          if datagrams > NamespaceResolver.maximumDatagrams {
            return .failure(
              .nameResolution(
                host: host,
                reason:
                  "the name servers sent more than \(NamespaceResolver.maximumDatagrams) datagrams without an answer"))
          }
        }
      }

      /// The addresses found so far: IPv6 first, as `getaddrinfo` orders them on a host with both.
      var addresses: [SocketAddress] {
        (answers[.aaaa] ?? []).compactMap(address) + (answers[.a] ?? []).compactMap(address)
      }

      private func address(_ bytes: [UInt8]) -> SocketAddress? {
        IPAddressBytes(bytes).flatMap { SocketAddress(literal: $0.description, port: port) }
      }

      /// `the name server 192.0.2.53`, or `the name servers 192.0.2.53, 192.0.2.54`.
      var askedDescription: String {
        let list = servers.map(\.address).joined(separator: ", ")
        return servers.count == 1 ? "the name server \(list)" : "the name servers \(list)"
      }

      /// The lookup's end, once it is known: the name does not exist, both questions are answered, or every
      /// server failed.
      private func conclusion() -> Result<[SocketAddress], ProbeFailure>? {
        if let server = nameDoesNotExist {
          return .failure(.nameResolution(host: host, reason: "no such name (NXDOMAIN from \(server))"))
        }
        if answers.count == DNSMessage.RecordType.allCases.count {
          let found = addresses
          if found.isEmpty {
            return .failure(.nameResolution(host: host, reason: "it has no address (no A or AAAA record)"))
          }
          return .success(found)
        }
        guard servers.allSatisfy({ $0.failure != nil }) else { return nil }
        if !addresses.isEmpty { return .success(addresses) }
        let reasons = servers.map { "\($0.address) \($0.failure ?? "")" }.joined(separator: ", ")
        return .failure(.nameResolution(host: host, reason: "no name server could answer: \(reasons)"))
      }

      /// Opens a UDP socket connected to server `index` (so that only its datagrams arrive, and an ICMP
      /// port unreachable reports ECONNREFUSED).
      private mutating func open(_ index: Int) {
        guard let address = SocketAddress(literal: servers[index].address, port: 53) else {
          servers[index].failure = "(not an IP address)"
          return
        }
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        do throws(Errno) {
          let fd = try SystemCall.attempt { socket(address.family, type, Int32(IPPROTO_UDP)) }
          servers[index].fd = fd
          try SystemCall.attempt { address.connect(fd) }
        } catch {
          servers[index].failure = Self.reason(error)
        }
      }

      /// Sends every question not answered yet to every server still asked.
      private mutating func sendPendingQuestions() {
        for index in servers.indices where servers[index].failure == nil {
          for type in DNSMessage.RecordType.allCases where answers[type] == nil {
            guard let id = ids[type], let query = DNSMessage.query(id: id, name: host, type: type) else { continue }
            let sent = query.withUnsafeBytes { send(servers[index].fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
              servers[index].failure = Self.reason(Errno(rawValue: errno))
            }
          }
        }
      }

      /// Reads one datagram from server `index` and records what it says.
      private mutating func receive(_ index: Int) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(servers[index].fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else {
          let code = errno
          if code != EAGAIN, code != EWOULDBLOCK, code != EINTR {
            servers[index].failure = Self.reason(Errno(rawValue: code))
          }
          return
        }
        datagrams += 1
        let bytes = Array(buffer[..<count])
        for type in DNSMessage.RecordType.allCases {
          guard let id = ids[type], let reply = DNSMessage.reply(bytes, id: id, name: host, type: type) else {
            continue
          }
          switch reply {
          case .addresses(let found): answers[type] = found
          case .noAddress: answers[type] = answers[type] ?? []
          case .noSuchName: nameDoesNotExist = servers[index].address
          case .failed(let code): servers[index].failure = DNSMessage.responseCodeName(code)
          }
        }
      }

      /// Why the wait ended.
      private enum Wait {
        case ready([Int])
        case timedOut
        case cancelled
      }

      /// Waits until a server's socket is readable (or failed), `until` passes, or `wakeFD` is written.
      private func waitForDatagrams(until: ContinuousClock.Instant, clock: ContinuousClock, wakeFD: Int32) -> Wait {
        let asked = servers.indices.filter { servers[$0].failure == nil && servers[$0].fd >= 0 }
        var descriptors = asked.map { pollfd(fd: servers[$0].fd, events: Int16(POLLIN), revents: 0) }
        switch WakeablePoll.wait(&descriptors, wakeFD: wakeFD, until: until, clock: clock) {
        case .ready: return .ready(asked.indices.filter { descriptors[$0].revents != 0 }.map { asked[$0] })
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        }
      }

      /// A failed system call, as a server's failure.
      private static func reason(_ error: Errno) -> String {
        switch error {
        case .connectionRefused: return "(nothing listens on port 53: ECONNREFUSED)"
        default: return "(\(error))"
        }
      }
    }
  }
#endif
