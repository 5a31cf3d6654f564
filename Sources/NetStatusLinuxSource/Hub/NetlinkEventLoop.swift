#if os(Linux)
  import NetStatusEventLoop
  import NetStatusSystem
  import Glibc

  /// One run of the hub's event loop, from its first session to its last: the epoll set over every session's
  /// descriptors, the eventfd that wakes its thread, the inotify instance every session's folder watches share, the
  /// buffer its thread receives into, and everything it knows (``HubStateMachine``): the thread `netstatus-rtnl`
  /// (``NetlinkEventHub``'s `serve`) owns all of it.
  ///
  /// `@unchecked Sendable`: apart from ``wakeDescriptor`` and ``buffer`` (set once), its state is read and written
  /// on the loop's thread only, without a lock (swift-nio's `SelectableEventLoop` keeps its state so); other threads
  /// reach it through the hub's command queue. Code on the loop's thread (a session's work, a sink, a handler) calls
  /// its methods directly (``isCurrentThread``).
  final class NetlinkEventLoop: @unchecked Sendable {
    /// The epoll tag of the eventfd; client tags are `id << 2 | kind`, ids from 2.
    static let wakeTag: UInt64 = 0
    /// The epoll tag of the shared inotify instance.
    static let inotifyTag: UInt64 = 1

    /// The loop's own descriptors.
    struct Descriptors: ~Copyable {
      let epoll: Epoll
      let wake: EventFD
      let inotify: InotifyWatcher
    }

    /// The descriptors, until the loop's thread closes them as it ends (or, if it never started, the hub).
    private var descriptors: Descriptors?
    /// The eventfd's number, which other threads write to wake the loop: only while the loop serves (under the hub's
    /// lock, which the loop takes to retire before it closes the eventfd), so never once closed.
    let wakeDescriptor: Int32
    /// The buffer the thread receives into, for every session it runs.
    let buffer = ReceiveBuffer()
    // The three below are `@exclusivity(unchecked)`: one thread touches them, and never across a call out of the
    // loop (a session's work, a close), so the runtime's checks on each access, on every route change, would find
    // nothing the design does not already rule out.

    /// What the loop knows.
    @exclusivity(unchecked) var machine = HubStateMachine<any NetlinkHubClient, InotifyWatcher.Event>()
    /// Work to run at the next turn, after other sessions had theirs: sessions that started unsettled or missed
    /// folder events while starting, and work that did not finish.
    @exclusivity(unchecked) var runQueue: [(id: UInt64, work: NetlinkHubWork)] = []
    /// Answers for those waiting on other threads, given at the end of the turn (``NetlinkEventHub``'s `deliver`).
    @exclusivity(unchecked) var answers: [(ticket: UInt64, completion: HubCompletion)] = []

    init(_ descriptors: consuming Descriptors) {
      wakeDescriptor = descriptors.wake.rawValue
      self.descriptors = consume descriptors
    }

    /// Makes the descriptors of a new loop, reusing `inotify` when one was kept.
    ///
    /// - Throws: ``NetworkMonitorError`` of the call that failed (the inotify instance limit among them); the
    ///   descriptors made so far are closed.
    static func make(reusing inotify: consuming InotifyWatcher?) throws(NetworkMonitorError) -> NetlinkEventLoop {
      // Each owned as soon as it is open: a failure below closes those made so far.
      let epoll: Epoll
      do throws(SystemCallError) {
        epoll = try Epoll()
      } catch {
        throw NetworkMonitorError(error)
      }
      let wake = try EventFD.opened()
      try add(wake.rawValue, tag: wakeTag, to: epoll, describing: "epoll_ctl(ADD, eventfd)")
      let watcher: InotifyWatcher
      if let kept = inotify {
        watcher = kept
      } else {
        watcher = try InotifyWatcher.opened()
      }
      try add(watcher.fd, tag: inotifyTag, to: epoll, describing: "epoll_ctl(ADD, inotify)")
      return NetlinkEventLoop(Descriptors(epoll: epoll, wake: wake, inotify: watcher))
    }

    private static func add(
      _ fd: Int32, tag: UInt64, to epoll: borrowing Epoll, describing call: String
    ) throws(NetworkMonitorError) {
      do throws(Errno) {
        try epoll.add(fd, tag: tag)
      } catch {
        throw NetworkMonitorError(SystemCallError(call: call, errno: error))
      }
    }

    // MARK: The thread

    /// The loop whose thread is the calling thread, if any.
    static var current: NetlinkEventLoop? {
      guard let pointer = pthread_getspecific(currentKey) else { return nil }
      return Unmanaged<NetlinkEventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Whether the calling thread is this loop's thread.
    var isCurrentThread: Bool { pthread_getspecific(Self.currentKey) == Unmanaged.passUnretained(self).toOpaque() }

    /// Marks the calling thread as this loop's, for ``current`` (its thread, first thing; the thread holds the loop
    /// while it runs).
    func enterThread() {
      pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
    }

    private static let currentKey: pthread_key_t = {
      var key = pthread_key_t()
      precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the event loop")
      return key
    }()

    /// Whether the descriptors are open (until the thread ends).
    private var isOpen: Bool {
      switch descriptors {
      case .some: true
      case .none: false
      }
    }

    /// The epoll set's number, for the thread's wait.
    var epollDescriptor: Int32 { descriptors?.epoll.rawValue ?? -1 }

    /// How long the thread's wait for readiness may last: not at all when work is queued, until the earliest
    /// deadline of a session waiting for the kernel (rounded up to a whole millisecond), else without end.
    @inline(__always) func waitTimeoutMilliseconds() -> Int32 {
      guard runQueue.isEmpty else { return 0 }
      guard let deadline = machine.nextDeadline else { return -1 }
      let now = MonotonicTime.now()
      guard deadline > now else { return 0 }
      return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    /// Wakes the thread: from another thread, only under the hub's lock while this loop serves.
    func wake() { EventFD.signal(wakeDescriptor) }

    /// Empties the wake eventfd, on the thread.
    func drainWake() { EventFD.drain(wakeDescriptor) }

    /// Closes the epoll set and the eventfd, once, and hands back the inotify instance for the next loop (dropped, it
    /// closes); on the thread as it ends, or by the hub for a loop whose thread never started.
    func close() -> InotifyWatcher? {
      guard let open = descriptors.take() else { return nil }
      open.epoll.close()
      open.wake.close()
      return open.inotify
    }

    // MARK: Sessions (on the loop's thread)

    /// Watches a folder for session `id` (``InotifyWatcher/watch(folder:for:)``); the same folder watched for several
    /// sessions is one watch.
    func watch(
      folder: String, _ interest: InotifyWatcher.Interest, for id: UInt64
    ) throws(NetworkMonitorError) -> Int32? {
      guard isOpen else { throw .sourceFailed("the rtnetlink event loop has ended") }
      let watched: Int32?
      do throws(SystemCallError) {
        watched = try descriptors?.inotify.watch(folder: folder, for: interest) ?? nil
      } catch {
        throw NetworkMonitorError(inotifyWatch: error)
      }
      guard let watch = watched else { return nil }
      machine.addWatch(watch, for: id)
      if machine.isUnused(watch) { descriptors?.inotify.remove(watch) }  // the session went meanwhile
      return watch
    }

    /// Hands a registered session to the loop: its descriptors join the epoll set, and its work runs from now on.
    /// A session stopped meanwhile is left alone.
    ///
    /// - Returns: `nil`, or why epoll refused a descriptor (the session is then closed and forgotten).
    func activate(_ id: UInt64) -> NetworkMonitorError? {
      guard let client = machine.activate(id), isOpen else { return nil }
      var added: [Int32] = []
      for descriptor in client.descriptors {
        let readiness: Epoll.Readiness = descriptor.kind == .mountTable ? .priority : .input
        do throws(Errno) {
          try descriptors?.epoll.add(descriptor.fd, tag: id << 2 | descriptor.kind.rawValue, for: readiness)
        } catch {
          for fd in added { descriptors?.epoll.remove(fd) }
          carryOut(machine.remove(id))
          return .systemCall(call: "epoll_ctl(ADD)", errno: error)
        }
        added.append(descriptor.fd)
      }
      let (resume, rescan) = machine.activated(id, resume: client.startedUnsettled)
      // Sessions that missed folder events while they started read their folders again.
      if rescan { runQueue.append((id, .folderEvents([.overflow]))) }
      if resume { runQueue.append((id, .resume)) }
      return nil
    }

    /// Stops session `id`: closed now, or, stopped from inside its own work, once that work returns.
    func stop(_ id: UInt64) {
      if case .removed(let removal) = machine.stop(id) { carryOut(removal) }
    }

    /// Removes a session whose start failed.
    func cancel(_ id: UInt64) {
      carryOut(machine.remove(id))
    }

    /// One of the session's sockets was replaced, opened or closed during its work: the loop waits on the new one
    /// (of `kind`), if any, and no longer on the old one. The caller closes the old one afterwards.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses the new socket.
    func replace(_ old: Int32?, with new: Int32?, kind: NetlinkHubDescriptor.Kind, for id: UInt64)
      throws(NetworkMonitorError)
    {
      guard case .active = machine.session(id), isOpen else { return }
      if let old { descriptors?.epoll.remove(old) }
      guard let new else { return }
      do throws(Errno) {
        try descriptors?.epoll.add(new, tag: id << 2 | kind.rawValue, for: .input)
      } catch {
        throw .systemCall(call: "epoll_ctl(ADD, netlink)", errno: error)
      }
    }

    /// Closes a session that left: its descriptors out of the epoll set first, then the client; removes the watches
    /// no session uses any more; answers those who waited for it to close.
    func carryOut(_ removal: HubStateMachine<any NetlinkHubClient, InotifyWatcher.Event>.Removal) {
      if let client = removal.client {
        if removal.wasActive {
          for descriptor in client.descriptors { descriptors?.epoll.remove(descriptor.fd) }
        }
        client.close()
      }
      for watch in removal.watches { descriptors?.inotify.remove(watch) }
      for ticket in removal.waiters { answers.append((ticket, HubCompletion(outcome: .done))) }
    }

    /// Reads the shared inotify instance's pending events.
    func readFolderEvents() -> [InotifyWatcher.Event] {
      do throws(SystemCallError) {
        return try descriptors?.inotify.readEvents() ?? []
      } catch {
        return []  // read(2) on an inotify descriptor fails only for a bad buffer; nothing to retry
      }
    }
  }
#endif
