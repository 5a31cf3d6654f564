#if os(Linux)
  import NetStatusSystem
  import Glibc
  import Synchronization

  /// One run of the hub's event loop, from its first session to its last: the epoll set over every session's
  /// descriptors, the eventfd that wakes its thread, the inotify instance every session's folder watches share,
  /// the buffer its thread receives into, and the thread (`netstatus-rtnl`, ``NetlinkEventHub``'s `serve`).
  final class NetlinkEventLoop: Sendable {
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

    /// The descriptors, owned until the loop's thread closes them as it ends (or, if it never started, the hub):
    /// when the last session ends, as the descriptor counts expect, and not when the last reference goes (a
    /// stopped session's reservation may outlive it), so not closed by a `deinit`. Other threads still hold the
    /// loop then (a stopper waking the retired thread), so every use of the numbers outside the thread's wait goes
    /// through this lock, and a closed number, which the kernel may have given to another descriptor, is never
    /// used (``withDescriptors(_:)``). The calls made under it (`eventfd_write`, `epoll_ctl`, inotify's) never
    /// block.
    private let descriptors: Mutex<Descriptors?>
    /// The buffer the thread receives into, for every session it runs.
    let buffer = ReceiveBuffer()
    /// The thread, once started.
    let thread = Mutex<pthread_t?>(nil)
    private let endClaimed = Atomic<Bool>(false)

    init(_ descriptors: consuming Descriptors) {
      self.descriptors = Mutex(Optional(descriptors))
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

    /// The epoll set's number for the thread's wait: valid until the thread itself closes it (``close()``).
    var epollForThread: Int32 { withDescriptors { $0.epoll.rawValue } ?? -1 }

    /// Closes the epoll set and the eventfd, once, and hands back the inotify instance for the next loop
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
    func epollAdd(_ fd: Int32, tag: UInt64, for readiness: Epoll.Readiness) -> Int32 {
      withDescriptors { descriptors -> Int32 in
        do throws(Errno) {
          try descriptors.epoll.add(fd, tag: tag, for: readiness)
          return 0
        } catch {
          return error.rawValue
        }
      } ?? EBADF
    }

    /// Takes `fd` out of the epoll set (nothing once closed).
    func epollDelete(_ fd: Int32) {
      _ = withDescriptors { $0.epoll.remove(fd) }
    }

    /// Whether the calling thread is this loop's thread.
    var isCurrentThread: Bool {
      guard let thread = thread.withLockedValue({ $0 }) else { return false }
      return pthread_equal(pthread_self(), thread) != 0
    }

    /// Wakes the thread (nothing once the descriptors are closed: the thread has ended).
    func wake() { _ = withDescriptors { try? $0.wake.signal() } }

    /// Empties the wake eventfd, on the thread.
    func drainWake() { _ = withDescriptors { _ = try? $0.wake.drain() } }

    /// Whether the caller is the one to end the retired loop's thread (join or detach it): the first caller only.
    func claimEnd() -> Bool { !endClaimed.exchange(true, ordering: .acquiringAndReleasing) }
  }
#endif
