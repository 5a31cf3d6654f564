#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// A network namespace to watch, named as `ip netns` names it or given by path.
  ///
  /// A name (no `/`) means `/run/netns/NAME`, where `ip netns add` bind-mounts the namespace; anything with
  /// a `/` is a path, such as `/proc/PID/ns/net`.
  struct NetworkNamespace: Sendable, Hashable {
    /// Where `ip netns` keeps named namespaces.
    static let namedNamespaceFolder = "/run/netns"

    /// The namespace file.
    let path: String

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

    /// An open namespace: its descriptor and its identity (the nsfs inode), to notice when the path later
    /// names another namespace or none.
    struct Handle {
      let fd: Int32
      let device: UInt64
      let inode: UInt64
    }

    /// Opens the namespace file and checks that it is a network namespace.
    func open() throws(NetworkMonitorError) -> Handle {
      let path = self.path
      let fd: Int32
      do throws(NetworkMonitorError) {
        fd = try SystemCall.run("open(\(path))") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
      } catch {
        guard case .systemCall(_, let code) = error else { throw error }
        if code == ENOENT || code == ENOTDIR { throw .namespaceNotFound(path: path) }
        throw .namespaceNotEnterable(path: path, errno: code)
      }
      do throws(NetworkMonitorError) {
        let type = try SystemCall.run("ioctl(\(path), NS_GET_NSTYPE)") { cns_ns_get_nstype(fd) }
        guard type == cns_clone_newnet() else { throw .namespaceNotEnterable(path: path, errno: EINVAL) }
        var info = stat()
        try SystemCall.run("fstat(\(path))") { fstat(fd, &info) }
        return Handle(fd: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      } catch {
        SystemCall.close(fd)
        if case .systemCall(_, let code) = error {
          // ENOTTY: an ordinary file (for example /run/netns/NAME after its namespace was unmounted).
          throw .namespaceNotEnterable(path: path, errno: code)
        }
        throw error
      }
    }

    /// Moves the calling thread (only it) into the namespace.
    static func enter(_ handle: Handle, path: String) throws(NetworkMonitorError) {
      do throws(NetworkMonitorError) {
        try SystemCall.run("setns(\(path), CLONE_NEWNET)") { cns_setns_net(handle.fd) }
      } catch {
        guard case .systemCall(_, let code) = error else { throw error }
        throw .namespaceNotEnterable(path: path, errno: code)
      }
    }

    /// Whether `path` still names the namespace that `handle` was opened from. `ip netns delete` unmounts and
    /// removes the file; the namespace itself lives on while anything (our socket) holds it.
    func stillNames(_ handle: Handle) -> Bool {
      var info = stat()
      guard stat(path, &info) == 0 else { return false }
      return UInt64(info.st_dev) == handle.device && UInt64(info.st_ino) == handle.inode
    }
  }
#endif
