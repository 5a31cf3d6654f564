/// What the rtnetlink event loop knows: which sessions it serves and in which state, which inotify watch serves
/// which sessions, which session's work runs now and whether it was stopped meanwhile, which sessions wait for the
/// kernel until when, and who waits for a session to close. Pure (no I/O, no lock, no clock: the driver gives the
/// time) and loop-confined: the loop's thread alone holds it, so it needs no
/// lock (ARCHITECTURE.md, "The event loop").
///
/// Each method takes one event and says what to do (``Action``); the driver does it, after the call returns: it
/// never passes a closure in, and nothing happens inside. Generic over what a session is (`Client`) and what a
/// folder event is (`Event`), so that it is tested without either (Tests/NetStatusEventLoopTests), and
/// `@inlinable`, so that the driver's module specializes it for its types: it runs on every route change. Public
/// rather than `package` for that: Swift 6.3 serializes the bodies of `@inlinable public` declarations for other
/// modules, not those of `@inlinable package` ones (unspecialized, each call asks the runtime for the generic
/// metadata). The target is no product: nothing outside the package imports it.
///
/// A session's life: ``reserve(_:)`` (``Session/starting``: its watches are made, it starts on its caller's thread),
/// ``register(_:client:)`` once started (``Session/registered(_:)``: a stop closes it), ``activate(_:)`` then
/// ``activated(_:resume:)`` (``Session/active(_:)``: its descriptors are in the epoll set; the loop runs it, one
/// ``beginWork(_:)``/``endWork(ended:)`` at a time), and ``remove(_:)`` (its start failed, or epoll refused it),
/// ``stop(_:)`` or its work ending it. A work that must wait for the kernel (a lookup's answer, a dump's next part)
/// returns with a deadline instead of waiting (``endWork(ended:waitingUntil:)``); the session's next readiness
/// continues it, and the deadline passing (``expireDeadlines(at:)``) ends the wait: the loop never blocks in a work.
public struct HubStateMachine<Client, Event> {
  /// Where a session is in its life.
  public enum Session {
    /// Reserved: starting on its caller's thread (watches, dump, first path).
    case starting
    /// Started, not yet run by the loop: a stop closes it.
    case registered(Client)
    /// Its descriptors are in the loop's epoll set: the loop runs it.
    case active(Client)
  }

  /// What the driver does for a session that leaves, in this order.
  public struct Removal {
    /// The client to close (after taking its descriptors out of the epoll set when ``wasActive``); `nil` for a
    /// session that never activated.
    public var client: Client?
    /// Whether its descriptors are in the epoll set.
    public var wasActive: Bool
    /// The inotify watches no session uses any more: remove them from the instance.
    public var watches: [Int32]
    /// Those waiting for the session to close (``awaitClose(_:ticket:)``): tell them.
    public var waiters: [UInt64]

    @inlinable init() {
      client = nil
      wasActive = false
      watches = []
      waiters = []
    }
  }

  /// What ``stop(_:)`` decided.
  public enum StopDecision {
    /// Unknown (stopped already, or never reserved): nothing to do.
    case nothing
    /// Its work runs now (the stop comes from inside it): it is removed when the work returns
    /// (``endWork(ended:)``).
    case afterItsWork
    /// It left: carry out the removal.
    case removed(Removal)
  }

  /// Every session, by ID.
  @usableFromInline var sessions: [UInt64: Session] = [:] {
    didSet { lastBegun = nil }
  }
  /// The session ``beginWork(_:)`` found last, while ``sessions`` has not changed since: a netlink session's work
  /// begins on every change, and finding it by its ID would hash that ID each time.
  @usableFromInline var lastBegun: (id: UInt64, client: Client)?
  /// The session whose work runs now, and whether it was stopped from inside that work.
  @usableFromInline var running: (id: UInt64, stopped: Bool)?
  /// Which sessions each inotify watch serves: a watch is removed when it serves none.
  @usableFromInline var watches: [Int32: Set<UInt64>] = [:]
  /// Sessions that folder events concerned while they started (their watches made, not yet run by the loop): the
  /// loop cannot hand them events then, so each rereads its folders once active. Dropped silently, a file written
  /// between a session's first read and its activation would keep its old content for good.
  @usableFromInline var missedFolderEvents: Set<UInt64> = []
  /// Who waits for each session to close: tickets the driver completes when it does.
  @usableFromInline var closeWaiters: [UInt64: [UInt64]] = [:]
  /// The sessions waiting for the kernel, and until when (the driver's clock, in nanoseconds).
  @usableFromInline var deadlines: [UInt64: UInt64] = [:]

  /// No session.
  @inlinable public init() {}

  /// Whether no session is reserved or running: the loop may retire.
  @inlinable public var isEmpty: Bool { sessions.isEmpty }

  /// The session's state, `nil` when unknown.
  @inlinable public func session(_ id: UInt64) -> Session? { sessions[id] }

  /// The sessions watch `watch` serves.
  @inlinable public func sessions(watching watch: Int32) -> Set<UInt64> { watches[watch] ?? [] }

  // MARK: Start

  /// A session starts: from now on its watches are recorded, and the loop does not retire.
  @inlinable public mutating func reserve(_ id: UInt64) {
    sessions[id] = .starting
  }

  /// Inotify watch `watch` serves session `id` too (the same folder watched for several sessions is one watch).
  /// Ignored for an unknown session: the caller removes the watch if nothing else uses it (``isUnused(_:)``).
  @inlinable public mutating func addWatch(_ watch: Int32, for id: UInt64) {
    guard sessions[id] != nil else { return }
    watches[watch, default: []].insert(id)
  }

