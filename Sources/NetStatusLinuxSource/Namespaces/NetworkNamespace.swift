#if os(Linux)
  import Dispatch
  import NetStatusSystem
  import Glibc
  import Synchronization

  /// A network namespace to watch, named as `ip netns` names it or given by path.
  ///
  /// A name (no `/`) means `/run/netns/NAME`, where `ip netns add` bind-mounts the namespace; anything with
  /// a `/` is a path, such as `/proc/PID/ns/net` (which names the namespace only while process PID lives: see
  /// ``openProcessDescriptor(matching:)``).
  package struct NetworkNamespace: Sendable, Hashable {
    /// Where `ip netns` keeps named namespaces.
    package static let namedNamespaceFolder = "/run/netns"

    /// The namespace file.
    package let path: String

    /// Resolves a name or a path and checks, now, that it is a network namespace this process can open.
    ///
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` when nothing is there,
    ///   ``NetworkMonitorError/namespaceNotEnterable(path:errno:)`` when it cannot be opened or is not a
    ///   network namespace.
    init(_ nameOrPath: String) throws(NetworkMonitorError) {
      path = nameOrPath.contains("/") ? nameOrPath : Self.namedNamespaceFolder + "/" + nameOrPath
      let handle = try open()
      SystemCall.close(handle.fd)
    }

    /// The namespace file at `path`, not checked now: opening it (``open()``) checks it, each time. For a path a
    /// ``PathSource`` reports (``PathSource/networkNamespacePath``), which it checked when it was made.
    package init(path: String) {
      self.path = path
    }

    /// An open namespace: its descriptor and its identity (the nsfs inode), to notice when the path later
    /// names another namespace or none.
    package typealias Handle = NamespaceFile.Handle

    /// Opens the namespace file and checks that it is a network namespace (``NamespaceFile/open(_:)``).
    ///
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` when nothing is there;
    ///   ``NetworkMonitorError/namespaceNotEnterable(path:errno:)`` with `ENOTTY` when the file is not a
    ///   namespace (not on nsfs: a regular file, a FIFO, a device, a directory; ENOTTY is what the kernel's
    ///   namespace ioctl answers for such files), with `EINVAL` when it is a namespace of another type, and with
    ///   the call's errno when it cannot be opened.
    package func open() throws(NetworkMonitorError) -> Handle {
      do throws(NamespaceFile.OpenFailure) {
        return try NamespaceFile.open(path)
      } catch {
        switch error {
        case .notFound: throw .namespaceNotFound(path: path)
        case .notEnterable(let errno): throw .namespaceNotEnterable(path: path, errno: errno)
        }
      }
    }

    /// Moves the calling thread (only it) into the namespace.
    package static func enter(_ handle: Handle, path: String) throws(NetworkMonitorError) {
      do throws(Errno) {
        try NamespaceFile.enter(handle)
      } catch {
        throw .namespaceNotEnterable(path: path, errno: error)
      }
    }

    /// Runs `body` on a short-lived thread inside the namespace and returns its result: what a netlink socket
    /// needs to be made there (a socket stays in the namespace it was made in). No long-lived thread, and never the
    /// caller's, changes namespace.
    ///
    /// - Throws: What `body` throws; ``NetworkMonitorError/namespaceNotEnterable(path:errno:)`` when `setns`
    ///   fails; ``NetworkMonitorError/systemCall(call:errno:)`` when no thread can be made.
    static func run<Value: Sendable>(
      inside handle: Handle, path: String, _ body: @escaping @Sendable () throws(NetworkMonitorError) -> Value
    ) throws(NetworkMonitorError) -> Value {
      // A pair, not a `Result`: the metadata of `Result<Value, NetworkMonitorError>`, made at run time, checks
      // `NetworkMonitorError: Error`, a conformance lookup that costs start-up time in a static binary.
      let outcome = Mutex<(value: Value?, failure: NetworkMonitorError?)>((nil, nil))
      // Detached, and awaited by its answer rather than joined: netstatus may exit (on a stop signal) while this
      // waits, and a thread that had ended but was not yet joined would be reported as leaked by ThreadSanitizer.
      let answered = DispatchSemaphore(value: 0)
      do throws(SystemCallError) {
        try POSIXThread.detach(name: "netstatus-netns") {
          do throws(NetworkMonitorError) {
            try enter(handle, path: path)
            let value = try body()
            outcome.withLockedValue { $0.value = value }
          } catch {
            outcome.withLockedValue { $0.failure = error }
          }
          answered.signal()
        }
      } catch {
        throw NetworkMonitorError(error)
      }
      answered.wait()
      let (value, failure) = outcome.withLockedValue { $0 }
      if let failure { throw failure }
      guard let value else { throw .sourceFailed("the thread entering \(path) ended without an answer") }
      return value
    }

    /// The process whose namespace ``path`` names: for a path of exactly the form `/proc/PID/ns/net`, or a symbolic
    /// link to one (a name in `/run/netns` that a container tool made a link, not a bind mount): the name is then
    /// judged by the namespace it points at, which lives only while process PID does.
    var processID: Int32? {
      ProcessNamespacePath.processID(in: path)
        ?? LocalFile.symbolicLinkDestination(path).flatMap(ProcessNamespacePath.processID(in:))
    }

    /// For a `/proc/PID/ns/net` path (or a link to one), a pidfd for process PID, readable once it exits: the path
    /// then names no namespace any more, as a deleted `/run/netns` entry does. `nil` for any other path, and where
    /// the kernel has no `pidfd_open` (before Linux 5.3, or forbidden by a seccomp filter): the exit then goes
    /// unnoticed.
    ///
    /// Guards against PID reuse: once the pidfd is open (it then stays with that process whatever its PID
    /// becomes), `path` must still name the namespace `handle` was opened from; otherwise process PID is not
    /// the one whose namespace is watched, and the namespace is as good as gone.
    ///
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` when process PID has exited or is another
    ///   process now; ``NetworkMonitorError/systemCall(call:errno:)`` when `pidfd_open` fails otherwise.
    func openProcessDescriptor(matching handle: Handle) throws(NetworkMonitorError) -> Int32? {
      guard let pid = processID else { return nil }
      let fd: Int32
      do throws(Errno) {
        fd = try NamespaceFile.openProcessDescriptor(pid)
      } catch {
        if error == .noFunction || error == .notPermitted { return nil }
        if error == .noSuchProcess { throw .namespaceNotFound(path: path) }
        throw .systemCall(call: "pidfd_open(\(pid))", errno: error)
      }
      guard stillNames(handle) else {
        SystemCall.close(fd)
        throw .namespaceNotFound(path: path)
      }
      return fd
    }

    /// Whether `path` still names the namespace that `handle` was opened from. `ip netns delete` unmounts and
    /// removes the file; the namespace itself lives on while anything (our socket) holds it.
    func stillNames(_ handle: Handle) -> Bool { NamespaceFile.stillNames(path, handle) }
  }
#endif
