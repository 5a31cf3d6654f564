#if os(Linux)
  /// The bookkeeping of the event hub that serves every rtnetlink session of a process (`NetlinkEventHub`): which
  /// sessions there are and in which state, which one its thread runs, which folder watches serve which sessions,
  /// and when the hub's loop (its thread and descriptors) starts and retires.
  ///
  /// Pure (in this module so that the optimizer specializes it for the hub's types, not left to run as generic
  /// code on every route change): each method decides, and says what to do; the hub calls it under its lock and does the I/O (epoll,
  /// inotify, closing, waking and joining the thread), outside the lock except where a method says otherwise.
  /// Generic over what a session and a loop are, so that it is unit-tested without either.
  ///
  /// A session's life: ``reserve()`` or ``reserve(adopting:)`` (``SessionState/starting``: the loop cannot retire
  /// meanwhile), ``register(_:_:)`` once started (``SessionState/registered(_:)``: a stop finds and closes it),
  /// ``enable(_:)`` then ``activated(_:resume:)`` (``SessionState/active(_:)``: the thread runs it, one
  /// ``beginWork(_:)``/``endWork(ended:removeWatch:)`` at a time), and ``stop(_:onHubThread:removeWatch:)``,
  /// ``remove(_:removeWatch:)`` or its work ending it. The loop retires when the last session goes.
  struct NetlinkHubRegistry<Client, Loop: AnyObject> {
    /// Where a session is in its life.
    enum SessionState {
      /// Reserved, starting on its caller's thread (watches, dump, first path).
      case starting
      /// Started: a stop closes it; not yet waited on by the loop.
      case registered(Client)
      /// Waited on by the loop: its thread runs it.
      case active(Client)
    }

    /// Who stopped the session the thread was running.
    enum StopRequest: Equatable {
      /// Its own delivery, on the hub's thread, which closes it when the work returns.
      case fromItsWork
      /// Another thread, which waits until the hub's thread closed it (and joins that thread, if it retired).
      case waiting
    }

    /// What to do with a session that left the registry: close its client (after taking its descriptors out of
    /// the loop's epoll set, when it was active), then end the retired loop, if one retired.
    struct Removal {
      /// The client to close; `nil` for a session that had not registered one.
      var client: Client?
      /// Whether its descriptors are in the epoll set.
      var wasActive: Bool
      /// The loop that retired with it (no session left): to be ended outside the lock.
      var retired: Loop?
      /// A stopper on another thread waits for the close (``StopRequest/waiting``).
      var stopperWaits = false
    }

    /// What ``stop(_:onHubThread:)`` decided.
    enum StopDecision {
      /// Nothing to do: unknown, starting (its starter cancels it), or stopped from its own work (the thread closes
      /// it when the work returns).
      case nothing
      /// The thread is running it: wait until the thread closed it.
      case waitForThread(Client)
      /// It left the registry: do what the removal says.
      case remove(Removal)
    }

    /// The loop serving the sessions, while there are any.
    private(set) var loop: Loop?
    /// Every session, by ID. Any change forgets ``lastBegun``.
    private(set) var sessions: [UInt64: SessionState] = [:] {
      didSet { lastBegun = nil }
    }
    /// The session ``beginWork(_:)`` found active last, while ``sessions`` has not changed since: a netlink
    /// session's work begins on every change, and finding its ID again in ``sessions`` would hash it each time.
    private var lastBegun: (id: UInt64, client: Client)?
    /// The session the thread is running now, and who stopped it meanwhile.
    private(set) var running: (id: UInt64, stop: StopRequest?)?
    /// Which sessions each inotify watch serves: a watch is removed when it serves none.
    private(set) var watches: [Int32: Set<UInt64>] = [:]
    /// Sessions the thread must resume (``NetlinkHubRegistry/activated(_:resume:)``), asked from another thread.
    private(set) var resumeRequests: [UInt64] = []
    /// Sessions that folder events concerned while they started (watches made, not yet run by the thread): the
    /// thread cannot hand them events then, so at activation each is told to read its folders again
    /// (``takeRescanRequests()``). Dropped silently, a file written between a session's first read and its
    /// activation kept its old content for good (networkd's `configured` after `configuring`).
    private(set) var missedFolderEvents: Set<UInt64> = []
    /// Activated sessions whose folders the thread must read again (they missed events while starting).
    private(set) var rescanRequests: [UInt64] = []
    /// Session IDs start at 2: the loop's own epoll tags are 0 and 1.
    private var nextID: UInt64 = 2

    /// An empty registry: no loop, no session.
    init() {}

    // MARK: Start

    /// Reserves a place for a starting session in the running loop, if there is one.
    ///
    /// - Returns: The session's ID and its loop; `nil` when no loop runs (make one, then ``reserve(adopting:)``).
    mutating func reserve() -> (id: UInt64, loop: Loop)? {
      guard let loop else { return nil }
      return (take(), loop)
    }

    /// Reserves a place for a starting session, in `made` when no loop runs (else `made` is not used: close it).
    ///
    /// - Returns: The session's ID, its loop, and whether it is `made` (then start its thread).
    mutating func reserve(adopting made: Loop) -> (id: UInt64, loop: Loop, adopted: Bool) {
      if let loop { return (take(), loop, false) }
      loop = made
      return (take(), made, true)
    }

    private mutating func take() -> UInt64 {
      let id = nextID
      nextID += 1
      sessions[id] = .starting
      return id
    }

    /// Records that inotify watch `watch` serves session `id` (the same folder watched for several sessions is
    /// one watch).
    mutating func addWatch(_ watch: Int32, for id: UInt64) {
      watches[watch, default: []].insert(id)
    }

    /// Records a started session's client: from now on a stop closes it.
    mutating func register(_ id: UInt64, _ client: Client) {
      guard case .starting = sessions[id] else { return }
      sessions[id] = .registered(client)
    }

    /// The client to add to the epoll set, if the session is registered and not yet enabled; `nil` when it was
    /// stopped meanwhile (or enabled already). Follow with ``activated(_:resume:)`` or, if epoll refused it,
    /// ``remove(_:removeWatch:)``, under the same lock.
    func enable(_ id: UInt64) -> Client? {
      guard case .registered(let client) = sessions[id] else { return nil }
      return client
    }

    /// The session's descriptors are in the epoll set: the thread runs it from now on.
    ///
    /// - Parameter resume: Whether the thread must resume its work at once (it started unsettled).
    /// - Returns: Whether to wake the thread.
    mutating func activated(_ id: UInt64, resume: Bool) -> Bool {
      guard case .registered(let client) = sessions[id] else { return false }
      sessions[id] = .active(client)
      let rescans = missedFolderEvents.remove(id) != nil
      if rescans { rescanRequests.append(id) }
      if resume { resumeRequests.append(id) }
      return resume || rescans
    }

    // MARK: Stop

    /// Stops a session: it leaves the registry, unless the thread is running it (then the thread closes it when
    /// its work returns).
    ///
    /// - Parameters:
    ///   - onHubThread: Whether the caller is the hub's thread (a session stopped from its own delivery).
    ///   - removeWatch: Removes a watch no session uses any more (see ``remove(_:removeWatch:)``).
    mutating func stop(
      _ id: UInt64, onHubThread: Bool, removeWatch: (Loop, Int32) -> Void = { _, _ in }
    ) -> StopDecision {
      let client: Client
      switch sessions[id] {
      case nil, .starting: return .nothing
      case .registered(let registered): client = registered
      case .active(let active): client = active
      }
      if let current = running, current.id == id {
        if current.stop == nil { running?.stop = onHubThread ? .fromItsWork : .waiting }
        return onHubThread ? .nothing : .waitForThread(client)
      }
      return .remove(remove(id, removeWatch: removeWatch))
    }

    /// Removes a session (given up while starting, refused by epoll, or stopped), with the watches only it used
    /// and, when it was the last session, the loop.
    ///
    /// The watches to remove are given to `removeWatch` at once, under the caller's lock: the kernel gives a folder
    /// watched again the number it had, so the table and the inotify instance must change together.
    mutating func remove(_ id: UInt64, removeWatch: (Loop, Int32) -> Void = { _, _ in }) -> Removal {
      var removal = Removal(client: nil, wasActive: false, retired: nil)
      missedFolderEvents.remove(id)
      switch sessions.removeValue(forKey: id) {
      case .registered(let client): removal.client = client
      case .active(let client):
        removal.client = client
        removal.wasActive = true
      case .starting, nil: break
      }
      if let loop {
        for (watch, ids) in watches where ids.contains(id) {
          if ids.count == 1 {
            watches[watch] = nil
            removeWatch(loop, watch)
          } else {
            watches[watch]?.remove(id)
          }
        }
      }
      guard sessions.isEmpty, let loop else { return removal }
      // Retires: no session runs or starts. Its sessions removed their watches; none may stay in the inotify
      // instance kept for the next loop.
      for watch in watches.keys { removeWatch(loop, watch) }
      watches = [:]
      self.loop = nil
      removal.retired = loop
      return removal
    }

    // MARK: The thread

    /// Whether `loop` still serves the sessions; once retired, its thread ends.
    func serves(_ loop: Loop) -> Bool { self.loop === loop }

    /// The sessions to resume that other threads asked for, emptied.
    mutating func takeResumeRequests() -> [UInt64] {
      guard !resumeRequests.isEmpty else { return [] }
      defer { resumeRequests.removeAll() }
      return resumeRequests
    }

    /// The sessions that must read their folders again (they missed folder events while starting), emptied: the
    /// thread hands each an overflow, which means "anything may have changed".
    mutating func takeRescanRequests() -> [UInt64] {
      guard !rescanRequests.isEmpty else { return [] }
      defer { rescanRequests.removeAll() }
      return rescanRequests
    }

    /// The client to run for session `id`, now marked running; `nil` when it is not active (stopped, or not yet
    /// enabled).
    mutating func beginWork(_ id: UInt64) -> Client? {
      if let last = lastBegun, last.id == id {
        running = (id, nil)
        return last.client
      }
      guard case .active(let client) = sessions[id] else { return nil }
      lastBegun = (id, client)
      running = (id, nil)
      return client
    }

    /// The running session's work returned; `ended` when it ended the session (it failed).
    ///
    /// - Returns: The removal to carry out, when it ended or was stopped meanwhile; `nil` otherwise (the common
    ///   case: no lookup of the session).
    mutating func endWork(
      ended: Bool, removeWatch: (Loop, Int32) -> Void = { _, _ in }
    ) -> Removal? {
      guard let current = running else { return nil }
      running = nil
      guard current.stop != nil || ended else { return nil }
      var removal = remove(current.id, removeWatch: removeWatch)
      removal.stopperWaits = current.stop == .waiting
      return removal
    }

    /// Sorts folder events by the sessions whose watches they concern: every session gets an overflow; a watch
    /// the kernel removed (`ignored`) leaves the table, since its number may be reused. A session still starting
    /// gets none: it is noted (``missedFolderEvents``), and reads its folders again once active.
    mutating func route<Event>(
      _ events: [Event], watch: (Event) -> Int32, isOverflow: (Event) -> Bool, isIgnored: (Event) -> Bool
    ) -> [UInt64: [Event]] {
      var routed: [UInt64: [Event]] = [:]
      func hand(_ event: Event, to id: UInt64) {
        guard case .active = sessions[id] else {
          if sessions[id] != nil { missedFolderEvents.insert(id) }
          return
        }
        routed[id, default: []].append(event)
      }
      for event in events {
        if isOverflow(event) {
          for id in sessions.keys { hand(event, to: id) }
          continue
        }
        for id in watches[watch(event)] ?? [] { hand(event, to: id) }
        if isIgnored(event) { watches[watch(event)] = nil }
      }
      return routed
    }
  }
#endif