  /// Whether no session uses inotify watch `watch`.
  @inlinable public func isUnused(_ watch: Int32) -> Bool { watches[watch]?.isEmpty ?? true }

  /// A session has started: from now on a stop closes its client.
  @inlinable public mutating func register(_ id: UInt64, client: Client) {
    guard case .starting = sessions[id] else { return }
    sessions[id] = .registered(client)
  }

  /// The client to add to the epoll set, for a registered session; `nil` otherwise (stopped meanwhile). Follow with
  /// ``activated(_:resume:)`` once its descriptors are in, or ``remove(_:)`` if epoll refused them.
  @inlinable public func activate(_ id: UInt64) -> Client? {
    guard case .registered(let client) = sessions[id] else { return nil }
    return client
  }

  /// The session's descriptors are in the epoll set: the loop runs it from now on.
  ///
  /// - Parameter resume: Whether its work must run at once (it started unsettled).
  /// - Returns: Whether to run its work now: it started unsettled, or missed folder events while starting
  ///   (`rescan`: hand it an overflow, which means "anything may have changed").
  @inlinable public mutating func activated(_ id: UInt64, resume: Bool) -> (resume: Bool, rescan: Bool) {
    guard case .registered(let client) = sessions[id] else { return (false, false) }
    sessions[id] = .active(client)
    return (resume, missedFolderEvents.remove(id) != nil)
  }

  // MARK: Stop

  /// Stops a session, from another thread (through the loop's command queue) or from inside its own work.
  @inlinable public mutating func stop(_ id: UInt64) -> StopDecision {
    guard sessions[id] != nil else { return .nothing }
    if let current = running, current.id == id {
      running?.stopped = true
      return .afterItsWork
    }
    return .removed(remove(id))
  }

  /// Removes a session (its start failed, epoll refused it, or it was stopped) with the watches only it used.
  @inlinable public mutating func remove(_ id: UInt64) -> Removal {
    var removal = Removal()
    missedFolderEvents.remove(id)
    deadlines[id] = nil
    removal.waiters = closeWaiters.removeValue(forKey: id) ?? []
    switch sessions.removeValue(forKey: id) {
    case .registered(let client): removal.client = client
    case .active(let client):
      removal.client = client
      removal.wasActive = true
    case .starting, nil: break
    }
    for (watch, ids) in watches where ids.contains(id) {
      if ids.count == 1 {
        watches[watch] = nil
        removal.watches.append(watch)
      } else {
        watches[watch]?.remove(id)
      }
    }
    if sessions.isEmpty {
      // None may stay in the inotify instance the next loop reuses.
      removal.watches += watches.keys
      watches = [:]
    }
    return removal
  }

  /// Ticket `ticket` waits until session `id` has closed. Returns `true` when it has already (or never was): complete
  /// the ticket now.
  @inlinable public mutating func awaitClose(_ id: UInt64, ticket: UInt64) -> Bool {
    guard sessions[id] != nil else { return true }
    closeWaiters[id, default: []].append(ticket)
    return false
  }

  // MARK: Work

  /// The client to run for session `id`, now marked running; `nil` when it is not active (stopped, or starting).
  @inlinable public mutating func beginWork(_ id: UInt64) -> Client? {
    if let last = lastBegun, last.id == id {
      running = (id, false)
      return last.client
    }
    guard case .active(let client) = sessions[id] else { return nil }
    lastBegun = (id, client)
    running = (id, false)
    return client
  }

  /// The running session's work returned; `ended` when it ended the session (it failed); `waitingUntil` when it
  /// waits for the kernel until then (its next readiness continues it; ``expireDeadlines(at:)`` says when the time is
  /// up). A work that returns without waiting drops the session's deadline.
  ///
  /// - Returns: The removal to carry out, when it ended or was stopped meanwhile; `nil` otherwise (the common case).
  @inlinable public mutating func endWork(ended: Bool, waitingUntil deadline: UInt64? = nil) -> Removal? {
    guard let current = running else { return nil }
    running = nil
    guard current.stopped || ended else {
      if let deadline {
        deadlines[current.id] = deadline
      } else if !deadlines.isEmpty {
        deadlines[current.id] = nil
      }
      return nil
    }
    return remove(current.id)
  }

  // MARK: Deadlines

  /// The earliest deadline of a session waiting for the kernel: the longest the loop may wait for readiness.
  @inlinable public var nextDeadline: UInt64? { deadlines.isEmpty ? nil : deadlines.values.min() }

  /// The sessions whose deadline is `now` or earlier, in order of their deadlines (then of their IDs): their waits
  /// are over, and their deadlines dropped. Run each one's work with the news.
  @inlinable public mutating func expireDeadlines(at now: UInt64) -> [UInt64] {
    guard !deadlines.isEmpty else { return [] }
    let due = deadlines.filter { $0.value <= now }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    for id in due { deadlines[id] = nil }
    return due
  }

  /// Whether the session running now was stopped from inside its work.
  @inlinable public var runningWasStopped: Bool { running?.stopped ?? false }

  // MARK: Folder events

  /// Sorts folder events by the sessions whose watches they concern: every session gets an overflow; a watch the
  /// kernel removed (`isIgnored`) leaves the table, since its number may be reused. A session still starting gets
  /// none: it is noted, and rereads its folders once active (``activated(_:resume:)``).
  @inlinable public mutating func route(
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
