#if os(Linux)
  import NetStatusEventLoop
  import NetStatusSystem
  import Glibc

  /// The one event loop that serves every running ``NetlinkPathSource`` session of the process, whatever its
  /// namespace, and every ``NamedNetworkNamespaces`` watch: one thread (`netstatus-rtnl`), one `epoll` set over all
  /// sessions' descriptors, one eventfd to wake it, one inotify instance for every folder watch (a
  /// ``NetlinkEventLoop``), the way swift-nio's `SelectableEventLoop` is built.
  ///
  /// Everything the loop knows is its thread's alone (``NetlinkEventLoop``, ``HubStateMachine``), read and written
  /// without a lock. Another thread reaches it through one queue of commands (``HubCommandQueue``, the hub's one
  /// lock) and the eventfd, and where it must wait (a stop, a watch for a starting session), waits once for the
  /// loop's answer. Code that runs on the loop's thread (a session's work, a sink, a handler that starts a session)
  /// calls the loop directly.
  ///
  /// The thread starts with the first session and ends with the last one, so an unused library keeps no thread: the
  /// loop retires, under the queue's lock, only when it has no session and no command waits. Its inotify instance,
  /// with no watches left, is kept for the next loop.
  ///
  /// A session's life: ``reserve()``, folder watches (``watch(folder:_:for:)``), start-up on the caller's thread
  /// (dump, first path), ``register(_:client:)`` (a stop closes it), ``activate(_:)`` (the loop runs it from then
  /// on), and ``stop(_:)`` or a failure the client reports; ``cancel(_:)`` if its start failed.
  final class NetlinkEventHub: Sendable {
    /// The process's hub.
    static let shared = NetlinkEventHub()

    let queue = HubCommandQueue()

    /// What a reserved session holds: its ID, and the loop that serves it.
    struct Reservation: Sendable {
      let id: UInt64
      let loop: NetlinkEventLoop
    }

    /// Reserves a place for a session that is starting, starting the loop and its thread if none runs.
    ///
    /// - Throws: ``NetworkMonitorError`` when the loop's descriptors or thread cannot be made (the inotify
    ///   instance limit among them).
    func reserve() throws(NetworkMonitorError) -> Reservation {
      if let loop = NetlinkEventLoop.current {
        let id = queue.withLock { state in
          defer { state.nextID += 1 }
          return state.nextID
        }
        loop.machine.reserve(id)
        return Reservation(id: id, loop: loop)
      }
      return try queue.withLock { state throws(NetworkMonitorError) -> Reservation in
        let loop: NetlinkEventLoop
        if let running = state.loop {
          loop = running
        } else {
          loop = try NetlinkEventLoop.make(reusing: state.keptInotify.take())
          do throws(SystemCallError) {
            state.thread = try POSIXThread.start(name: "netstatus-rtnl") { self.serve(loop) }
          } catch {
            if let inotify = loop.close() { Self.keep(inotify, in: &state) }
            throw NetworkMonitorError(error)
          }
          state.loop = loop
        }
        let id = state.nextID
        state.nextID += 1
        HubCommandQueue.enqueue(.reserve(id), in: &state, for: loop)
        return Reservation(id: id, loop: loop)
      }
    }

    /// Watches a folder for a starting (or running) session (``InotifyWatcher/watch(folder:for:)``): the same folder
    /// watched for several sessions is one watch, with the union of their interests.
    func watch(
      folder: String, _ interest: InotifyWatcher.Interest, for reservation: Reservation
    ) throws(NetworkMonitorError) -> Int32? {
      let loop = reservation.loop
      if loop.isCurrentThread { return try loop.watch(folder: folder, interest, for: reservation.id) }
      let answer = ask(loop) { .watch(reservation.id, folder: folder, interest: interest, ticket: $0) }
      switch answer?.outcome {
      case .watched(let watch): return watch
      case .failed(let error): throw error
      case .done, nil: throw .sourceFailed("the rtnetlink event loop has ended")  // not while the session is reserved
      }
    }

    /// Records a started session (not yet run by the loop): from now on ``stop(_:)`` closes it.
    func register(_ reservation: Reservation, client: any NetlinkHubClient) {
      let loop = reservation.loop
      if loop.isCurrentThread { return loop.machine.register(reservation.id, client: client) }
      queue.withLock { state in
        guard state.loop === loop else { return }
        HubCommandQueue.enqueue(.register(reservation.id, client), in: &state, for: loop)
      }
    }

    /// Hands a registered session to the loop: its descriptors join the epoll set, and the loop runs it from then
    /// on. A session stopped meanwhile is left alone.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses a descriptor; the session is
    ///   then closed and forgotten.
    func activate(_ reservation: Reservation) throws(NetworkMonitorError) {
      let loop = reservation.loop
      if loop.isCurrentThread {
        if let failure = loop.activate(reservation.id) { throw failure }
        return
      }
      if case .failed(let error) = ask(loop, { .activate(reservation.id, ticket: $0) })?.outcome { throw error }
    }

    /// Gives up a reservation whose session did not start: its watches go, and the loop ends if nothing else
    /// uses it.
    func cancel(_ reservation: Reservation) {
      let loop = reservation.loop
      if loop.isCurrentThread { return loop.cancel(reservation.id) }
      _ = ask(loop) { .cancel(reservation.id, ticket: $0) }
    }

    /// Stops a session: once this returns, the loop no longer runs it and its descriptors are closed, unless it is
    /// called from inside that session's own work (its sink): the loop then closes it when the work returns.
    func stop(_ reservation: Reservation) {
      let loop = reservation.loop
      if loop.isCurrentThread { return loop.stop(reservation.id) }
      _ = ask(loop) { .stop(reservation.id, ticket: $0) }
    }

    /// Waits until the session is closed (stopped, or ended by a failure), at most `timeout`. For tests.
    ///
    /// - Returns: Whether it was closed in time.
    func awaitClose(_ reservation: Reservation, timeout: Duration) -> Bool {
      ask(reservation.loop, timeout: timeout) { .awaitClose(reservation.id, ticket: $0) } != nil
    }

    /// One of the session's sockets was replaced, opened or closed during its work (on the loop's thread): the loop
    /// waits on the new one (of `kind`), if any, and no longer on the old one. At start-up, on the starting thread,
    /// there is nothing to do: activation adds the sockets there are then.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)`` when epoll refuses the new socket.
    func replace(
      _ old: Int32?, with new: Int32?, kind: NetlinkHubDescriptor.Kind = .netlink, for reservation: Reservation
    ) throws(NetworkMonitorError) {
      guard reservation.loop.isCurrentThread else { return }
      try reservation.loop.replace(old, with: new, kind: kind, for: reservation.id)
    }

    /// Sends `command` (made with its ticket) to `loop` and waits for the answer: ``HubCompletion/Outcome/done`` at
    /// once when `loop` no longer serves (its sessions are all gone, this one with them); `nil` when, with a
    /// `timeout`, the time ran out. Joins the loop's thread when the answer says so.
    private func ask(
      _ loop: NetlinkEventLoop, timeout: Duration? = nil, _ command: (UInt64) -> HubCommand
    ) -> HubCompletion? {
      let ticket = queue.withLock { state -> UInt64? in
        guard state.loop === loop else { return nil }
        let ticket = HubCommandQueue.ticket(in: &state)
        HubCommandQueue.enqueue(command(ticket), in: &state, for: loop)
        return ticket
      }
      guard let ticket else { return HubCompletion(outcome: .done) }
      let answer = queue.wait(for: ticket, timeout: timeout)
      if let thread = answer?.joinThread { pthread_join(thread, nil) }
      return answer
    }

    /// Keeps `inotify` for the next loop, or closes it if one is kept already; with the lock held.
    static func keep(_ inotify: consuming InotifyWatcher, in state: inout HubCommandQueue.State) {
      if let previous = state.keptInotify.take() {
        state.keptInotify = consume previous
        inotify.close()
      } else {
        state.keptInotify = consume inotify
      }
    }
  }
#endif
