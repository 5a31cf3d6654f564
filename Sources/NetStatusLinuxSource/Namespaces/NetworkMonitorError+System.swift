#if os(Linux)
  import NetStatusSystem

  // Where the system layer (Sources/NetStatusSystem: typed `Errno`, `SystemCallError`) meets the public error type.

  extension SystemCall {
    /// Runs a system call (``SystemCall/attempt(_:)``) for a caller to which any failure is only a failure: the edge
    /// where it becomes a ``NetworkMonitorError`` naming the call.
    ///
    /// - Parameters:
    ///   - call: The call and its subject, for the error message (`epoll_create1`).
    ///   - body: The call; a negative result means failure, with the reason in `errno`.
    /// - Returns: The call's non-negative result.
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)``.
    @discardableResult
    package static func invoke<Result: FixedWidthInteger>(_ call: @autoclosure () -> String, _ body: () -> Result)
      throws(NetworkMonitorError) -> Result
    {
      do throws(Errno) {
        return try attempt(body)
      } catch {
        throw .systemCall(call: call(), errno: error)
      }
    }
  }

  extension NetworkMonitorError {
    /// A failed system call, as the source reports it.
    package init(_ error: SystemCallError) {
      self = .systemCall(call: error.call, errno: error.errno)
    }

    /// Runs an operation of the system layer; its failure becomes a ``NetworkMonitorError`` naming the call.
    package static func converting<Value: ~Copyable>(_ body: () throws(SystemCallError) -> Value)
      throws(NetworkMonitorError)
      -> Value
    {
      do throws(SystemCallError) {
        return try body()
      } catch {
        throw NetworkMonitorError(error)
      }
    }

    /// What an `inotify_init1` failure means. Its EMFILE stands for two limits: this process's descriptors
    /// (RLIMIT_NOFILE, `ulimit -n`) or the user's inotify instances (`fs.inotify.max_user_instances`, shared by
    /// all of the user's processes). It is the instances when the process can still open a descriptor.
    init(inotifyInit error: Errno, descriptorAvailable: () -> Bool) {
      guard error == .tooManyOpenFiles, descriptorAvailable() else {
        self = .systemCall(call: "inotify_init1", errno: error)
        return
      }
      self = .limitReached(call: "inotify_init1", errno: error, limit: .inotifyInstances)
    }

    /// What an `inotify_add_watch` failure means: ENOSPC is the user's inotify watch limit.
    init(inotifyWatch error: SystemCallError) {
      guard error.errno == .noSpace else {
        self.init(error)
        return
      }
      self = .limitReached(call: error.call, errno: error.errno, limit: .inotifyWatches)
    }
  }

  extension EventFD {
    /// Creates an eventfd (``EventFD/init()``), failing as the source reports it.
    ///
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)``.
    package static func opened() throws(NetworkMonitorError) -> EventFD {
      do throws(SystemCallError) {
        return try EventFD()
      } catch {
        throw NetworkMonitorError(error)
      }
    }
  }

  extension InotifyWatcher {
    /// Creates a non-blocking inotify instance (``InotifyWatcher/open()``), failing as the source reports it.
    ///
    /// - Throws: ``NetworkMonitorError/limitReached(call:errno:limit:)`` when the user's inotify instances are
    ///   at their limit, ``NetworkMonitorError/systemCall(call:errno:)`` otherwise.
    static func opened() throws(NetworkMonitorError) -> InotifyWatcher {
      do throws(Errno) {
        return try open()
      } catch {
        throw NetworkMonitorError(inotifyInit: error, descriptorAvailable: canOpenDescriptor)
      }
    }
  }
#endif
