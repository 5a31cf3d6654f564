#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// A session's start-up and end: watches, the subscribed socket (opened inside the namespace, and opened
  /// anew after a loss that may have stalled a dump), the first dump and path, and the close.
  extension NetlinkSessionWorker {
    /// Starts the session on the calling thread: watches, the subscribed socket (opened inside the namespace),
    /// the initial dump and lookups. Returns the first path. On failure, ``close()`` releases what was opened.
    func startUp() throws(NetworkMonitorError) -> NetworkPath {
      if let handle = configuration.namespaceHandle, let namespace = configuration.namespace {
        namespaceIdentity = NetworkNamespace.Handle(fd: -1, device: handle.device, inode: handle.inode)
        defer { SystemCall.close(handle.fd) }
        try watchResolverConfiguration()
        namespaceWatch = try NetlinkEventHub.shared.watch(
          folder: LocalFile.directory(of: namespace.path), .names, for: reservation)
        if let pidfd = try namespace.openProcessDescriptor(matching: handle) {
          processExit = FileDescriptor(adopting: pidfd)
        }
        try openSocket(inside: handle)
      } else {
        try watchResolverConfiguration()
        try openSocket(inside: nil)
      }
      resolver = ResolverConfiguration.load(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      try dumpEverything()
      try networkd?.start(for: reservation, links: core.state.links)
      try beginEvaluation()
      startedUnsettled = try advance(deadlinePassed: false, blocking: true) == .unsettled
      followWirelessLinks()
      let path = core.evaluatedPath(supportsDNS: resolver.supportsDNS)
      let asked = core.lookupsAsked
      core.lookupsAsked = 0
      shared.withLock { $0.statistics.lookups += asked }
      core.keep(path)
      observeLinks(first: true)
      return path
    }

    /// From now on, datagrams are received into the hub thread's buffer: the session's own is released. Called
    /// before ``NetlinkEventHub/activate(_:)``; from then on the session's requests go unsent when
    /// `swallowsRequests` (tests: a kernel that never answers).
    func useHubBuffer(swallowsRequests: Bool = false) {
      core.buffer = reservation.loop.buffer
      core.swallowsRequests = swallowsRequests
    }

    /// Opens the subscribed netlink socket inside the namespace (subscribed before any dump) and records its
    /// port ID for tests.
    func openSocket(inside handle: NetworkNamespace.Handle?) throws(NetworkMonitorError) {
      let opened = try NetlinkSocket.opened(
        inside: configuration.namespace == nil ? nil : handle, path: configuration.namespace?.path ?? "",
        receiveBufferSize: configuration.receiveBufferSize)
      let portID = opened.portID
      socket = consume opened
      shared.withLock {
        $0.portID = portID
        $0.lookupPortID = portID
      }
    }

    /// Replaces the socket (after a loss that may have stalled a dump), in the same namespace: a named one is
    /// opened again by path and must still be the same namespace. The hub waits on the new socket; the old one
    /// is closed when this returns.
    func reopenSocket() throws(NetworkMonitorError) {
      let old = socket.take()
      if let namespace = configuration.namespace, let identity = namespaceIdentity {
        let handle = try namespace.open()
        defer { SystemCall.close(handle.fd) }
        guard handle.device == identity.device, handle.inode == identity.inode else {
          throw .namespaceDeleted(path: namespace.path)
        }
        try openSocket(inside: handle)
      } else {
        try openSocket(inside: nil)
      }
      if let new = socket?.fd { try NetlinkEventHub.shared.replace(old?.fd, with: new, for: reservation) }
    }

    /// Closes what the session opened (the namespace descriptor is closed at start-up already).
    func close() {
      if let open = socket.take() { open.close() }
      if let pidfd = processExit.take() { pidfd.close() }
      if let wireless = wirelessSocket.take() { wireless.close() }
      networkd?.stop()
    }
  }
#endif
