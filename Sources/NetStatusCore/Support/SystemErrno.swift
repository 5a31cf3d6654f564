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

/// errno values and their names, for error messages on every platform (and in `netstatus`): the platform's own
/// numbers (Linux and Darwin differ beyond the first 34: `ENOBUFS` is 105 on Linux, 55 on Darwin), taken from its C
/// library, never written out. Errors that rtnetlink sends are Linux's numbers wherever they are decoded
/// (`InitialDump` spells those out itself).
package enum SystemErrno {
  static let EPERM: Int32 = platformEPERM
  static let ENOENT: Int32 = platformENOENT
  static let EINTR: Int32 = platformEINTR
  static let EBADF: Int32 = platformEBADF
  static let EAGAIN: Int32 = platformEAGAIN
  static let ENOMEM: Int32 = platformENOMEM
  static let EACCES: Int32 = platformEACCES
  static let EINVAL: Int32 = platformEINVAL
  static let ENFILE: Int32 = platformENFILE
  static let EMFILE: Int32 = platformEMFILE
  static let ENOTTY: Int32 = platformENOTTY
  static let ENOSPC: Int32 = platformENOSPC
  static let EPROTONOSUPPORT: Int32 = platformEPROTONOSUPPORT
  static let EAFNOSUPPORT: Int32 = platformEAFNOSUPPORT
  static let ENOBUFS: Int32 = platformENOBUFS
  static let ENETUNREACH: Int32 = platformENETUNREACH
  static let ENETDOWN: Int32 = platformENETDOWN
  static let ENODEV: Int32 = platformENODEV
  static let ENXIO: Int32 = platformENXIO
  static let ETIMEDOUT: Int32 = platformETIMEDOUT
  static let EHOSTUNREACH: Int32 = platformEHOSTUNREACH

  /// The name of `errno`, `nil` when unknown.
  static func name(_ errno: Int32) -> String? {
    #if os(Linux)
      if let name = cns_errno_name(errno) { return String(cString: name) }
    #endif
    return names[errno]
  }

  private static let names: [Int32: String] = {
    var names: [Int32: String] = [
      platformEPERM: "EPERM", platformENOENT: "ENOENT", platformESRCH: "ESRCH", platformEINTR: "EINTR",
      platformEIO: "EIO", platformENXIO: "ENXIO", platformEBADF: "EBADF", platformEAGAIN: "EAGAIN",
      platformENOMEM: "ENOMEM", platformEACCES: "EACCES", platformEBUSY: "EBUSY", platformEEXIST: "EEXIST",
      platformENODEV: "ENODEV", platformENOTDIR: "ENOTDIR", platformEINVAL: "EINVAL", platformENFILE: "ENFILE",
      platformEMFILE: "EMFILE", platformENOTTY: "ENOTTY", platformEFBIG: "EFBIG", platformENOSPC: "ENOSPC",
      platformENOSYS: "ENOSYS", platformEPIPE: "EPIPE", platformEPROTO: "EPROTO",
      platformEPROTONOSUPPORT: "EPROTONOSUPPORT", platformEOPNOTSUPP: "EOPNOTSUPP",
      platformEAFNOSUPPORT: "EAFNOSUPPORT", platformEADDRNOTAVAIL: "EADDRNOTAVAIL", platformENETDOWN: "ENETDOWN",
      platformENETUNREACH: "ENETUNREACH", platformECONNRESET: "ECONNRESET", platformENOBUFS: "ENOBUFS",
      platformETIMEDOUT: "ETIMEDOUT", platformECONNREFUSED: "ECONNREFUSED", platformEHOSTDOWN: "EHOSTDOWN",
      platformEHOSTUNREACH: "EHOSTUNREACH", platformEINPROGRESS: "EINPROGRESS", platformEDQUOT: "EDQUOT",
    ]
    #if os(Linux)
      names[ENONET] = "ENONET"
    #endif
    return names
  }()

  /// `ENOENT (No such file or directory)`: every number Linux defines by its name (`EISDIR`, not `errno 21`), on
  /// Apple platforms those of the table above; `errno N` for any other.
  package static func describe(_ errno: Int32) -> String {
    let name = self.name(errno) ?? "errno \(errno)"
    guard let message = strerror(errno) else { return name }
    return "\(name) (\(String(cString: message)))"
  }
}

// The C library's values, under names the enum's members do not shadow.
private let platformEACCES = EACCES
private let platformEADDRNOTAVAIL = EADDRNOTAVAIL
private let platformEAFNOSUPPORT = EAFNOSUPPORT
private let platformEAGAIN = EAGAIN
private let platformEBADF = EBADF
private let platformEBUSY = EBUSY
private let platformECONNREFUSED = ECONNREFUSED
private let platformECONNRESET = ECONNRESET
private let platformEDQUOT = EDQUOT
private let platformEEXIST = EEXIST
private let platformEFBIG = EFBIG
private let platformEHOSTDOWN = EHOSTDOWN
private let platformEHOSTUNREACH = EHOSTUNREACH
private let platformEINPROGRESS = EINPROGRESS
private let platformEINTR = EINTR
private let platformEINVAL = EINVAL
private let platformEIO = EIO
private let platformEMFILE = EMFILE
private let platformENETDOWN = ENETDOWN
private let platformENETUNREACH = ENETUNREACH
private let platformENFILE = ENFILE
private let platformENOBUFS = ENOBUFS
private let platformENODEV = ENODEV
private let platformENOENT = ENOENT
private let platformENOMEM = ENOMEM
private let platformENOSPC = ENOSPC
private let platformENOSYS = ENOSYS
private let platformENOTDIR = ENOTDIR
private let platformENOTTY = ENOTTY
private let platformENXIO = ENXIO
private let platformEOPNOTSUPP = EOPNOTSUPP
private let platformEPERM = EPERM
private let platformEPIPE = EPIPE
private let platformEPROTO = EPROTO
private let platformEPROTONOSUPPORT = EPROTONOSUPPORT
private let platformESRCH = ESRCH
private let platformETIMEDOUT = ETIMEDOUT
