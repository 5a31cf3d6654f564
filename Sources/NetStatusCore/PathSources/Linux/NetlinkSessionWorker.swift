#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// What a session's worker and its handle share: the stop request, and the end of the session.
  final class NetlinkSessionControl: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// Signalled once the session's descriptors are closed (after `stop()`, or after it failed); re-signalled by
    /// each waiter, so that every waiter passes.
    let finished = DispatchSemaphore(value: 0)

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Marks the session stopped: from now on its worker sends nothing. Returns whether it was the first stop.
    func requestStop() -> Bool { !stopRequested.exchange(true, ordering: .acquiringAndReleasing) }
  }

  /// The work of one ``NetlinkPathSource`` session, for one network namespace: its netlink socket, its mirror
  /// of links and addresses, its route lookups and its last path.
  ///
  /// Start-up (``startUp()``: watches, socket, dump, first path) runs on the thread that starts the session;
  /// after that, only ``NetlinkEventHub``'s thread runs it, one ``Work`` at a time (``handle(_:)``).
  ///
  /// `@unchecked Sendable`: its mutable state is used by one thread at a time, handed over under the hub's
  /// lock: the starting thread until ``NetlinkEventHub/enable(_:)``, then the hub's thread while the hub marks
  /// the session busy; ``close()`` runs only when the session is not busy (or on the hub's thread after its
  /// work). Shared data goes through ``NetlinkSessionControl`` and the source's statistics, both behind locks.
  ///
  /// Its mutable properties are `@exclusivity(unchecked)`: only that one thread at a time touches them, the
  /// compiler's static exclusivity checks still apply, and the runtime's checks (an access set updated at every
  /// access) cost about 1,000 instructions per route change (`Benchmarks/instructions.sh`).
  final class NetlinkSessionWorker: NetlinkHubClient, @unchecked Sendable {
    struct Configuration {
      var namespace: NetworkNamespace?
      var namespaceHandle: NetworkNamespace.Handle?
      var classifier: InterfaceClassifier
      var resolverConfigurationPath: String
      var resolvedUpstreamPath: String
      var receiveBufferSize: Int
      var filter: InterfaceFilter
      /// systemd-networkd's per-link state, when it is read for this session (NetworkdLinkWatcher.swift).
      var networkd: NetworkdLinkWatcher?
      /// Told of the links and addresses when they change (``NetlinkPathSource/Options/linkObserver``).
      var linkObserver: (@Sendable ([LinkInventory.Link]) -> Void)?
    }

    typealias Work = NetlinkEventHub.Work
    typealias Outcome = NetlinkEventHub.Outcome

    /// How many lookups are sent at once: the kernel answers each request before `sendto` returns, so one
    /// batch's answers (and the notifications queued before them) must fit in the receive buffer together.
    private static let lookupBatchSize = 64
    /// How long to wait for a dump's next part or a batch's answers. The kernel answers within `sendto` (and
    /// makes a dump's next part within `recvmsg`), so this only bounds a kernel that does not answer at all.
    private static let replyTimeoutMilliseconds = InitialDump.replyTimeoutMilliseconds
    /// Rounds of lookups in one piece of work while notifications that matter keep arriving during them; then
    /// the hub's thread serves other sessions before the next round.
    private static let maximumRoundsPerWork = 4

    private let configuration: Configuration
    private let sink: PathSink
    let control: NetlinkSessionControl
    private let shared: NetlinkSourceRecord
    /// The session's place in the hub: its ID and the hub generation serving it.
    let reservation: NetlinkEventHub.Reservation

    /// The socket subscribed to changes, on which dumps and route lookups are asked too: their answers carry
    /// our port ID and a sequence number of ours, notifications do not.
    @exclusivity(unchecked) private var socket: NetlinkSocket?
    /// The answers of the last lookups, reused when only the resolver configuration changed.
    @exclusivity(unchecked) private var answers = RouteLookupAnswers()
    /// Notifications that may change a lookup's answer arrived while lookups were being answered.
    @exclusivity(unchecked) private var lookupsOutdated = false
    /// A re-dump is needed: notifications were lost while lookups were being answered.
    @exclusivity(unchecked) private var resyncReason: String?
    /// Lookups asked since the statistics were last updated: counted under the lock the evaluation takes anyway
    /// (``publishIfChanged(lookingUp:)``, ``startUp()``), rather than under one more per batch.
    @exclusivity(unchecked) private var lookupsAsked = 0
    /// Where the batch of lookups being sent is written: room for a whole batch, allocated once (freed in
    /// `deinit`).
    private let lookupRequestBytes = UnsafeMutableRawBufferPointer.allocate(
      byteCount: NetlinkSessionWorker.lookupBatchSize * RouteLookupRequest.maximumLength, alignment: 8)
    private var resolverWatches: [Int32: Set<String>] = [:]
    /// systemd-networkd's per-link state files, when read for this session.
    private var networkd: NetworkdLinkWatcher?
    private var namespaceWatch: Int32?
    /// The namespace's identity (the nsfs device and inode), to notice when its path names another namespace or
    /// none; its descriptor is closed once the socket is open.
    private var namespaceIdentity: NetworkNamespace.Handle?
    /// A pidfd for the process whose `/proc/PID/ns/net` is watched, readable once it exits; see
    /// ``NetworkNamespace/openProcessDescriptor(matching:)``.
    private var processExit: Int32?
    @exclusivity(unchecked) private var state = KernelState()
    /// The links and addresses the link observer last heard of (kept only when there is one).
    @exclusivity(unchecked) private var observedLinks: [Int32: NetlinkLink] = [:]
    @exclusivity(unchecked) private var observedAddresses: [NetlinkAddress.Key: NetlinkAddress] = [:]
    @exclusivity(unchecked) private var resolver = ResolverConfiguration(nameservers: [])
    /// The last path sent (the first one once ``startUp()`` returns), meaningful when ``hasLastPath``. Not an
    /// optional: comparing with an optional's payload, and assigning one, copied the path (retaining its arrays).
    @exclusivity(unchecked) private var lastPath = NetworkPath(status: .unsatisfied)
    /// Whether ``lastPath`` holds a path.
    @exclusivity(unchecked) private var hasLastPath = false
    @exclusivity(unchecked) private var typeCache: [Int32: (link: NetlinkLink, type: InterfaceType)] = [:]
    /// The last eligible links computed (see ``knownEligibleLinks(of:)``), `nil` before the first.
    @exclusivity(unchecked) private var eligibleLinks: [PathEvaluator.Eligible]?
    /// The links ``eligibleLinks`` were computed from. Two properties rather than an optional tuple, which each
    /// check copied whole.
    @exclusivity(unchecked) private var eligibleLinksSource: [Int32: NetlinkLink] = [:]
    /// Where datagrams are received: the session's own while it starts, then the one of the hub's thread.
    @exclusivity(unchecked) private var buffer = ReceiveBuffer()
    @exclusivity(unchecked) private var sequence: UInt32 = 0
    /// The lookups being asked, written into the same storage each time.
    @exclusivity(unchecked) private var requests: [RouteLookupRequest] = []
    /// The messages of the datagram being handled, decoded into the same storage each time.
    @exclusivity(unchecked) private var decoded: [NetlinkMessage] = []
    /// Notifications that matter kept arriving during the start-up's lookups: the hub runs ``Work/again`` first.
    private(set) var startedUnsettled = false

    init(
      configuration: Configuration, sink: PathSink, control: NetlinkSessionControl, shared: NetlinkSourceRecord,
      reservation: NetlinkEventHub.Reservation
    ) {
      self.configuration = configuration
      self.sink = sink
      self.control = control
      self.shared = shared
      self.reservation = reservation
      self.networkd = configuration.networkd
    }

    deinit {
      lookupRequestBytes.deallocate()
    }

    /// What the hub waits on for this session.
    var descriptors: [NetlinkEventHub.Descriptor] {
      var descriptors: [NetlinkEventHub.Descriptor] = []
      if let socket { descriptors.append(.init(fd: socket.fd, kind: .netlink)) }
      if let processExit { descriptors.append(.init(fd: processExit, kind: .processExit)) }
      return descriptors
    }

    var finished: DispatchSemaphore { control.finished }

    // MARK: Start-up and end

    /// Starts the session on the calling thread: watches, the subscribed socket (opened inside the namespace),
    /// the initial dump and lookups. Returns the first path. On failure, ``close()`` releases what was opened.
    func startUp() throws(NetworkMonitorError) -> NetworkPath {
      if let handle = configuration.namespaceHandle, let namespace = configuration.namespace {
        namespaceIdentity = NetworkNamespace.Handle(fd: -1, device: handle.device, inode: handle.inode)
        defer { SystemCall.close(handle.fd) }
        try watchResolverConfiguration()
        namespaceWatch = try NetlinkEventHub.watch(
          folder: LocalFile.directory(of: namespace.path), .names, for: reservation)
        processExit = try namespace.openProcessDescriptor(matching: handle)
        try openSocket(inside: handle)
      } else {
        try watchResolverConfiguration()
        try openSocket(inside: nil)
      }
      resolver = ResolverConfiguration.load(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      try dumpEverything()
      try networkd?.start(for: reservation, links: state.links)
      var settled = true
      let path = try evaluateUntilSettled(settled: &settled)
      let asked = lookupsAsked
      lookupsAsked = 0
      shared.withLock { $0.statistics.lookups += asked }
      startedUnsettled = !settled
      lastPath = path
      hasLastPath = true
      observeLinks(first: true)
      return path
    }

    /// Tells the link observer, if there is one, of the links and addresses when they changed since it last heard.
    private func observeLinks(first: Bool = false) {
      guard let observer = configuration.linkObserver else { return }
      guard first || state.links != observedLinks || state.addresses != observedAddresses else { return }
      observedLinks = state.links
      observedAddresses = state.addresses
      observer(LinkInventory.mirroredLinks(of: state, classify: { classify($0) }))
    }

    /// From now on, datagrams are received into the hub thread's buffer: the session's own is released. Called
    /// before ``NetlinkEventHub/enable(_:)``.
    func useHubBuffer() {
      buffer = reservation.generation.buffer
    }

    /// Opens the subscribed netlink socket inside the namespace (subscribed before any dump) and records its
    /// port ID for tests. A netlink socket belongs to the namespace it was made in, so only its creation needs
    /// a thread inside the namespace: a short-lived one, so that no long-lived thread ever changes namespace.
    private func openSocket(inside handle: NetworkNamespace.Handle?) throws(NetworkMonitorError) {
      let size = configuration.receiveBufferSize
      let opened: NetlinkSocket
      if let handle, let namespace = configuration.namespace {
        opened = try NetworkNamespace.run(inside: handle, path: namespace.path) { () throws(NetworkMonitorError) in
          try NetworkMonitorError.converting { () throws(SystemCallError) in
            try NetlinkSocket.open(receiveBufferSize: size)
          }
        }
      } else {
        opened = try NetworkMonitorError.converting { () throws(SystemCallError) in
          try NetlinkSocket.open(receiveBufferSize: size)
        }
      }
      socket = opened
      shared.withLock {
        $0.portID = opened.portID
        $0.lookupPortID = opened.portID
      }
    }

    /// Replaces the socket (after a loss that may have stalled a dump), in the same namespace: a named one is
    /// opened again by path and must still be the same namespace. The hub waits on the new socket.
    private func reopenSocket() throws(NetworkMonitorError) {
      let old = socket
      socket = nil
      if let namespace = configuration.namespace, let identity = namespaceIdentity {
        let handle = try namespace.open()
        defer { SystemCall.close(handle.fd) }
        guard handle.device == identity.device, handle.inode == identity.inode else {
          old?.close()
          throw .namespaceDeleted(path: namespace.path)
        }
        try openSocket(inside: handle)
      } else {
        try openSocket(inside: nil)
      }
      defer { old?.close() }
      if let new = socket { try NetlinkEventHub.replace(old?.fd, with: new.fd, for: reservation) }
    }

    /// Closes what the session opened (the namespace descriptor is closed at start-up already).
    func close() {
      socket?.close()
      socket = nil
      if let processExit { SystemCall.close(processExit) }
      processExit = nil
      networkd?.stop()
    }

    // MARK: Work

    /// Does one piece of work on the hub's thread. A failure ends the session and goes to the sink (unless the
    /// session was stopped).
    func handle(_ work: Work) -> Outcome {
      do throws(NetworkMonitorError) {
        return try perform(work)
      } catch {
        if !control.isStopRequested { sink.fail(error) }
        return .ended
      }
    }

    private func perform(_ work: Work) throws(NetworkMonitorError) -> Outcome {
      var changed = false
      var routingChanged = false
      switch work {
      case .processExited:
        // The process exited: /proc/PID/ns/net names nothing now, as if the namespace had been deleted.
        if let namespace = configuration.namespace { throw .namespaceDeleted(path: namespace.path) }
        return .idle
      case .folderEvents(let events):
        if namespaceWasDeleted(events), let namespace = configuration.namespace {
          throw .namespaceDeleted(path: namespace.path)
        }
        for event in events where event.mask & InotifyWatcher.ignored != 0 {
          resolverWatches[event.watch] = nil
          if event.watch == namespaceWatch { namespaceWatch = nil }
        }
        try networkd?.handle(events, for: reservation)
        if resolverChanged(events) {
          try watchResolverConfiguration()
          resolver = ResolverConfiguration.load(
            path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
          shared.withLock { $0.statistics.resolverReloads += 1 }
          changed = true
        }
      case .netlinkReadable:
        let read = try readNotifications()
        if let reason = read.resyncReason {
          shared.withLock {
            $0.statistics.resyncs += 1
            $0.statistics.lastResyncReason = reason
          }
          try dumpEverything()
          routingChanged = true
        }
        routingChanged = routingChanged || read.relevant
      case .again:
        routingChanged = true
      case .mountTableChanged:
        return .idle  // not waited on by a session
      }
      guard changed || routingChanged else { return .idle }
      // Every link change is a routing change: networkd's files are read for the links there are now.
      if routingChanged { networkd?.follow(links: state.links) }
      return try publishIfChanged(lookingUp: routingChanged)
    }

    /// What one drain of the subscribed socket found.
    struct Drained {
      /// Why a re-dump is needed, if one is.
      var resyncReason: String?
      /// Whether anything arrived that may change a route lookup's answer: a link, address, rule or nexthop
      /// change, or a route whose prefix contains a lookup destination.
      var relevant = false
    }

    /// Reads pending datagrams and applies them, until one that may change a lookup's answer (or EAGAIN). Once a
    /// re-dump is known to be needed, the rest is read and dropped, since the dump replaces it.
    private func readNotifications() throws(NetworkMonitorError) -> Drained {
      guard let socket else { return Drained() }
      var drained = Drained()
      while true {
        switch try receiveFromKernel(socket) {
        case .empty:
          return drained
        case .overflow:
          drained.resyncReason = drained.resyncReason ?? "ENOBUFS: the kernel dropped notifications"
        case .truncated:
          drained.resyncReason = drained.resyncReason ?? "a datagram larger than the receive buffer"
        case .bytes(let count):
          guard drained.resyncReason == nil else { continue }
          let datagram = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])
          do throws(NetlinkDecodeError) {
            // The common case, a route notification in a datagram of its own, decoded to what is read of it: it
            // changes nothing mirrored, and matters when its prefix holds a lookup destination.
            if let notification = try NetlinkMessageDecoder.routeMessage(in: datagram),
              notification.portID != socket.portID
            {
              if !drained.relevant { drained.relevant = RouteLookupRequest.mayChangeAnswers(notification.route) }
            } else {
              try NetlinkMessageDecoder.forEachMessage(in: datagram, using: &decoded) { message in
                // Ours are late answers to lookups given up on: dropped.
                guard message.portID != socket.portID else { return }
                state.apply(message)
                if !drained.relevant { drained.relevant = RouteLookupRequest.mayChangeAnswers(message) }
              }
            }
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            drained.resyncReason = "undecodable notification: \(error)"
          }
          // A change that matters: look up now. The lookups are asked on this socket, so the exchange reads
          // whatever is queued before its answers (and looks up again if that matters too); what it does not read
          // (no lookup to ask) keeps the socket readable for the next turn. One receive less per change than
          // reading on to EAGAIN.
          if drained.relevant, drained.resyncReason == nil { return drained }
        }
      }
    }

    // MARK: Dumps

    /// Rebuilds the state from scratch: drops what is queued, dumps links and addresses (applying
    /// notifications that arrive in between, in order), and retries until a dump completes without loss.
    ///
    /// Waits for a reply from the kernel on the socket, at most ``replyTimeoutMilliseconds``.
    ///
    /// - Returns: `false` when nothing came in time.
    private func awaitReply(_ socket: NetlinkSocket) throws(NetworkMonitorError) -> Bool {
      var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
      let ready = try SystemCall.invoke("poll(netlink)") { poll(&descriptor, 1, Self.replyTimeoutMilliseconds) }
      return ready > 0
    }

    /// Rebuilds the state from scratch (``InitialDump`` decides; this does its I/O): drops what is queued, dumps
    /// links and addresses, and starts over until a dump completes without loss.
    private func dumpEverything() throws(NetworkMonitorError) {
      guard let opened = socket else { throw .sourceFailed("the rtnetlink socket is closed") }
      try discardQueued()
      var dump = InitialDump(sequence: sequence, portID: opened.portID, describeErrno: SystemErrno.describe)
      defer {
        sequence = dump.sequence
        let (interrupted, undecodable) = (dump.interruptedDumps, dump.decodeErrors)
        if interrupted + undecodable > 0 {
          shared.withLock {
            $0.statistics.interruptedDumps += interrupted
            $0.statistics.decodeErrors += undecodable
          }
        }
      }
      let closed = NetworkMonitorError.sourceFailed("the rtnetlink socket is closed")
      let fresh = try dump.run(
        send: { request, number throws(NetworkMonitorError) in
          guard let socket else { throw closed }
          try NetworkMonitorError.converting { () throws(SystemCallError) in
            try socket.send(request.bytes(sequence: number), describing: "sendto(\(request) dump request)")
          }
        },
        receive: { () throws(NetworkMonitorError) -> InitialDump.Received? in
          guard let socket else { throw closed }
          switch try receiveFromKernel(socket) {
          case .empty:
            // The kernel answers within sendto and makes a dump's next part within recvmsg: waiting only
            // bounds a kernel that does not answer at all.
            return try awaitReply(socket) ? nil : .timedOut
          case .overflow: return .overflow
          case .truncated: return .truncated
          case .bytes(let count):
            do throws(NetlinkDecodeError) {
              return .messages(
                try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])))
            } catch {
              return .undecodable(error)
            }
          }
        },
        restart: { reason, reopen throws(NetworkMonitorError) -> UInt32? in
          shared.withLock {
            $0.statistics.resyncs += 1
            $0.statistics.lastResyncReason = reason
          }
          if reopen { try reopenSocket() }
          try discardQueued()
          return reopen ? socket?.portID : nil
        },
        failure: NetworkMonitorError.init(dumpFailure:))
      state = fresh
      resyncReason = nil
      shared.withLock { $0.statistics.dumps += 1 }
    }

    /// Reads and drops everything queued, a pending ENOBUFS included: a dump follows.
    private func discardQueued() throws(NetworkMonitorError) {
      guard let socket else { return }
      while true {
        if case .empty = try receiveFromKernel(socket) { return }
      }
    }

    /// What one receive from the kernel gave, after the checks every reader of a socket makes.
    enum KernelDatagram {
      /// Nothing is queued (EAGAIN).
      case empty
      /// ENOBUFS: the kernel dropped messages (counted).
      case overflow
      /// The datagram was larger than the buffer, which has grown for the next one; its messages are lost.
      case truncated
      /// A datagram from the kernel: this many bytes at the start of `buffer`.
      case bytes(Int)
    }

    /// Receives one datagram on `socket` into `buffer`. A datagram from anyone but the kernel (a sender port
    /// other than 0: spoofable) is counted and skipped.
    private func receiveFromKernel(_ socket: NetlinkSocket) throws(NetworkMonitorError) -> KernelDatagram {
      while true {
        let received = try NetworkMonitorError.converting { () throws(SystemCallError) in
          try socket.receive(into: buffer.bytes)
        }
        switch received {
        case .empty:
          return .empty
        case .overflow:
          shared.withLock { $0.statistics.overflows += 1 }
          return .overflow
        case .datagram(let count, let sender, let truncated):
          guard sender == 0 else {
            shared.withLock { $0.statistics.foreignDatagrams += 1 }
            continue
          }
          if truncated {
            buffer.grow()
            return .truncated
          }
          return .bytes(count)
        }
      }
    }

    // MARK: Paths

    /// The path now. With `lookingUp`, asks the kernel's route lookups afresh (the evaluator says which);
    /// without, reuses the last answers (only the resolver configuration changed).
    private func evaluate(lookingUp: Bool) throws(NetworkMonitorError) -> NetworkPath {
      if typeCache.count > state.links.count * 2 + 8 {
        let links = state.links
        typeCache = typeCache.filter { links[$0.key] != nil }
      }
      let filter = configuration.filter
      guard lookingUp else { return path(of: state, filter: filter) }
      // Every notification that changes the state (a link or an address) marks the lookups outdated: while they are
      // not, the state read here is the state after the lookups too.
      let outdatedBefore = lookupsOutdated
      answers.removeAll()
      requests.removeAllKeepingCapacity()
      PathEvaluator.appendPrimaryLookups(state: state, filter: filter, to: &requests)
      try lookUp(requests, into: &answers)
      requests.removeAllKeepingCapacity()
      // Read once (the lookups applied the notifications that came meanwhile): each read of the property is a copy.
      let state = self.state
      var eligible = knownEligibleLinks(of: state.links)
      let known = eligible
      PathEvaluator.appendInterfaceLookups(
        state: state, answers: answers, filter: filter, eligible: &eligible,
        classify: { classify($0, knowing: known) }, to: &requests)
      remember(eligible, knowing: known, of: state.links)
      guard !requests.isEmpty else { return path(of: state, filter: filter) }
      try lookUp(requests, into: &answers)
      return path(of: outdatedBefore || lookupsOutdated ? self.state : state, filter: filter)
    }

    /// The path of `state` with the answers of the last lookups.
    private func path(of state: KernelState, filter: InterfaceFilter) -> NetworkPath {
      var eligible = knownEligibleLinks(of: state.links)
      let known = eligible
      let path = PathEvaluator.evaluate(
        state: state, answers: answers, supportsDNS: resolver.supportsDNS, filter: filter, eligible: &eligible,
        classify: { classify($0, knowing: known) })
      remember(eligible, knowing: known, of: state.links)
      return path
    }

    /// The eligible links (``PathEvaluator/eligibleLinks(state:filter:classify:)``) of `links`, when the last ones
    /// computed were for the same links: comparing dictionaries that share their storage (no link changed since)
    /// is immediate, and a link's type only changes with the link (see ``classify(_:)``).
    private func knownEligibleLinks(of links: [Int32: NetlinkLink]) -> [PathEvaluator.Eligible]? {
      guard eligibleLinksSource == links else { return nil }
      return eligibleLinks
    }

    /// Keeps `eligible`, when computed (`known` is what ``knownEligibleLinks(of:)`` gave: when it gave them, they are
    /// kept already), as the eligible links of `links`.
    private func remember(
      _ eligible: [PathEvaluator.Eligible]?, knowing known: [PathEvaluator.Eligible]?, of links: [Int32: NetlinkLink]
    ) {
      guard known == nil, let eligible else { return }
      eligibleLinksSource = links
      eligibleLinks = eligible
    }

    /// The path after fresh lookups, asked again while notifications that may change their answers arrive
    /// meanwhile (re-dumping first when some were lost), at most ``maximumRoundsPerWork`` times.
    ///
    /// - Parameter settled: Set to whether the path is settled: `false` when notifications were still arriving, so
    ///   that another round must follow.
    /// - Returns: The path.
    private func evaluateUntilSettled(settled: inout Bool) throws(NetworkMonitorError) -> NetworkPath {
      var rounds = 0
      while true {
        if let reason = resyncReason {
          shared.withLock {
            $0.statistics.resyncs += 1
            $0.statistics.lastResyncReason = reason
          }
          try dumpEverything()
        }
        lookupsOutdated = false
        let path = try evaluate(lookingUp: true)
        rounds += 1
        settled = !lookupsOutdated && resyncReason == nil
        if settled || rounds >= Self.maximumRoundsPerWork { return path }
      }
    }

    /// Asks the kernel these route lookups, in batches, and adds every answer to `answers` (which holds no
    /// answer to any of them yet).
    ///
    /// The kernel answers each request while `sendto` runs, so the answers are queued when it returns; a
    /// batch is at most ``lookupBatchSize`` requests so that its answers fit in the socket's buffer. A lookup
    /// the kernel did not answer (lost to ENOBUFS, or a datagram that does not decode) is asked once more,
    /// then counts as failed with EIO.
    private func lookUp(_ requests: [RouteLookupRequest], into answers: inout RouteLookupAnswers)
      throws(NetworkMonitorError)
    {
      guard !requests.isEmpty else { return }
      var asked = 0
      var pending = requests[...]
      var firstAttempt = 0
      if requests.count <= Self.lookupBatchSize {
        // The common case, one batch, as its own first attempt: when all is answered, no slices and no list of the
        // unanswered.
        asked = requests.count
        if try exchange(pending, into: &answers) == requests.count {
          lookupsAsked += asked
          return
        }
        pending = ArraySlice(requests.filter { answers[$0] == nil })
        firstAttempt = 1
      }
      for attempt in firstAttempt..<2 where !pending.isEmpty {
        var unanswered: [RouteLookupRequest] = []
        while !pending.isEmpty {
          let batch = pending.prefix(Self.lookupBatchSize)
          pending = pending.dropFirst(batch.count)
          asked += batch.count
          guard try exchange(batch, into: &answers) < batch.count else { continue }
          for request in batch where answers[request] == nil { unanswered.append(request) }
        }
        if attempt == 1 {
          for request in unanswered { answers[request] = .failed(errno: EIO) }
        } else {
          pending = unanswered[...]
        }
      }
      lookupsAsked += asked
    }

    /// Sends one batch of lookups in one datagram and adds the answers to `answers`, matched by sequence number
    /// (the batch's requests have consecutive ones); returns how many of the batch's requests were answered.
    /// Notifications read meanwhile are applied in order; one that may change a lookup's answer marks the lookups
    /// outdated, and a loss (ENOBUFS) calls for a re-dump.
    private func exchange(_ batch: ArraySlice<RouteLookupRequest>, into answers: inout RouteLookupAnswers)
      throws(NetworkMonitorError) -> Int
    {
      guard let socket else { return 0 }
      if sequence > UInt32.max - UInt32(Self.lookupBatchSize) { sequence = 0 }
      let first = sequence + 1
      sequence += UInt32(batch.count)
      var length = 0
      for (offset, request) in batch.enumerated() {
        length += request.write(into: lookupRequestBytes, at: length, sequence: first + UInt32(offset))
      }
      try NetworkMonitorError.converting { () throws(SystemCallError) in
        try socket.send(
          UnsafeRawBufferPointer(rebasing: lookupRequestBytes[0..<length]), describing: "sendto(RTM_GETROUTE lookups)")
      }
      var received = 0
      var waited = false
      while received < batch.count {
        switch try receiveFromKernel(socket) {
        case .empty:
          // Answers are queued before sendto returns; wait only in case a kernel ever defers them.
          guard !waited, try awaitReply(socket) else { return received }
          waited = true
        case .overflow:
          // Notifications lost, maybe answers too (asked again by lookUp).
          resyncReason = resyncReason ?? "ENOBUFS: the kernel dropped notifications"
        case .truncated:
          resyncReason = resyncReason ?? "a datagram larger than the receive buffer"
        case .bytes(let count):
          let datagram = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])
          do throws(NetlinkDecodeError) {
            // The common case, an answer in a datagram of its own, decoded to what the evaluator reads.
            if let reply = try NetlinkMessageDecoder.lookupReply(in: datagram, portID: socket.portID) {
              // Answers to earlier batches (given up on) carry older sequence numbers: dropped here.
              if let result = reply.result, reply.sequence >= first, reply.sequence - first < UInt32(batch.count),
                answers.record(result, for: batch[batch.startIndex + Int(reply.sequence - first)])
              {
                received += 1
              }
              continue
            }
            try NetlinkMessageDecoder.forEachMessage(in: datagram, using: &decoded) { message in
              guard message.portID == socket.portID else {
                state.apply(message)
                if !lookupsOutdated { lookupsOutdated = RouteLookupRequest.mayChangeAnswers(message) }
                return
              }
              // Answers to earlier batches (given up on) carry older sequence numbers: dropped here.
              guard message.sequence >= first, message.sequence - first < UInt32(batch.count) else { return }
              let request = batch[batch.startIndex + Int(message.sequence - first)]
              switch message.event {
              case .newRoute(let route):
                if answers.record(.route(route), for: request) { received += 1 }
              case .error(let code) where code != 0:
                if answers.record(.failed(errno: code), for: request) { received += 1 }
              default: break
              }
            }
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            resyncReason = resyncReason ?? "undecodable notification: \(error)"
          }
        }
      }
      return received
    }

    /// ``classify(_:)``, answered from `eligible` when the link is there: eligible links of the current links were
    /// classified by it for these very links, so the primary's link (usually among them) needs no cache lookup.
    private func classify(_ link: NetlinkLink, knowing eligible: [PathEvaluator.Eligible]?) -> InterfaceType {
      // By position: `firstIndex(where:)` would copy (retain and release) every link it passes.
      if let eligible {
        for position in eligible.indices where eligible[position].link.index == link.index {
          return eligible[position].type
        }
      }
      return classify(link)
    }

    /// Classifies a link, reading sysfs only when the link is new or its name, kind, type or address changed.
    private func classify(_ link: NetlinkLink) -> InterfaceType {
      if let cached = typeCache[link.index], cached.link.name == link.name, cached.link.kind == link.kind,
        cached.link.hardwareType == link.hardwareType, cached.link.hardwareAddress == link.hardwareAddress
      {
        return cached.type
      }
      let type = configuration.classifier.classify(link)
      typeCache[link.index] = (link, type)
      return type
    }

    /// Evaluates (looking up afresh when `lookingUp`) and sends the path if it changed.
    ///
    /// - Returns: ``Outcome/again`` when notifications kept arriving during the lookups.
    private func publishIfChanged(lookingUp: Bool) throws(NetworkMonitorError) -> Outcome {
      var settled = true
      // Returned alone, not in a tuple with `settled`: taking a tuple apart copied the path.
      let path = lookingUp ? try evaluateUntilSettled(settled: &settled) : try evaluate(lookingUp: false)
      let changed = !hasLastPath || lastPath != path
      let sends = changed && !control.isStopRequested
      // One lock for the statistics of the evaluation and of the path it sends.
      let asked = lookupsAsked
      lookupsAsked = 0
      shared.withLock {
        $0.statistics.evaluations += 1
        $0.statistics.lookups += asked
        if sends { $0.statistics.pathsSent += 1 }
        if $0.recordsKernelState { $0.kernelState = state }
      }
      let outcome: Outcome = settled ? .idle : .again
      if !control.isStopRequested { observeLinks() }
      guard changed else { return outcome }
      // Sent first, then kept: the assignment is the path's last use, a move rather than a copy. The sink runs on
      // this thread and cannot reach this session's state (a sink that stops the session only marks it stopped).
      if sends { sink.send(path) }
      lastPath = path
      hasLastPath = true
      return outcome
    }

    // MARK: Watches

    /// Watches the folders of the resolver configuration (and of its upstream list). Fails only when a watch
    /// hits a limit: without it, a change of DNS servers would go unseen.
    private func watchResolverConfiguration() throws(NetworkMonitorError) {
      for target in ResolverConfiguration.watchTargets(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      {
        if let watch = try NetlinkEventHub.watch(folder: target.directory, .contents, for: reservation) {
          resolverWatches[watch, default: []].formUnion(target.names)
        }
      }
    }

    private func resolverChanged(_ events: [InotifyWatcher.Event]) -> Bool {
      events.contains { event in
        if event.mask & InotifyWatcher.overflow != 0 { return true }
        guard let names = resolverWatches[event.watch] else { return false }
        return event.name.isEmpty || names.contains(event.name)
      }
    }

    private func namespaceWasDeleted(_ events: [InotifyWatcher.Event]) -> Bool {
      guard let namespace = configuration.namespace, let handle = namespaceIdentity else { return false }
      let name = LocalFile.lastComponent(of: namespace.path)
      let relevant = events.contains { event in
        event.mask & InotifyWatcher.overflow != 0
          || (event.watch == namespaceWatch && (event.name.isEmpty || event.name == name))
      }
      return relevant && !namespace.stillNames(handle)
    }
  }
#endif
