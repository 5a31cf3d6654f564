#if os(Linux)
  import NetStatusNetlink

  extension NetworkMonitorError {
    /// The source's error for a rebuild of the mirrored state that retrying cannot fix: where the pure dump protocol
    /// (`InitialDump`) meets the public error type.
    init(dumpFailure: InitialDump.Failure) {
      switch dumpFailure {
      case .refused(let request, let errno):
        self = .systemCall(call: "rtnetlink \(request) dump", errno: Errno(rawValue: errno))
      case .undecodable(let error):
        self = .sourceFailed("rtnetlink sent data NetStatus cannot decode: \(error)")
      }
    }
  }
#endif
