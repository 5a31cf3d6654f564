#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Dispatch
  import Glibc
  import Synchronization

  /// The one thread that serves every running ``NetlinkPathSource`` session of the process, whatever its
  /// namespace: one `epoll` set over all sessions' netlink sockets (and pidfds), one eventfd to wake it, one
  /// inotify instance shared by all sessions' folder watches.
  ///
  /// A session costs its netlink socket and nothing else: a process watching a thousand namespaces has one
  /// thread, one inotify instance and a thousand sockets. The hub's thread (`netstatus-rtnl`) starts with the
  /// first session and ends with the last one, so an unused library keeps no thread; its inotify instance, with no
  /// watches left, is kept for the next session (``keep(_:)``), since closing it would make the last stop wait for
  /// the kernel.
  ///
  /// Decide inside the lock, act outside it: which session the thread runs, and whether a stopped session is
  /// closed by `stop()` or by the thread, are decided under ``registry``'s lock; the work and the system calls
  /// (other than inotify's, which must stay in step with the table of watches) happen outside it.
  ///
  /// A session's life: ``reserve()`` (the hub cannot end while a session starts), folder watches with
  /// ``watch(folder:_:for:)``, start-up on the caller's thread (dump, first path), ``register(_:worker:)`` and
  /// ``enable(_:)`` (the thread runs it from then on), and ``stop(_:)`` or a failure the worker reports.
  enum NetlinkEventHub {
    /// What the hub's thread asks a client to do.
    enum Work {
      /// Its netlink socket is readable.
      case netlinkReadable
      /// The process whose `/proc/PID/ns/net` it watches has exited.
      case processExited
      /// The mount table changed (a namespace was bind-mounted or unmounted).
      case mountTableChanged
      /// Events of its folder watches (or an inotify overflow).
      case folderEvents([InotifyWatcher.Event])
      /// Finish what the last work left, or do the first work after start-up.
      case again
    }

    /// How a piece of work ended.
    enum Outcome: Equatable {
      /// Done; wait for the next event.
      case idle
      /// More to do: run ``Work/again`` soon, after other clients had their turn.
      case again
      /// The client is over (it failed, and said so): close it.
      case ended
    }

    /// A descriptor the hub waits on for a client, and what its readiness means.
    struct Descriptor {
      enum Kind: UInt64 {
        /// A netlink socket: readable.
        case netlink = 0
        /// A pidfd: readable once the process exited.
        case processExit = 1
        /// `/proc/self/mountinfo`: a priority event when the mount table changed.
        case mountTable = 2
      }
      var fd: Int32
      var kind: Kind
    }

    /// The epoll tag of the eventfd; client tags are `id << 2 | kind`, ids from 2.
    private static let wakeTag: UInt64 = 0
    /// The epoll tag of the shared inotify instance.
    private static let inotifyTag: UInt64 = 1

    /// The hub's own descriptors: the epoll set, the eventfd that wakes the thread from `epoll_wait`, and the
    /// inotify instance every session's folder watches share.
    struct Descriptors: ~Copyable {
      let epoll: FileDescriptor
      let wake: EventFD
      let inotify: InotifyWatcher
    }

    /// The descriptors and thread of one run of the hub, from its first session to its last.
    final class Generation: Sendable {
      /// The epoll set, the wake eventfd and the inotify instance, owned until the generation's thread closes
      /// them as it ends (or, if it never started, its finisher): when the last session ends, as the descriptor
      /// counts expect, and not when the last reference goes (a stopped session's reservation may outlive it), so
      /// not closed by a `deinit`. Other threads still hold the generation then (a stopper waking the retired
      /// thread), so every use of the numbers outside the thread's loop goes through this lock, and a closed
      /// number, which the kernel may have given to another descriptor, is never used (``withDescriptors(_:)``).
      /// The calls made under it (`eventfd_write`, `epoll_ctl`, inotify's) never block.
      private let descriptors: Mutex<Descriptors?>
      /// The buffer the thread receives into, for every session it runs.
      let buffer = ReceiveBuffer()
      /// The thread, once started.
      let thread = Mutex<pthread_t?>(nil)

      init(_ descriptors: consuming Descriptors) {
        self.descriptors = Mutex(Optional(descriptors))
      }

      /// Runs `body` with the descriptors, under the lock, unless they are closed (then `nil`).
      func withDescriptors<Value: Sendable, Failure: Error>(
        _ body: (borrowing Descriptors) throws(Failure) -> Value
      ) throws(Failure) -> Value? {
        let outcome = descriptors.withLockedValue { descriptors -> Result<Value, Failure>? in
          guard let open = descriptors.take() else { return nil }
          let outcome = Result { () throws(Failure) in try body(open) }
          descriptors = consume open
          return outcome
        }
        return try outcome?.get()
      }

      /// The epoll set's number for the thread's loop: valid until the thread itself closes it (``close()``).
      var epollForThread: Int32 { withDescriptors { $0.epoll.rawValue } ?? -1 }

      /// Closes the epoll set and the eventfd, once, and hands back the inotify instance for the next generation
      /// (``NetlinkEventHub/keep(_:)``; dropped, it closes): later calls (and ``wake()``) find nothing.
      func close() -> InotifyWatcher? {
        guard let open = descriptors.withLockedValue({ $0.take() }) else { return nil }
        open.epoll.close()
        open.wake.close()
        return open.inotify
      }

      /// Watches a folder (``InotifyWatcher/watch(folder:for:)``); `nil` also once closed.
      func watch(folder: String, for interest: InotifyWatcher.Interest) throws(SystemCallError) -> Int32? {
        try withDescriptors { descriptors throws(SystemCallError) in
          try descriptors.inotify.watch(folder: folder, for: interest)
        } ?? nil
      }

      /// Removes an inotify watch (nothing once closed).
      func removeWatch(_ watch: Int32) {
        _ = withDescriptors { $0.inotify.remove(watch) }
      }

      /// Reads the inotify instance's pending events, on the thread.
      func readFolderEvents() throws(SystemCallError) -> [InotifyWatcher.Event] {
        try withDescriptors { descriptors throws(SystemCallError) in try descriptors.inotify.readEvents() } ?? []
      }

      /// Adds `fd` to the epoll set.
      ///
      /// - Returns: 0, or the errno of `epoll_ctl` (EBADF once closed).
      func epollAdd(_ fd: Int32, tag: UInt64, events: UInt32) -> Int32 {
        withDescriptors { cns_epoll_add($0.epoll.rawValue, fd, tag, events) == 0 ? 0 : errno } ?? EBADF
      }

      /// Takes `fd` out of the epoll set (nothing once closed).
      func epollDelete(_ fd: Int32) {
        _ = withDescriptors { cns_epoll_del($0.epoll.rawValue, fd) }
      }

      /// Whether the calling thread is this generation's thread.
      var isCurrentThread: Bool {
        guard let thread = thread.withLockedValue({ $0 }) else { return false }
        return pthread_equal(pthread_self(), thread) != 0
      }

      /// Wakes the thread (nothing once the descriptors are closed: the thread has ended).
      func wake() { _ = withDescriptors { try? $0.wake.signal() } }

      /// Empties the wake eventfd, on the thread.
      func drainWake() { _ = withDescriptors { _ = try? $0.wake.drain() } }

      private let endClaimed = Atomic<Bool>(false)

      /// Whether the caller is the one to end the retired generation's thread (join or detach it): the first
      /// caller only.
      func claimEnd() -> Bool { !endClaimed.exchange(true, ordering: .acquiringAndReleasing) }
    }

    /// A session as the hub knows it.
    struct Registration {
      let worker: any NetlinkHubClient
      /// In the epoll set: the thread may run it.
      var active = false
      /// Stopped while the thread was running it: the thread closes it when done.
      var removed = false
      /// Stopped from another thread while the thread was running it: that stopper waits for the close and, if
      /// the generation retired with it, joins the thread (so that no thread of the hub is left once stop returns).
      var stopperWaits = false
    }

    struct State: ~Copyable {
      var generation: Generation?
      var sessions: [UInt64: Registration] = [:]
      /// Sessions between ``reserve()`` and ``enable(_:)``, ``cancel(_:)`` or a stop before enabling.
      var starting = 0
      /// The session the thread is running now.
      var busy: UInt64?
      /// ``stop(_:)`` marked the busy session removed: only then (or when its work ended it) does the thread look
      /// it up again once its work is done.
      var busyRemoved = false
      /// Which sessions each inotify watch serves: a watch is removed when it serves none.
      var watches: [Int32: Set<UInt64>] = [:]
      var nextID: UInt64 = 2
      /// Sessions to run ``NetlinkSessionWorker/Work/again`` for, from outside the thread.
      var again: [UInt64] = []
    }

    static let registry = Mutex(State())

    /// What a reserved session holds: its ID, and the generation whose inotify instance and thread serve it.
    struct Reservation: Sendable {
      let id: UInt64
      let generation: Generation
    }

    /// Reserves a place for a session that is starting, starting the hub's thread if it is not running.
    ///
    /// - Throws: ``NetworkMonitorError`` when the hub's descriptors or thread cannot be made (the inotify
    ///   instance limit among them).
    static func reserve() throws(NetworkMonitorError) -> Reservation {
      if let reservation = registry.withLockedValue({ state -> Reservation? in
        guard let generation = state.generation else { return nil }
        return take(&state, generation)
      }) {
        return reservation
      }
      // Made outside the lock; if another thread made one meanwhile, this one is closed unused.
      let made = try makeGeneration()
      let (reservation, fresh) = registry.withLockedValue { state -> (Reservation, Bool) in
        if let generation = state.generation { return (take(&state, generation), false) }
        state.generation = made
        return (take(&state, made), true)
      }
      guard fresh else {
        close(made)
        return reservation
      }
      do throws(NetworkMonitorError) {
        let thread = try NetworkMonitorError.converting { () throws(SystemCallError) in
          try POSIXThread.start(name: "netstatus-rtnl") { run(made) }
        }
        made.thread.withLockedValue { $0 = thread }
      } catch {
        cancel(reservation)
        throw error
      }
      return reservation
    }

    private static func take(_ state: inout State, _ generation: Generation) -> Reservation {
      let id = state.nextID
      state.nextID += 1
      state.starting += 1
      return Reservation(id: id, generation: generation)
    }

    private static func makeGeneration() throws(NetworkMonitorError) -> Generation {
      // Each owned as soon as it is open: a failure below closes those made so far.
      let epoll = FileDescriptor(
        adopting: try SystemCall.invoke("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
      let wake = try EventFD.opened()
      let epollFD = epoll.rawValue
      let wakeFD = wake.rawValue
      try SystemCall.invoke("epoll_ctl(ADD, eventfd)") { cns_epoll_add(epollFD, wakeFD, wakeTag, cns_epoll_input()) }
      let inotify: InotifyWatcher
      if let kept = takeKeptInotify() {
        inotify = kept
      } else {
        inotify = try InotifyWatcher.opened()
      }
      let inotifyFD = inotify.fd
      try SystemCall.invoke("epoll_ctl(ADD, inotify)") {
        cns_epoll_add(epollFD, inotifyFD, inotifyTag, cns_epoll_input())
      }
      return Generation(Descriptors(epoll: epoll, wake: wake, inotify: inotify))
    }

    private static func close(_ generation: Generation) {
      if let inotify = generation.close() { keep(inotify) }
    }

    /// The inotify instance of the last generation, its watches all removed, kept for the next one: closing an
    /// instance that had watches waits for the kernel to free them (an SRCU grace period: 8 to 24 ms measured
    /// here), and the stop that retires a generation waits for its thread. Held until the process exits (where the
    /// kernel frees it); a later instance, if two generations end at once, is closed.
    private static let keptInotify = Mutex<InotifyWatcher?>(nil)

    /// Keeps `inotify` for the next generation, or closes it if one is kept already.
    static func keep(_ inotify: consuming InotifyWatcher) {
      var offered = Optional(inotify)
      keptInotify.withLockedValue { kept in
        if let previous = kept.take() {
          kept = consume previous
          return
        }
        kept = offered.take()
      }
      if let extra = offered.take() { extra.close() }
    }

    /// The kept inotify instance, if there is one (taken: the caller owns it).
    static func takeKeptInotify() -> InotifyWatcher? {
      keptInotify.withLockedValue { $0.take() }
    }

    /// Watches a folder for a session (``InotifyWatcher/watch(folder:for:)``): the same folder watched for several
    /// sessions is one watch, with the union of their interests.
    static func watch(
      folder: String, _ interest: InotifyWatcher.Interest, for reservation: Reservation
    ) throws(NetworkMonitorError) -> Int32? {
      try registry.withLockedValue { state throws(NetworkMonitorError) -> Int32? in
        let watched: Int32?
        do throws(SystemCallError) {
          watched = try reservation.generation.watch(folder: folder, for: interest)
        } catch {
          throw NetworkMonitorError(inotifyWatch: error)
        }
        guard let watch = watched else { return nil }
        state.watches[watch, default: []].insert(reservation.id)
        return watch
      }
    }

    /// Records a started session (not yet run by the thread): from now on ``stop(_:)`` finds and closes it.
    static func register(_ reservation: Reservation, worker: any NetlinkHubClient) {
      registry.withLockedValue { $0.sessions[reservation.id] = Registration(worker: worker) }
    }

    /// Hands a registered session to the hub's thread: its descriptors join the epoll set (under the lock, so
    /// that a concurrent ``stop(_:)`` cannot close them in between). A session stopped meanwhile is left alone.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses a descriptor; the session
    ///   is then closed and forgotten.
    static func enable(_ reservation: Reservation) throws(NetworkMonitorError) {
      let id = reservation.id
      let generation = reservation.generation
      let outcome = registry.withLockedValue { state -> (NetworkMonitorError?, Registration?, Generation?) in
        guard let registration = state.sessions[id], !registration.active else { return (nil, nil, nil) }
        state.starting -= 1
        var added: [Int32] = []
        for descriptor in registration.worker.descriptors {
          let tag = id << 2 | descriptor.kind.rawValue
          let events = descriptor.kind == .mountTable ? cns_epoll_priority() : cns_epoll_input()
          let refused = generation.epollAdd(descriptor.fd, tag: tag, events: events)
          guard refused == 0 else {
            let failure = NetworkMonitorError.systemCall(call: "epoll_ctl(ADD)", errno: refused)
            for fd in added { generation.epollDelete(fd) }
            state.sessions[id] = nil
            dropWatches(of: id, &state)
            return (failure, registration, retireIfIdle(&state))
          }
          added.append(descriptor.fd)
        }
        state.sessions[id]?.active = true
        if registration.worker.startedUnsettled {
          state.again.append(id)
          reservation.generation.wake()
        }
        return (nil, nil, nil)
      }
      if let registration = outcome.1 {
        close(registration, generation: reservation.generation)
        if let retired = outcome.2 { finish(retired) }
      }
      if let failure = outcome.0 { throw failure }
    }

    /// Gives up a reservation whose session did not start: its watches go, and the hub ends if nothing else
    /// uses it.
    static func cancel(_ reservation: Reservation) {
      let retired = registry.withLockedValue { state -> Generation? in
        state.starting -= 1
        dropWatches(of: reservation.id, &state)
        return retireIfIdle(&state)
      }
      if let retired { finish(retired) }
    }

    /// Stops a session: once this returns, the hub's thread no longer runs it and its descriptors are closed,
    /// unless it is called from the hub's thread while that session runs (from its sink): the thread then closes
    /// it when the sink returns.
    static func stop(_ id: UInt64) {
      enum Decision {
        case nothing
        case waitForThread(any NetlinkHubClient)
        case close(Registration, Generation?)
      }
      let onThread = registry.withLockedValue { $0.generation?.isCurrentThread ?? false }
      let decision = registry.withLockedValue { state -> Decision in
        guard let registration = state.sessions[id] else { return .nothing }
        if !registration.active { state.starting -= 1 }  // registered, never enabled: enable() will find nothing
        if state.busy == id {
          state.sessions[id]?.removed = true
          state.sessions[id]?.stopperWaits = !onThread
          state.busyRemoved = true
          return onThread ? .nothing : .waitForThread(registration.worker)
        }
        state.sessions[id] = nil
        dropWatches(of: id, &state)
        return .close(registration, retireIfIdle(&state))
      }
      switch decision {
      case .nothing:
        return
      case .waitForThread(let worker):
        worker.finished.wait()
        worker.finished.signal()
        // The thread closed it; if that retired the generation, the thread left its end to this stopper.
        let generation = worker.reservation.generation
        if registry.withLockedValue({ $0.generation !== generation }) { finish(generation) }
      case .close(let registration, let retired):
        close(registration, generation: registration.worker.reservation.generation)
        if let retired { finish(retired) }
      }
    }

    /// The session's netlink socket was replaced (on the hub's thread, during its work): the hub waits on the new
    /// one. The caller closes the old one afterwards.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses the new socket.
    static func replace(_ old: Int32?, with new: Int32, for reservation: Reservation) throws(NetworkMonitorError) {
      let id = reservation.id
      let failure = registry.withLockedValue { state -> Int32? in
        guard state.sessions[id]?.active == true else { return nil }
        if let old { reservation.generation.epollDelete(old) }
        let refused = reservation.generation.epollAdd(new, tag: id << 2, events: cns_epoll_input())
        return refused == 0 ? nil : refused
      }
      if let failure { throw .systemCall(call: "epoll_ctl(ADD, netlink)", errno: failure) }
    }

    /// Takes a session's descriptors out of the epoll set and closes them.
    private static func close(_ registration: Registration, generation: Generation) {
      if registration.active {
        for descriptor in registration.worker.descriptors { generation.epollDelete(descriptor.fd) }
      }
      registration.worker.close()
      registration.worker.finished.signal()
    }

    private static func dropWatches(of id: UInt64, _ state: inout State) {
      guard let generation = state.generation else { return }
      for (watch, ids) in state.watches where ids.contains(id) {
        if ids.count == 1 {
          state.watches[watch] = nil
          generation.removeWatch(watch)
        } else {
          state.watches[watch]?.remove(id)
        }
      }
    }

    /// When no session runs or starts, the generation retires: returned, to be ended with ``finish(_:)``
    /// outside the lock. The next session starts a new one.
    private static func retireIfIdle(_ state: inout State) -> Generation? {
      guard state.sessions.isEmpty, state.starting == 0, let generation = state.generation else { return nil }
      state.generation = nil
      // Its sessions removed their watches; none may stay in the instance kept for the next generation.
      for watch in state.watches.keys { generation.removeWatch(watch) }
      state.watches = [:]
      return generation
    }

    /// Ends a retired generation's thread: wakes it and waits for it, or, on that thread itself, lets it end
    /// on its own once the current sink returns.
    private static func finish(_ generation: Generation) {
      generation.wake()
      guard generation.claimEnd() else { return }
      guard let thread = generation.thread.withLockedValue({ $0 }) else {
        close(generation)  // the thread never started
        return
      }
      if pthread_equal(pthread_self(), thread) != 0 {
        pthread_detach(thread)
      } else {
        pthread_join(thread, nil)
      }
    }

    // MARK: The thread

    /// The thread's body: wait for anything ready, run the sessions it concerns, until the generation retires.
    private static func run(_ generation: Generation) {
      defer { close(generation) }
      // Only this thread closes the epoll set, as it ends: the number holds for the loop, without the lock.
      let epollFD = generation.epollForThread
      var tags = [UInt64](repeating: 0, count: 64)
      var again: [UInt64] = []
      while true {
        let count = tags.withUnsafeMutableBufferPointer { buffer in
          cns_epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), again.isEmpty ? -1 : 0)
        }
        // Emptied before the registry is read: a wake that comes after this is seen at the next wait, and one that
        // came before was for something the read below finds.
        if count > 0, tags[0..<Int(count)].contains(wakeTag) { generation.drainWake() }
        let (retired, requested) = registry.withLockedValue { state -> (Bool, [UInt64]) in
          let requested = state.again
          state.again.removeAll()
          return (state.generation !== generation, requested)
        }
        if retired { return }
        if !again.isEmpty || !requested.isEmpty {  // usually neither: no array is made for nothing
          let pending = again + requested
          again.removeAll(keepingCapacity: true)
          for id in pending { runSession(id, .again, &again) }
        }
        guard count > 0 else { continue }  // EINTR, or only sessions to run again
        for tag in tags[0..<Int(count)] {
          switch tag {
          case wakeTag:
            break  // emptied above
          case inotifyTag:
            dispatchInotifyEvents(generation, &again)
          default:
            let work: Work
            switch Descriptor.Kind(rawValue: tag & 3) {
            case .processExit: work = .processExited
            case .mountTable: work = .mountTableChanged
            default: work = .netlinkReadable
            }
            runSession(tag >> 2, work, &again)
          }
        }
      }
    }

    /// Reads the shared inotify instance and hands each session the events of its watches (every session gets
    /// an overflow). Watches the kernel removed (IN_IGNORED) leave the table: their numbers may be reused.
    private static func dispatchInotifyEvents(_ generation: Generation, _ again: inout [UInt64]) {
      let events: [InotifyWatcher.Event]
      do throws(SystemCallError) {
        events = try generation.readFolderEvents()
      } catch {
        return  // read(2) on an inotify descriptor fails only for a bad buffer; nothing to retry
      }
      guard !events.isEmpty else { return }
      let perSession = registry.withLockedValue { state -> [UInt64: [InotifyWatcher.Event]] in
        var perSession: [UInt64: [InotifyWatcher.Event]] = [:]
        for event in events {
          if event.mask & InotifyWatcher.overflow != 0 {
            for id in state.sessions.keys { perSession[id, default: []].append(event) }
            continue
          }
          for id in state.watches[event.watch] ?? [] { perSession[id, default: []].append(event) }
          if event.mask & InotifyWatcher.ignored != 0 { state.watches[event.watch] = nil }
        }
        return perSession
      }
      for (id, sessionEvents) in perSession { runSession(id, .folderEvents(sessionEvents), &again) }
    }

    /// Runs one session's work on the hub's thread, unless it was stopped; closes it if it ended or was
    /// stopped meanwhile.
    private static func runSession(_ id: UInt64, _ work: Work, _ again: inout [UInt64]) {
      guard
        let worker = registry.withLockedValue({ state -> (any NetlinkHubClient)? in
          guard let registration = state.sessions[id], registration.active, !registration.removed else { return nil }
          state.busy = id
          state.busyRemoved = false
          return registration.worker
        })
      else { return }
      let outcome = worker.handle(work)
      let ended = registry.withLockedValue { state -> (Registration, Generation?)? in
        state.busy = nil
        // Not stopped while busy (stop() sets `busyRemoved` with `removed`), and not ended: nothing to look up.
        guard state.busyRemoved || outcome == .ended else { return nil }
        guard let registration = state.sessions[id] else { return nil }
        guard registration.removed || outcome == .ended else { return nil }
        state.sessions[id] = nil
        dropWatches(of: id, &state)
        return (registration, retireIfIdle(&state))
      }
      if let (registration, retired) = ended {
        close(registration, generation: worker.reservation.generation)
        if let retired {
          // A stopper waiting on another thread joins it (stop() then returns with no thread left); else it ends
          // on its own.
          if registration.stopperWaits { retired.wake() } else { finish(retired) }
        }
      } else if outcome == .again {
        again.append(id)
      }
    }
  }

  /// What the hub runs: a path source session (``NetlinkSessionWorker``) or a watch of the named namespaces
  /// (``NamedNetworkNamespaces``).
  ///
  /// The hub calls ``handle(_:)`` on its thread, one client at a time, and ``close()`` once, when the client is
  /// not running; ``descriptors`` is read under the hub's lock.
  protocol NetlinkHubClient: AnyObject, Sendable {
    /// The reservation it was started with.
    var reservation: NetlinkEventHub.Reservation { get }
    /// What the hub waits on for it.
    var descriptors: [NetlinkEventHub.Descriptor] { get }
    /// Whether the hub must run ``NetlinkEventHub/Work/again`` right after enabling it.
    var startedUnsettled: Bool { get }
    /// Signalled once it is closed.
    var finished: DispatchSemaphore { get }
    /// Does one piece of work.
    func handle(_ work: NetlinkEventHub.Work) -> NetlinkEventHub.Outcome
    /// Closes its descriptors.
    func close()
  }

  /// A receive buffer that grows when a datagram did not fit.
  ///
  /// `@unchecked Sendable`: one thread uses it at a time, and nothing guards it: a starting session's own
  /// buffer is used only by the starting thread, and a hub generation's only by that generation's thread.
  final class ReceiveBuffer: @unchecked Sendable {
    static let initialSize = 64 * 1024
    static let maximumSize = 4 * 1024 * 1024

    private(set) var bytes: UnsafeMutableRawBufferPointer

    init(size: Int = initialSize) {
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    }

    deinit { bytes.deallocate() }

    /// Doubles the buffer, up to ``maximumSize``; its contents are lost.
    func grow() {
      let size = min(bytes.count * 2, Self.maximumSize)
      guard size > bytes.count else { return }
      bytes.deallocate()
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
    }
  }
#endif
