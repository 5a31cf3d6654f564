#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// errno values and their names, for error messages on every platform (and in `netstatus`).
package enum SystemErrno {
  static let EPERM: Int32 = 1
  static let ENOENT: Int32 = 2
  static let EINTR: Int32 = 4
  static let EBADF: Int32 = 9
  static let EAGAIN: Int32 = 11
  static let ENOMEM: Int32 = 12
  static let EACCES: Int32 = 13
  static let EINVAL: Int32 = 22
  static let ENFILE: Int32 = 23
  static let EMFILE: Int32 = 24
  static let ENOTTY: Int32 = 25
  static let ENOSPC: Int32 = 28
  static let EPROTONOSUPPORT: Int32 = 93
  static let EAFNOSUPPORT: Int32 = 97
  static let ENOBUFS: Int32 = 105
  static let ENETUNREACH: Int32 = 101
  static let ETIMEDOUT: Int32 = 110
  static let EHOSTUNREACH: Int32 = 113

  private static let names: [Int32: String] = [
    1: "EPERM", 2: "ENOENT", 3: "ESRCH", 4: "EINTR", 5: "EIO", 6: "ENXIO", 9: "EBADF", 11: "EAGAIN",
    12: "ENOMEM", 13: "EACCES", 16: "EBUSY", 17: "EEXIST", 19: "ENODEV", 20: "ENOTDIR", 22: "EINVAL", 23: "ENFILE",
    24: "EMFILE", 25: "ENOTTY", 27: "EFBIG", 28: "ENOSPC", 38: "ENOSYS",
    32: "EPIPE", 64: "ENONET", 71: "EPROTO", 93: "EPROTONOSUPPORT", 95: "EOPNOTSUPP", 97: "EAFNOSUPPORT",
    99: "EADDRNOTAVAIL", 100: "ENETDOWN", 101: "ENETUNREACH", 104: "ECONNRESET", 105: "ENOBUFS",
    110: "ETIMEDOUT", 111: "ECONNREFUSED", 112: "EHOSTDOWN", 113: "EHOSTUNREACH", 115: "EINPROGRESS", 122: "EDQUOT",
  ]

  /// `ENOENT (No such file or directory)`.
  package static func describe(_ errno: Int32) -> String {
    let name = names[errno] ?? "errno \(errno)"
    guard let message = strerror(errno) else { return name }
    return "\(name) (\(String(cString: message)))"
  }
}
