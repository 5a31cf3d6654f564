#if os(Linux)
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// What the event thread and the session share: the stop request and the start-up handshake.
  final class NetlinkSessionControl: Sendable {
    /// How start-up ended.
    enum Startup: Sendable {
      /// The initial dump is done; this is the first path.
      case ready(NetworkPath)
      /// The source could not start.
      case failed(NetworkMonitorError)
    }

    struct State: Sendable {
      var startup: Startup?
      var stopRequested = false
      /// stop() was called on the event thread itself (from the sink): the thread closes the wake descriptor.
      var threadClosesWake = false
      /// start() has sent the first path; the thread may send the next ones.
      var proceeding = false
    }

    /// The eventfd that wakes the event thread's poll() when the session stops.
    let wakeFD: Int32
    let state = Mutex(State())
    /// Signalled by the event thread when start-up has ended, one way or the other.
    let ready = DispatchSemaphore(value: 0)
    /// Signalled by start() once it has sent the first path, so that the thread sends later paths after it.
    let proceed = DispatchSemaphore(value: 0)
    /// Signalled when the thread has closed its descriptors and is about to end (for tests of a session
    /// stopped from its own thread, which nobody joins).
    let finished = DispatchSemaphore(value: 0)

    init(wakeFD: Int32) {
      self.wakeFD = wakeFD
    }

    var isStopRequested: Bool { state.withLockedValue { $0.stopRequested } }
  }

  /// Everything a session's event thread needs, and the state only that thread touches.
  ///
  /// Thread-confined: created by `start()`, handed to the event thread by `pthread_create` (which orders
  /// the hand-over) and never touched by another thread afterwards. Shared data goes through
  /// ``NetlinkSessionControl`` and the source's statistics, both behind a lock (a `Mutex`).
  final class NetlinkEventLoop {
    struct Configuration {
      var namespace: NetworkNamespace?
      var namespaceHandle: NetworkNamespace.Handle?
      var classifier: InterfaceClassifier
      var resolverConfigurationPath: String
      var resolvedUpstreamPath: String
      var receiveBufferSize: Int
      var filter: InterfaceFilter
      var eventGate: DispatchSemaphore?
    }

    /// Consecutive re-dumps failing on undecodable data before the source gives up (a decoder bug, not a
    /// transient loss: re-dumping forever would spin).
    static let maximumConsecutiveDecodeFailures = 5
    /// Errors answering a dump request that retrying cannot fix.
    static let fatalDumpErrors: Set<Int32> = [EPERM, EACCES, EINVAL, EOPNOTSUPP, EPROTONOSUPPORT, EAFNOSUPPORT]
    /// Consecutive refusals of a dump (other than ENOBUFS) before the source gives up.
    static let maximumConsecutiveRefusals = 20
    private static let initialBufferSize = 64 * 1024
    private static let maximumBufferSize = 4 * 1024 * 1024
    /// The lookup socket's receive buffer, and how many lookups are sent at once: the kernel answers each
    /// request before `sendto` returns, so one batch's answers must fit in the buffer together.
    private static let lookupReceiveBufferSize = 1024 * 1024
    private static let lookupBatchSize = 64
    /// How long to wait for the answers to a batch of lookups. The kernel answers within `sendto`, so this
    /// only bounds a kernel that does not answer at all.
    private static let lookupTimeoutMilliseconds: Int32 = 2_000

    private let configuration: Configuration
    private let sink: PathSink
    private let control: NetlinkSessionControl
    private let shared: NetlinkSourceRecord

    private var socket: NetlinkSocket?
    /// The unsubscribed socket route lookups are sent on, so their answers never queue behind (or get lost
    /// with) notifications.
    private var lookupSocket: NetlinkSocket?
    private var lookupSequence: UInt32 = 0
    /// The bytes of the batch of lookups being sent, kept to reuse its storage.
    private var lookupRequestBytes: [UInt8] = []
    /// The answers of the last lookups, reused when only the resolver configuration changed.
    private var answers = RouteLookupAnswers()
    private var inotify: InotifyWatcher?
    private var resolverWatches: [Int32: Set<String>] = [:]
    private var namespaceWatch: Int32?
    /// A pidfd for the process whose `/proc/PID/ns/net` is watched, readable once it exits; see
    /// ``NetworkNamespace/openProcessDescriptor(matching:)``.
    private var processExit: Int32?
    private var state = KernelState()
    private var resolver = ResolverConfiguration(nameservers: [])
    private var lastPath: NetworkPath?
    private var typeCache: [Int32: (link: NetlinkLink, type: InterfaceType)] = [:]
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: initialBufferSize, alignment: 8)
    private var sequence: UInt32 = 0

    init(
      configuration: Configuration, sink: PathSink, control: NetlinkSessionControl,
      shared: NetlinkSourceRecord
    ) {
      self.configuration = configuration
      self.sink = sink
      self.control = control
      self.shared = shared
    }

    deinit {
      buffer.deallocate()
    }

    // MARK: Thread body

    /// The event thread's body: start up, hand the first path to `start()`, then loop until stopped.
    func run() {
      // Named for top -H, /proc/PID/task/TID/comm and debuggers (at most 15 characters).
      _ = cns_set_thread_name("netstatus-rtnl")
      defer {
        closeEverything()
        control.finished.signal()
      }
      do throws(NetworkMonitorError) {
        try startUp()
      } catch {
        control.state.withLockedValue { $0.startup = .failed(error) }
        control.ready.signal()
        return
      }
      let path: NetworkPath
      do throws(NetworkMonitorError) {
        path = try evaluate(lookingUp: true)
      } catch {
        control.state.withLockedValue { $0.startup = .failed(error) }
        control.ready.signal()
        return
      }
      lastPath = path
      control.state.withLockedValue { $0.startup = .ready(path) }
      control.ready.signal()
      control.proceed.wait()
      // The semaphore orders this after start()'s first send; reading the flag under the lock shows that
      // ordering to ThreadSanitizer too.
      guard control.state.withLockedValue({ $0.proceeding }) else { return }
      configuration.eventGate?.wait()
      do throws(NetworkMonitorError) {
        try loop()
      } catch {
        if !control.isStopRequested { sink.fail(error) }
      }
    }

    private func startUp() throws(NetworkMonitorError) {
      if let handle = configuration.namespaceHandle, let namespace = configuration.namespace {
        defer { SystemCall.close(handle.fd) }
        try NetworkNamespace.enter(handle, path: namespace.path)
      }
      inotify = try InotifyWatcher.open()
      try watchResolverConfiguration()
      if let namespace = configuration.namespace {
        namespaceWatch = try inotify?.watch(folder: LocalFile.directory(of: namespace.path))
        if let handle = configuration.namespaceHandle {
          processExit = try namespace.openProcessDescriptor(matching: handle)
        }
      }
      resolver = ResolverConfiguration.load(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      try openSocket()
      guard try dumpEverything() else { return }
    }

    /// Opens the subscribed netlink socket (subscribed before any dump) and records its port ID for tests;
    /// opens the lookup socket the first time.
    private func openSocket() throws(NetworkMonitorError) {
      let opened = try NetlinkSocket.open(receiveBufferSize: configuration.receiveBufferSize)
      socket = opened
      shared.withLock { $0.portID = opened.portID }
      if lookupSocket == nil {
        let lookups = try NetlinkSocket.open(receiveBufferSize: Self.lookupReceiveBufferSize, groups: 0)
        lookupSocket = lookups
        shared.withLock { $0.lookupPortID = lookups.portID }
      }
    }

    /// Closes what the thread opened. The namespace descriptor is not among them: ``startUp()`` closes it
    /// right after `setns`, whatever happens.
    private func closeEverything() {
      socket?.close()
      socket = nil
      lookupSocket?.close()
      lookupSocket = nil
      inotify?.close()
      inotify = nil
      if let processExit { SystemCall.close(processExit) }
      processExit = nil
      let closesWake = control.state.withLockedValue { $0.threadClosesWake }
      if closesWake { SystemCall.close(control.wakeFD) }
    }

    // MARK: Event loop

    /// Waits for netlink, inotify, the watched process's exit or the wake descriptor; reads everything available;
    /// recomputes once.
    private func loop() throws(NetworkMonitorError) {
      while !control.isStopRequested {
        guard let socket, let inotify else { return }
        var descriptors = [
          pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
          pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0),
          pollfd(fd: inotify.fd, events: Int16(POLLIN), revents: 0),
          // poll ignores a negative descriptor: without a watched process, this entry never fires.
          pollfd(fd: processExit ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        try SystemCall.run("poll(netlink, inotify, pidfd, eventfd)") {
          poll(&descriptors, nfds_t(descriptors.count), -1)
        }
        if descriptors[0].revents != 0 { return }
        if descriptors[3].revents != 0, let namespace = configuration.namespace {
          // The process exited: /proc/PID/ns/net names nothing now, as if the namespace had been deleted.
          if !control.isStopRequested { sink.fail(.namespaceDeleted(path: namespace.path)) }
          return
        }
        var changed = false
        var routingChanged = false
        if descriptors[2].revents != 0 {
          let events = try inotify.readEvents()
          if namespaceWasDeleted(events), let namespace = configuration.namespace {
            if !control.isStopRequested { sink.fail(.namespaceDeleted(path: namespace.path)) }
            return
          }
          if resolverChanged(events) {
            try watchResolverConfiguration()
            resolver = ResolverConfiguration.load(
              path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
            shared.withLock { $0.statistics.resolverReloads += 1 }
            changed = true
          }
        }
        if descriptors[1].revents != 0 {
          let read = try readNotifications()
          if let reason = read.resyncReason {
            shared.withLock {
              $0.statistics.resyncs += 1
              $0.statistics.lastResyncReason = reason
            }
            guard try dumpEverything() else { return }
            routingChanged = true
          }
          routingChanged = routingChanged || read.relevant
        }
        if changed || routingChanged { try publishIfChanged(lookingUp: routingChanged) }
      }
    }

    /// What one drain of the subscribed socket found.
    struct Drained {
      /// Why a re-dump is needed, if one is.
      var resyncReason: String?
      /// Whether anything arrived that may change a route lookup's answer: a link, address, rule or nexthop
      /// change, or a route whose prefix contains a lookup destination.
      var relevant = false
    }

    /// Reads every pending datagram (until EAGAIN) and applies it. Once a re-dump is known to be needed, the
    /// rest is read and dropped, since the dump replaces it.
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
          do throws(NetlinkDecodeError) {
            let messages = try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            state.apply(messages)
            if !drained.relevant { drained.relevant = messages.contains(where: Self.mayChangeLookups) }
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            drained.resyncReason = "undecodable notification: \(error)"
          }
        }
      }
    }

    /// Whether a notification may change the answer of a route lookup. A route that does not contain the
    /// lookup destination of its family cannot: the kernel's lookup only consults routes whose prefix
    /// contains the destination (plus rules, nexthop objects, links and addresses, which always count).
    static func mayChangeLookups(_ message: NetlinkMessage) -> Bool {
      switch message.event {
      case .newLink, .deletedLink, .newAddress, .deletedAddress, .routingPolicyChanged:
        return true
      case .newRoute(let route), .deletedRoute(let route):
        return route.contains(
          route.family == RTNL.AF_INET
            ? RouteLookupRequest.ipv4Destination
            : RouteLookupRequest.ipv6Destination)
      case .done, .error, .overrun, .ignored:
        return false
      }
    }

    // MARK: Dumps

    /// Rebuilds the state from scratch: drops what is queued, dumps links and addresses (applying
    /// notifications that arrive in between, in order), and retries until a dump completes without loss.
    ///
    /// - Returns: `false` when the session was stopped meanwhile.
    private func dumpEverything() throws(NetworkMonitorError) -> Bool {
      var consecutiveDecodeFailures = 0
      var consecutiveRefusals = 0
      while true {
        guard let socket else { return false }
        try discardQueued()
        var fresh = KernelState()
        var restart: String?
        var reopen = false
        requests: for request in NetlinkDumpRequest.allCases {
          sequence = sequence == UInt32.max ? 1 : sequence + 1
          try socket.send(request.bytes(sequence: sequence), describing: "sendto(\(request) dump request)")
          var finished = false
          while !finished {
            var descriptors = [
              pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
              pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0),
            ]
            try SystemCall.run("poll(netlink, eventfd)") { poll(&descriptors, nfds_t(descriptors.count), -1) }
            if descriptors[0].revents != 0 { return false }
            receiving: while !finished {
              switch try receiveFromKernel(socket) {
              case .empty:
                break receiving
              case .overflow:
                // The kernel may have dropped the reply to our request (an error acknowledgement) or stalled
                // the dump: only a new socket is certain to be answered.
                restart = "ENOBUFS during the \(request) dump"
                reopen = true
                break requests
              case .truncated:
                restart = "a dump datagram larger than the receive buffer"
                reopen = true
                break requests
              case .bytes(let count):
                let messages: [NetlinkMessage]
                do throws(NetlinkDecodeError) {
                  messages = try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                } catch {
                  // The end of the dump may be in the undecodable datagram: start over on a new socket.
                  shared.withLock { $0.statistics.decodeErrors += 1 }
                  consecutiveDecodeFailures += 1
                  if consecutiveDecodeFailures >= Self.maximumConsecutiveDecodeFailures {
                    throw .sourceFailed("rtnetlink sent data NetStatus cannot decode: \(error)")
                  }
                  restart = "undecodable dump reply: \(error)"
                  reopen = true
                  break requests
                }
                for message in messages {
                  guard message.portID == socket.portID, message.sequence == sequence else {
                    fresh.apply(message)  // a notification, in order with the dump
                    continue
                  }
                  if message.isDumpInterrupted, restart == nil {
                    shared.withLock { $0.statistics.interruptedDumps += 1 }
                    restart = "NLM_F_DUMP_INTR: the \(request) changed during the dump"
                  }
                  switch message.event {
                  case .done(let code):
                    if code != 0 { restart = restart ?? "the \(request) dump ended with errno \(code)" }
                    finished = true
                  case .error(let code) where code != 0:
                    // ENOBUFS here: the first part of the dump did not fit, and the dump is stalled.
                    if Self.fatalDumpErrors.contains(code) {
                      throw .systemCall(call: "rtnetlink \(request) dump", errno: code)
                    }
                    if code != ENOBUFS {
                      consecutiveRefusals += 1
                      if consecutiveRefusals >= Self.maximumConsecutiveRefusals {
                        throw .systemCall(call: "rtnetlink \(request) dump", errno: code)
                      }
                    }
                    restart = "the \(request) dump was refused: \(SystemErrno.describe(code))"
                    reopen = true
                    finished = true
                  default:
                    fresh.apply(message)
                  }
                }
              }
            }
          }
          if restart != nil { break requests }
        }
        if let restart {
          shared.withLock {
            $0.statistics.resyncs += 1
            $0.statistics.lastResyncReason = restart
          }
          if reopen {
            socket.close()
            self.socket = nil
            try openSocket()
          }
          continue
        }
        state = fresh
        shared.withLock { $0.statistics.dumps += 1 }
        return true
      }
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
        switch try socket.receive(into: buffer) {
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
            growBuffer()
            return .truncated
          }
          return .bytes(count)
        }
      }
    }

    private func growBuffer() {
      let size = min(buffer.count * 2, Self.maximumBufferSize)
      guard size > buffer.count else { return }
      buffer.deallocate()
      buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    }

    // MARK: Paths

    /// The path now. With `lookingUp`, asks the kernel's route lookups afresh (the evaluator says which);
    /// without, reuses the last answers (only the resolver configuration changed).
    private func evaluate(lookingUp: Bool) throws(NetworkMonitorError) -> NetworkPath {
      let links = state.links
      if typeCache.count > links.count * 2 + 8 { typeCache = typeCache.filter { links[$0.key] != nil } }
      let filter = configuration.filter
      if lookingUp {
        answers = try lookUp(PathEvaluator.primaryLookups(state: state, filter: filter))
        let second = PathEvaluator.interfaceLookups(state: state, answers: answers, filter: filter, classify: classify)
        if !second.isEmpty { answers.merge(try lookUp(second)) }
      }
      return PathEvaluator.evaluate(
        state: state, answers: answers, supportsDNS: resolver.supportsDNS, filter: filter, classify: classify)
    }

    /// Asks the kernel these route lookups on the lookup socket, in batches, and collects every answer.
    ///
    /// The kernel answers each request while `sendto` runs, so the answers are queued when it returns; a
    /// batch is at most ``lookupBatchSize`` requests so that its answers fit in the socket's buffer. A lookup
    /// the kernel did not answer (lost to ENOBUFS, or a datagram that does not decode) is asked once more,
    /// then counts as failed with EIO.
    private func lookUp(_ requests: [RouteLookupRequest]) throws(NetworkMonitorError) -> RouteLookupAnswers {
      var answers = RouteLookupAnswers()
      guard !requests.isEmpty else { return answers }
      var asked = 0
      var pending = requests[...]
      for attempt in 0..<2 where !pending.isEmpty {
        var unanswered: [RouteLookupRequest] = []
        while !pending.isEmpty {
          let batch = pending.prefix(Self.lookupBatchSize)
          pending = pending.dropFirst(batch.count)
          asked += batch.count
          let received = try exchange(batch)
          if received.count == batch.count {
            if answers.count == 0 { answers = received } else { answers.merge(received) }
            continue
          }
          for request in batch {
            if let answer = received[request] { answers[request] = answer } else { unanswered.append(request) }
          }
        }
        if attempt == 1 {
          for request in unanswered { answers[request] = .failed(errno: EIO) }
        } else {
          pending = unanswered[...]
        }
      }
      shared.withLock { $0.statistics.lookups += asked }
      return answers
    }

    /// Sends one batch of lookups in one datagram and reads the answers, matched by sequence number (the batch's
    /// requests have consecutive ones).
    private func exchange(_ batch: ArraySlice<RouteLookupRequest>) throws(NetworkMonitorError) -> RouteLookupAnswers {
      guard let lookupSocket else { return RouteLookupAnswers() }
      if lookupSequence > UInt32.max - UInt32(Self.lookupBatchSize) { lookupSequence = 0 }
      let first = lookupSequence + 1
      lookupSequence += UInt32(batch.count)
      lookupRequestBytes.removeAll(keepingCapacity: true)
      for (offset, request) in batch.enumerated() {
        request.append(to: &lookupRequestBytes, sequence: first + UInt32(offset))
      }
      try lookupSocket.send(lookupRequestBytes, describing: "sendto(RTM_GETROUTE lookups)")
      var answers = RouteLookupAnswers()
      var waited = false
      while answers.count < batch.count {
        switch try receiveFromKernel(lookupSocket) {
        case .empty:
          // Answers are queued before sendto returns; wait only in case a kernel ever defers them.
          guard !waited else { return answers }
          waited = true
          var descriptors = [
            pollfd(fd: control.wakeFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: lookupSocket.fd, events: Int16(POLLIN), revents: 0),
          ]
          try SystemCall.run("poll(lookup socket)") {
            poll(&descriptors, nfds_t(descriptors.count), Self.lookupTimeoutMilliseconds)
          }
          if descriptors[0].revents != 0 { return answers }
        case .overflow, .truncated:
          continue  // answers lost: asked again by lookUp
        case .bytes(let count):
          let messages: [NetlinkMessage]
          do throws(NetlinkDecodeError) {
            messages = try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            continue
          }
          for message in messages where message.portID == lookupSocket.portID {
            // Answers to earlier batches (given up on) carry older sequence numbers: dropped here.
            guard message.sequence >= first, message.sequence - first < UInt32(batch.count) else { continue }
            let request = batch[batch.startIndex + Int(message.sequence - first)]
            switch message.event {
            case .newRoute(let route): answers[request] = .route(route)
            case .error(let code) where code != 0: answers[request] = .failed(errno: code)
            default: break
            }
          }
        }
      }
      return answers
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

    private func publishIfChanged(lookingUp: Bool) throws(NetworkMonitorError) {
      let path = try evaluate(lookingUp: lookingUp)
      shared.withLock {
        $0.statistics.evaluations += 1
        if $0.recordsKernelState { $0.kernelState = state }
      }
      guard path != lastPath else { return }
      lastPath = path
      guard !control.isStopRequested else { return }
      sink.send(path)
      shared.withLock { $0.statistics.pathsSent += 1 }
    }

    // MARK: Watches

    /// Watches the folders of the resolver configuration (and of its upstream list). Fails only when a watch
    /// hits a limit: without it, a change of DNS servers would go unseen.
    private func watchResolverConfiguration() throws(NetworkMonitorError) {
      guard let inotify else { return }
      for target in ResolverConfiguration.watchTargets(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      {
        if let watch = try inotify.watch(folder: target.directory) {
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
      guard let namespace = configuration.namespace, let handle = configuration.namespaceHandle else { return false }
      let name = LocalFile.lastComponent(of: namespace.path)
      let relevant = events.contains { event in
        event.mask & InotifyWatcher.overflow != 0
          || (event.watch == namespaceWatch && (event.name.isEmpty || event.name == name))
      }
      return relevant && !namespace.stillNames(handle)
    }
  }
#endif
