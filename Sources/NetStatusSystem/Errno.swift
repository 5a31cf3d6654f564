#if os(Linux)
  import Glibc

  /// A system call's error number, typed (in the style of swift-system's `Errno`): what the lowest layer throws
  /// (``SystemCall/attempt(_:)``) and matches, by name, where an errno has a meaning of its own (EAGAIN is "nothing
  /// waiting", ENOENT "no namespace there"). It becomes a ``NetworkMonitorError`` or a probe failure only at the
  /// edges, naming the call that failed (``SystemCall/run(_:_:)``).
  struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C library's number.
    let rawValue: Int32

    /// The error with this number.
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// `ENOENT (No such file or directory)`.
    var description: String { SystemErrno.describe(rawValue) }

    /// EPERM.
    static let notPermitted = Errno(rawValue: Glibc.EPERM)
    /// ENOENT.
    static let noSuchFileOrDirectory = Errno(rawValue: Glibc.ENOENT)
    /// ESRCH.
    static let noSuchProcess = Errno(rawValue: Glibc.ESRCH)
    /// EINTR: retried by ``SystemCall/attempt(_:)``, never thrown by it.
    static let interrupted = Errno(rawValue: Glibc.EINTR)
    /// EAGAIN (EWOULDBLOCK on Linux): a non-blocking call found nothing to do.
    static let resourceTemporarilyUnavailable = Errno(rawValue: Glibc.EAGAIN)
    /// EACCES.
    static let permissionDenied = Errno(rawValue: Glibc.EACCES)
    /// ENOTDIR.
    static let notDirectory = Errno(rawValue: Glibc.ENOTDIR)
    /// EINVAL.
    static let invalidArgument = Errno(rawValue: Glibc.EINVAL)
    /// EMFILE.
    static let tooManyOpenFiles = Errno(rawValue: Glibc.EMFILE)
    /// ENOSYS.
    static let noFunction = Errno(rawValue: Glibc.ENOSYS)
    /// ENOBUFS: for a netlink socket, the kernel dropped messages.
    static let noBufferSpace = Errno(rawValue: Glibc.ENOBUFS)
    /// ENETDOWN.
    static let networkDown = Errno(rawValue: Glibc.ENETDOWN)
    /// ENETUNREACH.
    static let networkUnreachable = Errno(rawValue: Glibc.ENETUNREACH)
    /// ENONET.
    static let machineNotOnNetwork = Errno(rawValue: Glibc.ENONET)
    /// EADDRNOTAVAIL.
    static let addressNotAvailable = Errno(rawValue: Glibc.EADDRNOTAVAIL)
    /// ETIMEDOUT.
    static let timedOut = Errno(rawValue: Glibc.ETIMEDOUT)
    /// ECONNREFUSED.
    static let connectionRefused = Errno(rawValue: Glibc.ECONNREFUSED)
    /// EHOSTDOWN.
    static let hostIsDown = Errno(rawValue: Glibc.EHOSTDOWN)
    /// EHOSTUNREACH.
    static let noRouteToHost = Errno(rawValue: Glibc.EHOSTUNREACH)
    /// EINPROGRESS: a non-blocking connect has started.
    static let nowInProgress = Errno(rawValue: Glibc.EINPROGRESS)
  }
#endif
