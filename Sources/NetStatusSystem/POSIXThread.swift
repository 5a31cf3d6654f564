#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// Starts POSIX threads for NetStatus's own blocking loops (the rtnetlink session, probe exchanges, host-name
  /// lookups): a thread of their own, never a thread of Dispatch's pool or Swift's cooperative pool.
  package enum POSIXThread {
    /// What a thread runs, and its name; retained for the thread until `body` returns.
    private final class Body {
      package let name: String?
      package let run: () -> Void
      package init(name: String?, _ run: @escaping () -> Void) {
        self.name = name
        self.run = run
      }
    }

    /// Starts `body` on a new joinable thread and returns it; `pthread_join` it.
    ///
    /// `body` is handed over whole (`sending`): state it captures belongs to the new thread from then on.
    /// A `name` (at most 15 bytes) is what `top -H`, `/proc/PID/task/TID/comm` and debuggers show.
    /// - Throws: ``SystemCallError`` for `pthread_create` when no thread could be
    ///   made (`body` is then released without running).
    package static func start(name: String? = nil, _ body: sending @escaping () -> Void) throws(SystemCallError)
      -> pthread_t
    {
      let thread = try create(name: name, detached: false, body)
      // Named here too, so that the name shows as soon as this returns (the thread names itself as well, first
      // thing, in case it runs before this line).
      if let name { _ = pthread_setname_np(thread, name) }
      return thread
    }

    /// Starts `body` on a new thread made detached, which ends on its own.
    ///
    /// Detached from its creation, not once made: a thread that ended before `pthread_detach` would be, until then,
    /// a joinable thread nobody joined, which ThreadSanitizer reports as leaked when the process exits meanwhile
    /// (netstatus exits on a stop signal at any moment).
    package static func detach(name: String? = nil, _ body: sending @escaping () -> Void) throws(SystemCallError) {
      _ = try create(name: name, detached: true, body)
    }

    /// Makes the thread; a detached one may have ended by the time this returns, so its ID is not to be used.
    private static func create(name: String?, detached: Bool, _ body: sending @escaping () -> Void)
      throws(SystemCallError) -> pthread_t
    {
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
      var thread = pthread_t()
      let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
      let created = pthread_create(
        &thread, &attributes,
        { context in
          let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
          if let name = body.name { _ = cns_set_thread_name(name) }
          body.run()
          return nil
        }, context)
      guard created == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        throw SystemCallError(call: "pthread_create", errno: Errno(rawValue: created))
      }
      return thread
    }
  }
#endif
