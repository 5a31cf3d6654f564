#if os(Linux)
  import CNetStatusShim
  import Glibc
  import NetStatusNetlink

  /// The system calls on a network namespace file: opening and checking it, entering it, and the pidfd of the
  /// process whose `/proc/PID/ns/net` it is. NetStatusCore's `NetworkNamespace` says what their failures mean to a
  /// monitor.
  package enum NamespaceFile {
    /// An open namespace: its descriptor and its identity (the nsfs inode), to notice when the path later names
    /// another namespace or none.
    package struct Handle: Sendable {
      /// The descriptor (`-1` for an identity kept without one). The owner closes it.
      package let fd: Int32
      /// The nsfs device.
      package let device: UInt64
      /// The nsfs inode: the namespace's identity.
      package let inode: UInt64

      /// A handle with these fields.
      package init(fd: Int32, device: UInt64, inode: UInt64) {
        self.fd = fd
        self.device = device
        self.inode = inode
      }
    }

    /// Why a namespace file could not be opened.
    package enum OpenFailure: Error, Equatable {
      /// Nothing is there (ENOENT, ENOTDIR on the way).
      case notFound
      /// Something is there that cannot be opened (its errno), is not a namespace (ENOTTY: what the kernel's
      /// namespace ioctl answers for a file that is not on nsfs) or is a namespace of another type (EINVAL).
      case notEnterable(Errno)
    }

    /// Opens the namespace file at `path` and checks that it is a network namespace.
    ///
    /// Only a file on nsfs is a namespace. Anything else fails before it can block or do harm: a FIFO would
    /// block a blocking `open` until a writer comes, and opening a device can have effects of its own
    /// (`/dev/watchdog` arms the watchdog). So the path's filesystem is checked first, without opening it
    /// (`statfs`); the file is then opened non-blocking and its descriptor checked again (`fstatfs`), in case
    /// the path changed in between, before the namespace ioctl.
    package static func open(_ path: String) throws(OpenFailure) -> Handle {
      var filesystem = 0
      do throws(Errno) {
        try SystemCall.attempt { SystemName.withCString(path) { cns_statfs_type($0, &filesystem) } }
      } catch {
        throw openingFailure(error)
      }
      guard filesystem == cns_nsfs_magic() else { throw .notEnterable(Errno(rawValue: ENOTTY)) }
      let fd: Int32
      do throws(Errno) {
        fd = try SystemCall.attempt {
          SystemName.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
      } catch {
        throw openingFailure(error)
      }
      do throws(Errno) {
        try SystemCall.attempt { cns_fstatfs_type(fd, &filesystem) }
        guard filesystem == cns_nsfs_magic() else { throw Errno(rawValue: ENOTTY) }
        let type = try SystemCall.attempt { cns_ns_get_nstype(fd) }
        guard type == cns_clone_newnet() else { throw .invalidArgument }
        var info = stat()
        try SystemCall.attempt { fstat(fd, &info) }
        return Handle(fd: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      } catch {
        SystemCall.close(fd)
        throw .notEnterable(error)
      }
    }

    /// What a failure to reach or open the namespace file means: nothing there, or something in the way.
    private static func openingFailure(_ error: Errno) -> OpenFailure {
      if error == .noSuchFileOrDirectory || error == .notDirectory { return .notFound }
      return .notEnterable(error)
    }

    /// Moves the calling thread (only it) into the namespace (`setns(2)`).
    package static func enter(_ handle: Handle) throws(Errno) {
      try SystemCall.attempt { cns_setns_net(handle.fd) }
    }

    /// A pidfd for process `pid` (`pidfd_open(2)`, Linux 5.3), readable once the process exits.
    package static func openProcessDescriptor(_ pid: Int32) throws(Errno) -> Int32 {
      try SystemCall.attempt { cns_pidfd_open(pid) }
    }

    /// Whether `path` still names the namespace that `handle` was opened from. `ip netns delete` unmounts and
    /// removes the file; the namespace itself lives on while anything (our socket) holds it.
    package static func stillNames(_ path: String, _ handle: Handle) -> Bool {
      var info = stat()
      guard SystemName.withCString(path, { stat($0, &info) }) == 0 else { return false }
      return UInt64(info.st_dev) == handle.device && UInt64(info.st_ino) == handle.inode
    }
  }
#endif
