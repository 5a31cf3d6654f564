#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if os(Linux)
  import CNetStatusShim
#endif

/// An error number of the C library (`errno`), typed in the style of swift-system's `Errno`: the system call's
/// failure that a ``NetworkMonitorError`` carries (`systemCall(call:errno:)`, `namespaceNotEnterable(path:errno:)`,
/// `limitReached(call:errno:limit:)`), with its number and its name.
///
/// The numbers are the platform's own (Linux and Darwin differ beyond the first 34: `ENOBUFS` is 105 on Linux, 55 on
/// Darwin); compare with the C library's constants, not with numbers.
///
/// ```swift
/// do {
///     try monitor.start()
/// } catch .namespaceNotEnterable(let path, let errno) where errno.rawValue == EPERM {
///     print("run as root to enter \(path)")
/// } catch {
///     print(error)
/// }
/// ```
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
  /// The C library's number.
  public let rawValue: Int32

  /// The error with this number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The C library's name for the number (`ENOENT`), or `nil` for one it does not name: on Linux every number the C
  /// library defines; on Apple platforms the common ones.
  public var name: String? {
    #if os(Linux)
      if let name = cns_errno_name(rawValue) { return String(cString: name) }
    #endif
    return Self.names[rawValue]
  }

  /// `ENOENT (No such file or directory)`: the name and the C library's message; `errno N` for a number without a
  /// name.
  public var description: String {
    let name = self.name ?? "errno \(rawValue)"
    guard let message = strerror(rawValue) else { return name }
    return "\(name) (\(String(cString: message)))"
  }

  /// The names where the C library cannot say them (Apple platforms).
  private static let names: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO", EBADF: "EBADF",
    EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST", ENODEV: "ENODEV",
    ENOTDIR: "ENOTDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG",
    ENOSPC: "ENOSPC", ENOSYS: "ENOSYS", EPIPE: "EPIPE", EPROTO: "EPROTO", EPROTONOSUPPORT: "EPROTONOSUPPORT",
    EOPNOTSUPP: "EOPNOTSUPP", EAFNOSUPPORT: "EAFNOSUPPORT", EADDRNOTAVAIL: "EADDRNOTAVAIL", ENETDOWN: "ENETDOWN",
    ENETUNREACH: "ENETUNREACH", ECONNRESET: "ECONNRESET", ENOBUFS: "ENOBUFS", ETIMEDOUT: "ETIMEDOUT",
    ECONNREFUSED: "ECONNREFUSED", EHOSTDOWN: "EHOSTDOWN", EHOSTUNREACH: "EHOSTUNREACH", EINPROGRESS: "EINPROGRESS",
    EDQUOT: "EDQUOT",
  ]

  /// EPERM.
  package static let notPermitted = Errno(rawValue: EPERM)
  /// ENOENT.
  package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
  /// ESRCH.
  package static let noSuchProcess = Errno(rawValue: ESRCH)
  /// EINTR: retried by `SystemCall.attempt(_:)`, never thrown by it.
  package static let interrupted = Errno(rawValue: EINTR)
  /// EIO.
  package static let ioError = Errno(rawValue: EIO)
  /// ENXIO.
  package static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
  /// EBADF.
  package static let badFileDescriptor = Errno(rawValue: EBADF)
  /// EAGAIN (EWOULDBLOCK on Linux): a non-blocking call found nothing to do.
  package static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
  /// ENOMEM.
  package static let outOfMemory = Errno(rawValue: ENOMEM)
  /// EACCES.
  package static let permissionDenied = Errno(rawValue: EACCES)
  /// ENODEV.
  package static let noSuchDevice = Errno(rawValue: ENODEV)
  /// ENOTDIR.
  package static let notDirectory = Errno(rawValue: ENOTDIR)
  /// EINVAL.
  package static let invalidArgument = Errno(rawValue: EINVAL)
  /// ENFILE: the system's table of open files is full.
  package static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
  /// EMFILE.
  package static let tooManyOpenFiles = Errno(rawValue: EMFILE)
  /// ENOTTY: for a namespace file, not a namespace at all.
  package static let inappropriateIOControlOperation = Errno(rawValue: ENOTTY)
  /// ENOSPC: for inotify, the user's watches are at their limit.
  package static let noSpace = Errno(rawValue: ENOSPC)
  /// ENOSYS.
  package static let noFunction = Errno(rawValue: ENOSYS)
  /// EPROTONOSUPPORT.
  package static let protocolNotSupported = Errno(rawValue: EPROTONOSUPPORT)
  /// EAFNOSUPPORT.
  package static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
  /// ENOBUFS: for a netlink socket, the kernel dropped messages.
  package static let noBufferSpace = Errno(rawValue: ENOBUFS)
  /// ENETDOWN.
  package static let networkDown = Errno(rawValue: ENETDOWN)
  /// ENETUNREACH.
  package static let networkUnreachable = Errno(rawValue: ENETUNREACH)
  #if os(Linux)
    /// ENONET (Linux only).
    package static let machineNotOnNetwork = Errno(rawValue: ENONET)
  #endif
  /// EADDRNOTAVAIL.
  package static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
  /// ETIMEDOUT.
  package static let timedOut = Errno(rawValue: ETIMEDOUT)
  /// ECONNREFUSED.
  package static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// EHOSTDOWN.
  package static let hostIsDown = Errno(rawValue: EHOSTDOWN)
  /// EHOSTUNREACH.
  package static let noRouteToHost = Errno(rawValue: EHOSTUNREACH)
  /// EINPROGRESS: a non-blocking connect has started.
  package static let nowInProgress = Errno(rawValue: EINPROGRESS)
}

extension Errno {
  /// The description of error number `rawValue` (``description``): for messages that have the number only, such as
  /// an errno rtnetlink answered with.
  package static func describe(_ rawValue: Int32) -> String { Errno(rawValue: rawValue).description }
}
