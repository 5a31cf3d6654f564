#if os(Linux)
  import Glibc

  /// The one place where a failing system call becomes a ``NetworkMonitorError``.
  enum SystemCall {
    /// Runs a system call, retrying while it fails with EINTR.
    ///
    /// - Parameters:
    ///   - call: The call and its subject, for the error message (`socket(AF_NETLINK, NETLINK_ROUTE)`).
    ///   - body: The call; a negative result means failure, with the reason in `errno`.
    /// - Returns: The call's non-negative result.
    /// - Throws: ``NetworkMonitorError/systemCall(call:errno:)``.
    @discardableResult
    static func run<Result: FixedWidthInteger>(_ call: @autoclosure () -> String, _ body: () -> Result)
      throws(NetworkMonitorError) -> Result
    {
      while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw .systemCall(call: call(), errno: code)
      }
    }

    /// Closes a descriptor we own. close(2) errors are not actionable here (the descriptor is released in
    /// any case on Linux), so they are not reported; EINTR is not retried, as Linux has already closed it.
    static func close(_ fd: Int32) {
      if fd >= 0 { _ = Glibc.close(fd) }
    }
  }
#endif
