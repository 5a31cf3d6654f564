// The Swift half of the Darwin stand-in: as in Apple's SDK, an overlay that re-exports the C module of the same name
// (Modules/Darwin/include: the declarations, with Darwin's types and numbers) and adds what C cannot say in Swift.
@_exported import Darwin

/// The calling thread's error number. Apple: `var errno: Int32 { get set }` (the C macro reads `*__error()`).
public var errno: Int32 {
  get { __error().pointee }
  set { __error().pointee = newValue }
}

/// Opens a file. Apple's overlay: `func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32` (C's `open` is
/// variadic).
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// Opens or creates a file. Apple's overlay: `func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t)
/// -> Int32`.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// Manipulates a file descriptor. Apple's overlay: `func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32` (C's `fcntl` is
/// variadic).
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// Manipulates a file descriptor. Apple's overlay: `func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32`.
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 {
  fatalError("The Darwin stand-in is for compiling only")
}

/// The file type bits of `st_mode`. Apple's overlay: `var S_IFMT: mode_t { get }` (0o170000, as sys/stat.h's macro,
/// which the overlay shadows).
public var S_IFMT: mode_t { mode_t(0o170000) }

/// A named pipe (FIFO). Apple's overlay: `var S_IFIFO: mode_t { get }` (0o010000).
public var S_IFIFO: mode_t { mode_t(0o010000) }

/// A regular file. Apple's overlay: `var S_IFREG: mode_t { get }` (0o100000).
public var S_IFREG: mode_t { mode_t(0o100000) }

/// The handler that ignores a signal. Apple's overlay: `var SIG_IGN: sig_t { get }` (C's `(void (*)(int))1` is not
/// importable).
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }

/// The system's real-time clock, for `clock_gettime`. Apple: `var CLOCK_REALTIME: clockid_t { get }`.
public var CLOCK_REALTIME: clockid_t { _CLOCK_REALTIME }

/// The system's monotonic clock, for `clock_gettime`. Apple: `var CLOCK_MONOTONIC: clockid_t { get }`.
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }

/// Enumeration describing POSIX error codes, with Darwin's numbers: those Network's `NWError.posix` carries for the
/// failures NetStatus's probe tells apart, and no others. Apple (the Darwin overlay):
/// `enum POSIXErrorCode : Int32, Sendable`.
public enum POSIXErrorCode: Int32, Sendable {
  /// Operation not permitted.
  case EPERM = 1
  /// Device not configured.
  case ENXIO = 6
  /// Permission denied.
  case EACCES = 13
  /// Operation not supported by device.
  case ENODEV = 19
  /// Invalid argument.
  case EINVAL = 22
  /// Broken pipe.
  case EPIPE = 32
  /// Can't assign requested address.
  case EADDRNOTAVAIL = 49
  /// Network is down.
  case ENETDOWN = 50
  /// Network is unreachable.
  case ENETUNREACH = 51
  /// Software caused connection abort.
  case ECONNABORTED = 53
  /// Connection reset by peer.
  case ECONNRESET = 54
  /// Socket is not connected.
  case ENOTCONN = 57
  /// Operation timed out.
  case ETIMEDOUT = 60
  /// Connection refused.
  case ECONNREFUSED = 61
  /// Host is down.
  case EHOSTDOWN = 64
  /// No route to host.
  case EHOSTUNREACH = 65
  /// Operation canceled.
  case ECANCELED = 89
}
