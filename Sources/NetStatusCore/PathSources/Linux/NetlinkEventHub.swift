#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import Glibc
  import Synchronization

  /// The one thread that serves every running ``NetlinkPathSource`` session of the process, whatever its
  /// namespace: one `epoll` set over all sessions' netlink sockets (and pidfds), one eventfd to wake it, one
  /// inotify instance shared by all sessions' folder watches (a ``NetlinkEventLoop``).
  ///
  /// A session costs its netlink socket and nothing else: a process watching a thousand namespaces has one
  /// thread, one inotify instance and a thousand sockets. The loop's thread (`netstatus-rtnl`) starts with the
  /// first session and ends with the last one, so an unused library keeps no thread; its inotify instance, with no
  /// watches left, is kept for the next loop (``keep(_:)``), since closing it would make the last stop wait for
  /// the kernel.
  ///
  /// Decide inside the lock, act outside it: ``NetlinkHubRegistry`` decides, under ``registry``'s lock, which
  /// session the thread runs and who closes a stopped session; this shell does the work and the system calls
  /// outside it, except inotify's (the table of watches and the instance change together) and the epoll
  /// registration of a session being enabled (a concurrent stop cannot close its descriptors in between).
  ///
  /// A session's life: ``reserve()`` (the loop cannot end while a session starts), folder watches with
  /// ``watch(folder:_:for:)``, start-up on the caller's thread (dump, first path), ``register(_:client:)`` and
  /// ``enable(_:)`` (the thread runs it from then on), and ``stop(_:)`` or a failure the client reports.
  final class NetlinkEventHub: Sendable {
    /// The process's hub.
    static let shared = NetlinkEventHub()

    typealias Registry = NetlinkHubRegistry<any NetlinkHubClient, NetlinkEventLoop>

    let registry = Mutex(Registry())

    /// The inotify instance of the last loop, its watches all removed, kept for the next one: closing an
    /// instance that had watches waits for the kernel to free them (an SRCU grace period, milliseconds), and the
    /// stop that retires a loop waits for its thread. Held until the process exits (where the
    /// kernel frees it); a later instance, if two loops end at once, is closed.
    private let keptInotify = Mutex<InotifyWatcher?>(nil)

    /// What a reserved session holds: its ID, and the loop whose inotify instance and thread serve it.
    struct Reservation: Sendable {
      let id: UInt64
      let loop: NetlinkEventLoop
    }

    /// Reserves a place for a session that is starting, starting the loop's thread if it is not running.
    ///
    /// - Throws: ``NetworkMonitorError`` when the loop's descriptors or thread cannot be made (the inotify
    ///   instance limit among them).
    func reserve() throws(NetworkMonitorError) -> Reservation {
      if let (id, loop) = registry.withLockedValue({ $0.reserve() }) { return Reservation(id: id, loop: loop) }
      // Made outside the lock; if another thread made one meanwhile, this one is closed unused.
      let made = try NetlinkEventLoop.make(reusing: keptInotify.withLockedValue { $0.take() })
      let (id, loop, adopted) = registry.withLockedValue { $0.reserve(adopting: made) }
      let reservation = Reservation(id: id, loop: loop)
      guard adopted else {
        close(made)
        return reservation
      }
      do throws(NetworkMonitorError) {
        let thread = try NetworkMonitorError.converting { () throws(SystemCallError) in
          try POSIXThread.start(name: "netstatus-rtnl") { self.serve(made) }
        }
        made.thread.withLockedValue { $0 = thread }
      } catch {
        cancel(reservation)
        throw error
      }
      return reservation
    }

    func close(_ loop: NetlinkEventLoop) {
      if let inotify = loop.close() { keep(inotify) }
    }

    /// Keeps `inotify` for the next loop, or closes it if one is kept already.
    func keep(_ inotify: consuming InotifyWatcher) {
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

    /// Watches a folder for a session (``InotifyWatcher/watch(folder:for:)``): the same folder watched for several
    /// sessions is one watch, with the union of their interests.
    func watch(
      folder: String, _ interest: InotifyWatcher.Interest, for reservation: Reservation
    ) throws(NetworkMonitorError) -> Int32? {
      try registry.withLockedValue { registry throws(NetworkMonitorError) -> Int32? in
        let watched: Int32?
        do throws(SystemCallError) {
          watched = try reservation.loop.watch(folder: folder, for: interest)
        } catch {
          throw NetworkMonitorError(inotifyWatch: error)
        }
        guard let watch = watched else { return nil }
        registry.addWatch(watch, for: reservation.id)
        return watch
      }
    }

    /// Records a started session (not yet run by the thread): from now on ``stop(_:)`` finds and closes it.
    func register(_ reservation: Reservation, client: any NetlinkHubClient) {
      registry.withLockedValue { $0.register(reservation.id, client) }
    }

    /// Hands a registered session to the loop's thread: its descriptors join the epoll set (under the lock, so
    /// that a concurrent ``stop(_:)`` cannot close them in between). A session stopped meanwhile is left alone.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses a descriptor; the session
    ///   is then closed and forgotten.
    func enable(_ reservation: Reservation) throws(NetworkMonitorError) {
      let id = reservation.id
      let loop = reservation.loop
      let refusal = registry.withLockedValue { registry -> (NetworkMonitorError, Registry.Removal)? in
        guard let client = registry.enable(id) else { return nil }
        var added: [Int32] = []
        for descriptor in client.descriptors {
          let readiness: Epoll.Readiness = descriptor.kind == .mountTable ? .priority : .input
          let refused = loop.epollAdd(descriptor.fd, tag: id << 2 | descriptor.kind.rawValue, for: readiness)
          guard refused == 0 else {
            for fd in added { loop.epollDelete(fd) }
            let removal = registry.remove(id) { $0.removeWatch($1) }
            return (.systemCall(call: "epoll_ctl(ADD)", errno: refused), removal)
          }
          added.append(descriptor.fd)
        }
        if registry.activated(id, resume: client.startedUnsettled) { loop.wake() }
        return nil
      }
      if let (failure, removal) = refusal {
        carryOut(removal)
        throw failure
      }
    }

    /// Gives up a reservation whose session did not start: its watches go, and the loop ends if nothing else
    /// uses it.
    func cancel(_ reservation: Reservation) {
      carryOut(registry.withLockedValue { $0.remove(reservation.id) { $0.removeWatch($1) } })
    }

    /// Stops a session: once this returns, the loop's thread no longer runs it and its descriptors are closed,
    /// unless it is called from the loop's thread while that session runs (from its sink): the thread then closes
    /// it when the sink returns.
    func stop(_ id: UInt64) {
      let onHubThread = registry.withLockedValue { $0.loop?.isCurrentThread ?? false }
      let decision = registry.withLockedValue { $0.stop(id, onHubThread: onHubThread) { $0.removeWatch($1) } }
      switch decision {
      case .nothing:
        return
      case .waitForThread(let client):
        client.finished.wait()
        client.finished.signal()
        // The thread closed it; if that retired the loop, the thread left its end to this stopper.
        let loop = client.reservation.loop
        if registry.withLockedValue({ !$0.serves(loop) }) { finish(loop) }
      case .remove(let removal):
        carryOut(removal)
      }
    }

    /// The session's netlink socket was replaced (on the loop's thread, during its work): the loop waits on the
    /// new one. The caller closes the old one afterwards.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses the new socket.
    func replace(_ old: Int32?, with new: Int32, for reservation: Reservation) throws(NetworkMonitorError) {
      let id = reservation.id
      let loop = reservation.loop
      let failure = registry.withLockedValue { registry -> Int32? in
        guard case .active = registry.sessions[id] else { return nil }
        if let old { loop.epollDelete(old) }
        let refused = loop.epollAdd(new, tag: id << 2, for: .input)
        return refused == 0 ? nil : refused
      }
      if let failure { throw .systemCall(call: "epoll_ctl(ADD, netlink)", errno: failure) }
    }

    /// Closes a session that left the registry (its descriptors out of the epoll set first), then ends the loop
    /// that retired with it, unless a stopper waiting on another thread joins it (then only wakes it).
    func carryOut(_ removal: Registry.Removal) {
      if let client = removal.client {
        if removal.wasActive {
          for descriptor in client.descriptors { client.reservation.loop.epollDelete(descriptor.fd) }
        }
        client.close()
        client.finished.signal()
      }
      guard let retired = removal.retired else { return }
      if removal.stopperWaits { retired.wake() } else { finish(retired) }
    }

    /// Ends a retired loop's thread: wakes it and waits for it, or, on that thread itself, lets it end on its own
    /// once the current sink returns.
    private func finish(_ loop: NetlinkEventLoop) {
      loop.wake()
      guard loop.claimEnd() else { return }
      guard let thread = loop.thread.withLockedValue({ $0 }) else {
        close(loop)  // the thread never started
        return
      }
      if pthread_equal(pthread_self(), thread) != 0 {
        pthread_detach(thread)
      } else {
        pthread_join(thread, nil)
      }
    }
  }
#endif
