#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// The work of one ``NetlinkPathSource`` session, for one network namespace: its netlink socket, its mirror
  /// of links and addresses, its route lookups and its last path.
  ///
  /// Start-up (``startUp()``: watches, socket, dump, first path) runs on the thread that starts the session;
  /// after that, only ``NetlinkEventHub``'s thread runs it, one ``Work`` at a time (``handle(_:)``), and never waits
  /// there: an evaluation that misses the kernel's answers returns ``Outcome/waiting(until:)`` and goes on with the
  /// next readiness of its socket, or with ``Work/deadlinePassed``.
  ///
  /// `@unchecked Sendable`: its mutable state is used by one thread at a time: the starting thread until
  /// ``NetlinkEventHub/activate(_:client:)`` (the command queue's lock orders the hand-over), then the event loop's
  /// thread, which alone runs its work and closes it (``close()`` after a failed start: on the starting thread, before
  /// any hand-over). The source's statistics are behind a lock.
  ///
  /// Its mutable properties are `@exclusivity(unchecked)`: only that one thread at a time touches them, the
  /// compiler's static exclusivity checks still apply, and the runtime's checks (an access set updated at every
  /// access) would guard nothing that the hand-over does not. What every change works
  /// on is one of them, ``core`` (``NetlinkSessionCore``): its `mutating` methods borrow its parts in place.
  final class NetlinkSessionWorker: NetlinkHubClient, @unchecked Sendable {
    struct Configuration {
      var namespace: NetworkNamespace?
      var namespaceHandle: NetworkNamespace.Handle?
      var classifier: InterfaceClassifier
      var resolverConfigurationPath: String
      var resolvedUpstreamPath: String
      var receiveBufferSize: Int
      /// How long to wait for the kernel's answer before asking again (``NetlinkPathSource/Options``).
      var replyTimeoutMilliseconds: Int32
      var filter: InterfaceFilter
      /// systemd-networkd's per-link state, when it is read for this session (NetworkdLinkWatcher.swift).
      var networkd: NetworkdLinkWatcher?
      /// Told of the links and addresses when they change (``NetlinkPathSource/Options/linkObserver``).
      var linkObserver: (@Sendable ([LinkInventory.Link]) -> Void)?
      /// The reading of Wi-Fi links' signal, before it follows any (NetlinkSessionWorker+Wireless.swift).
      var wireless = WirelessSignalTracker()
      /// Links followed as Wi-Fi whatever their type (``NetlinkPathSource/Options/followedAsWiFi``).
      var followedAsWiFi: Set<String> = []
    }

    typealias Work = NetlinkHubWork
    package typealias Outcome = NetlinkHubOutcome

    /// Rounds of lookups in one piece of work while notifications that matter keep arriving during them; then
    /// the hub's thread serves other sessions before the next round.
    static let maximumRoundsPerWork = 4

    let configuration: Configuration
    let sink: PathSink
    let control: NetlinkSessionControl
    let shared: NetlinkSourceRecord
    /// The session's place in the hub: its ID and the hub loop serving it.
    let reservation: NetlinkEventHub.Reservation

    /// The socket subscribed to changes, on which dumps and route lookups are asked too: their answers carry
    /// our port ID and a sequence number of ours, notifications do not.
    @exclusivity(unchecked) var socket: NetlinkSocket?
    /// The state worked on for every change (mirror, lookups, caches), reached through one access per piece of work
    /// (``NetlinkSessionCore``).
    @exclusivity(unchecked) var core: NetlinkSessionCore
    var resolverWatches: [Int32: Set<String>] = [:]
    /// systemd-networkd's per-link state files, when read for this session. Reached on every routing change, even
    /// when `nil`.
    @exclusivity(unchecked) var networkd: NetworkdLinkWatcher?
    var namespaceWatch: Int32?
    /// nl80211's reading of the Wi-Fi links (NetlinkSessionWorker+Wireless.swift): what it decides, its socket
    /// while one is open, and the buffer its datagrams are read into.
    @exclusivity(unchecked) var wireless = WirelessSignalTracker()
    @exclusivity(unchecked) var wirelessSocket: NetlinkSocket?
    @exclusivity(unchecked) var wirelessBuffer: [UInt8] = []
    /// The namespace's identity (the nsfs device and inode), to notice when its path names another namespace or
    /// none; its descriptor is closed once the socket is open.
    var namespaceIdentity: NetworkNamespace.Handle?
    /// A pidfd for the process whose `/proc/PID/ns/net` is watched, readable once it exits; see
    /// ``NetworkNamespace/openProcessDescriptor(matching:)``.
    var processExit: FileDescriptor?
    /// The links and addresses the link observer last heard of (kept only when there is one).
    @exclusivity(unchecked) var observedLinks: [Int32: NetlinkLink] = [:]
    @exclusivity(unchecked) var observedAddresses: [NetlinkAddress.Key: NetlinkAddress] = [:]
    @exclusivity(unchecked) var resolver = ResolverConfiguration(nameservers: [])
    /// Notifications that matter kept arriving during the start-up's lookups: the hub runs ``Work/resume`` first.
    var startedUnsettled = false
    // The evaluation under way, between works while it waits for the kernel (loop-confined, like the rest).

    /// The dump under way, and what it does next.
    @exclusivity(unchecked) var dump: InitialDump?
    @exclusivity(unchecked) var dumpStep = InitialDump.Step.receive
    /// Rounds of lookups of the evaluation under way.
    @exclusivity(unchecked) var rounds = 0
    /// What the evaluation waits for (a dump's or a batch's first sequence number) since when, and until when.
    @exclusivity(unchecked) var waitingSince: (sequence: UInt32, deadline: UInt64)?

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
      self.wireless = configuration.wireless
      core = NetlinkSessionCore(
        filter: configuration.filter, classifier: configuration.classifier, shared: shared,
        lookupRequestBytes: .allocate(
          byteCount: RouteLookupExchange.batchSize * RouteLookupRequest.maximumLength, alignment: 8))
    }

    deinit {
      core.lookupRequestBytes.deallocate()
    }

    /// What the hub waits on for this session.
    var descriptors: [NetlinkHubDescriptor] {
      var descriptors: [NetlinkHubDescriptor] = []
      if let fd = socket?.fd { descriptors.append(.init(fd: fd, kind: .netlink)) }
      if let fd = processExit?.rawValue { descriptors.append(.init(fd: fd, kind: .processExit)) }
      if let fd = wirelessSocket?.fd { descriptors.append(.init(fd: fd, kind: .wireless)) }
      return descriptors
    }

    /// Counts a re-sync (a re-dump of links and addresses, or a dump started over) for `reason`.
    func countResync(_ reason: String) {
      shared.withLock {
        $0.statistics.resyncs += 1
        $0.statistics.lastResyncReason = reason
      }
    }

    // MARK: Work

    /// Does one piece of work on the hub's thread. A failure ends the session and goes to the sink (unless the
    /// session was stopped).
    func handle(_ work: Work) -> Outcome {
      // The properties are `@exclusivity(unchecked)`: what checks that one thread at a time touches them.
      assert(reservation.loop.isCurrentThread, "a running session is served by the hub's thread only")
      do throws(NetworkMonitorError) {
        return try perform(work)
      } catch {
        if !control.isStopRequested { sink.fail(error) }
        return .ended
      }
    }

    private func perform(_ work: Work) throws(NetworkMonitorError) -> Outcome {
      var changed = false
      switch work {
      case .netlinkReadable:
        // An evaluation waiting for the kernel reads on: answers, a dump's part, and the notifications between.
        if isWaitingForKernel { return try proceed(deadlinePassed: false) }
        let read = try core.readNotifications(from: socket)
        if let reason = read.resyncReason {
          core.resyncReason = reason
        } else if !read.relevant {
          return .idle
        }
        try beginEvaluation()
        return try proceed(deadlinePassed: false)
      case .deadlinePassed:
        guard isWaitingForKernel else { return .idle }
        return try proceed(deadlinePassed: true)
      case .wirelessReadable:
        // A new rating is sent with the last answers; an evaluation waiting for the kernel sends it with its own.
        changed = readWireless()
      case .resume:
        if isWaitingForKernel { return try proceed(deadlinePassed: false) }
        try beginEvaluation()
        return try proceed(deadlinePassed: false)
      case .processExited:
        // The process exited: /proc/PID/ns/net names nothing now, as if the namespace had been deleted.
        if let namespace = configuration.namespace { throw .namespaceDeleted(path: namespace.path) }
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
      case .mountTableChanged:
        break  // not waited on by a session
      }
      // An evaluation waiting for the kernel sends its path with the resolver configuration there is then.
      if let since = waitingSince { return .waiting(until: since.deadline) }
      return changed ? publishWithLastAnswers() : .idle
    }
  }
#endif
