#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// A system call's error number, typed (in the style of swift-system's `Errno`): what the lowest layer throws
  /// (``SystemCall/attempt(_:)``, or in a ``SystemCallError``) and matches, by name, where an errno has a meaning of
  /// its own (EAGAIN is "nothing waiting", ENOENT "no namespace there"). NetStatusCore turns it into a
  /// `NetworkMonitorError` or a probe failure only at its edges.
  package struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C library's number.
    package let rawValue: Int32

    /// The error with this number.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `ENOENT (No such file or directory)`, as NetStatusCore's messages name it (`SystemErrno`); `errno N` only
    /// for a number Linux does not define.
    package var description: String {
      let name = cns_errno_name(rawValue).map { String(cString: $0) } ?? "errno \(rawValue)"
      guard let message = strerror(rawValue) else { return name }
      return "\(name) (\(String(cString: message)))"
    }

    /// EPERM.
    package static let notPermitted = Errno(rawValue: Glibc.EPERM)
    /// ENOENT.
    package static let noSuchFileOrDirectory = Errno(rawValue: Glibc.ENOENT)
    /// ESRCH.
    package static let noSuchProcess = Errno(rawValue: Glibc.ESRCH)
    /// EINTR: retried by ``SystemCall/attempt(_:)``, never thrown by it.
    package static let interrupted = Errno(rawValue: Glibc.EINTR)
    /// EAGAIN (EWOULDBLOCK on Linux): a non-blocking call found nothing to do.
    package static let resourceTemporarilyUnavailable = Errno(rawValue: Glibc.EAGAIN)
    /// EACCES.
    package static let permissionDenied = Errno(rawValue: Glibc.EACCES)
    /// ENOTDIR.
    package static let notDirectory = Errno(rawValue: Glibc.ENOTDIR)
    /// EINVAL.
    package static let invalidArgument = Errno(rawValue: Glibc.EINVAL)
    /// ENOMEM.
    package static let outOfMemory = Errno(rawValue: Glibc.ENOMEM)
    /// ENOSPC: for inotify, the user's watches are at their limit.
    package static let noSpace = Errno(rawValue: Glibc.ENOSPC)
    /// EMFILE.
    package static let tooManyOpenFiles = Errno(rawValue: Glibc.EMFILE)
    /// ENOSYS.
    package static let noFunction = Errno(rawValue: Glibc.ENOSYS)
    /// ENOBUFS: for a netlink socket, the kernel dropped messages.
    package static let noBufferSpace = Errno(rawValue: Glibc.ENOBUFS)
    /// ENETDOWN.
    package static let networkDown = Errno(rawValue: Glibc.ENETDOWN)
    /// ENETUNREACH.
    package static let networkUnreachable = Errno(rawValue: Glibc.ENETUNREACH)
    /// ENONET.
    package static let machineNotOnNetwork = Errno(rawValue: Glibc.ENONET)
    /// EADDRNOTAVAIL.
    package static let addressNotAvailable = Errno(rawValue: Glibc.EADDRNOTAVAIL)
    /// ETIMEDOUT.
    package static let timedOut = Errno(rawValue: Glibc.ETIMEDOUT)
    /// ECONNREFUSED.
    package static let connectionRefused = Errno(rawValue: Glibc.ECONNREFUSED)
    /// EHOSTDOWN.
    package static let hostIsDown = Errno(rawValue: Glibc.EHOSTDOWN)
    /// EHOSTUNREACH.
    package static let noRouteToHost = Errno(rawValue: Glibc.EHOSTUNREACH)
    /// EINPROGRESS: a non-blocking connect has started.
    package static let nowInProgress = Errno(rawValue: Glibc.EINPROGRESS)
  }
#endif
