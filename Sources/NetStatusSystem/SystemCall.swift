#if os(Linux)
  import Glibc

  /// The one helper for system calls: ``attempt(_:)`` runs one and throws its typed ``Errno``, for the code that
  /// gives particular errnos a meaning (EAGAIN, ENOENT...); ``run(_:_:)`` is the edge where a failure that is only a
  /// failure becomes a ``NetworkMonitorError`` naming the call.
  enum SystemCall {
    /// Runs a system call, retrying while it fails with EINTR.
    ///
    /// - Parameter body: The call; a negative result means failure, with the reason in `errno`.
    /// - Returns: The call's non-negative result.
    /// - Throws: The call's ``Errno``, never ``Errno/interrupted``.
    @discardableResult
    static func attempt<Result: FixedWidthInteger>(_ body: () -> Result) throws(Errno) -> Result {
      while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw Errno(rawValue: code)
      }
    }

    /// Runs a system call as ``attempt(_:)`` does, for a caller to which any failure is only a failure.
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
      do throws(Errno) {
        return try attempt(body)
      } catch {
        throw .systemCall(call: call(), errno: error.rawValue)
      }
    }

    /// Closes a descriptor we own. close(2) errors are not actionable here (the descriptor is released in
    /// any case on Linux), so they are not reported; EINTR is not retried, as Linux has already closed it.
    static func close(_ fd: Int32) {
      if fd >= 0 { _ = Glibc.close(fd) }
    }
  }
#endif
