#if os(Linux)
  import Dispatch
  import Glibc

  /// The work of every followed namespace folder (``NamedNetworkNamespaces``), off the event loop: the loop only
  /// queues each folder's events here (``enqueue(_:for:)``), and a thread made when work arrives handles it, in the
  /// order the loop handed it over, then ends once none is left. So reading a folder and the mount table, and the
  /// handlers (which may start monitors, whose first dump takes a while), hold no monitor's events, and no thread
  /// runs while nothing happens.
  ///
  /// One queue for the process, so that the folders' changes are handled one at a time and in order across
  /// folders, as `watch --all-netns` expects: the names present in its first folder before those of the second.
  enum NamespaceFolderQueue {
    private struct State {
      var queue: [(watcher: NamespaceFolderWatcher, work: NetlinkHubWork)] = []
      /// Whether a thread drains the queue now, and which once it has started.
      var draining = false
      var drainer: pthread_t?
      /// The watcher whose work the draining thread is handling, if any.
      var current: ObjectIdentifier?
      /// Stops from other threads waiting for the current work of their watcher to end.
      var waiters: [(watcher: ObjectIdentifier, ended: DispatchSemaphore)] = []
    }

    private static let state = Locked(State())

    /// Queues `work` of `watcher` (on the loop's thread), and starts the draining thread if none runs.
    static func enqueue(_ work: NetlinkHubWork, for watcher: NamespaceFolderWatcher) {
      let starts = state.withLockedValue { state -> Bool in
        state.queue.append((watcher, work))
        guard !state.draining else { return false }
        state.draining = true
        return true
      }
      if starts { runDetached(name: "netstatus-folders", drain) }
    }

    /// Forgets the queued work of `watcher`, which stopped reporting; when `waiting`, returns once the work of it
    /// being handled, if any, has ended, unless called from that work itself (its handler).
    static func forget(_ watcher: NamespaceFolderWatcher, waiting: Bool) {
      let id = ObjectIdentifier(watcher)
      let ended = state.withLockedValue { state -> DispatchSemaphore? in
        state.queue.removeAll { $0.watcher === watcher }
        guard waiting, state.current == id else { return nil }
        if let drainer = state.drainer, pthread_equal(drainer, pthread_self()) != 0 { return nil }
        let ended = DispatchSemaphore(value: 0)
        state.waiters.append((id, ended))
        return ended
      }
      guard let ended else { return }
      ended.wait()
      // Taken once more after the wait, so that ThreadSanitizer, which does not see a semaphore's futex, sees the
      // draining thread's work (done before it took the lock to signal) happen before what this caller does next.
      state.withLockedValue { _ in }
    }

    /// The draining thread: handles the queued work in order until none is left, then ends.
    private static func drain() {
      var finished: ObjectIdentifier?
      while true {
        let (next, waiting) = state.withLockedValue {
          state -> ((watcher: NamespaceFolderWatcher, work: NetlinkHubWork)?, [DispatchSemaphore]) in
          var waiting: [DispatchSemaphore] = []
          if let finished {
            waiting = state.waiters.filter { $0.watcher == finished }.map(\.ended)
            state.waiters.removeAll { $0.watcher == finished }
          }
          guard !state.queue.isEmpty else {
            state.draining = false
            state.drainer = nil
            state.current = nil
            return (nil, waiting)
          }
          let next = state.queue.removeFirst()
          state.drainer = pthread_self()
          state.current = ObjectIdentifier(next.watcher)
          return (next, waiting)
        }
        for ended in waiting { ended.signal() }
        guard let next else { return }
        next.watcher.perform(next.work)
        finished = ObjectIdentifier(next.watcher)
      }
    }
  }
#endif
