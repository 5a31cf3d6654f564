#if os(Linux)
  import Glibc

  /// A system call that failed: which, and its ``Errno``. What this module's types throw; NetStatusCore turns it into
  /// a `NetworkMonitorError` (or a probe failure) at its edges, and matches ``errno`` by name where an errno means
  /// something of its own.
  package struct SystemCallError: Error, Hashable, Sendable {
    /// The call and its subject, for messages (`socket(AF_NETLINK, NETLINK_ROUTE)`).
    package let call: String
    /// Why it failed.
    package let errno: Errno

    /// The failure of `call` with `errno`.
    package init(call: String, errno: Errno) {
      self.call = call
      self.errno = errno
    }
  }

  /// The one helper for system calls: ``attempt(_:)`` runs one and throws its typed ``Errno``; ``call(_:_:)`` also
  /// names the call (``SystemCallError``).
  package enum SystemCall {
    /// Runs a system call, retrying while it fails with EINTR.
    ///
    /// - Parameter body: The call; a negative result means failure, with the reason in `errno`.
    /// - Returns: The call's non-negative result.
    /// - Throws: The call's ``Errno``, never ``Errno/interrupted``.
    @discardableResult
    package static func attempt<Result: FixedWidthInteger>(_ body: () -> Result) throws(Errno) -> Result {
      while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw Errno(rawValue: code)
      }
    }

    /// Runs a system call as ``attempt(_:)`` does, naming it in the error.
    ///
    /// - Parameters:
    ///   - name: The call and its subject, for the error message (`socket(AF_NETLINK, NETLINK_ROUTE)`).
    ///   - body: The call; a negative result means failure, with the reason in `errno`.
    /// - Returns: The call's non-negative result.
    /// - Throws: ``SystemCallError``.
    @discardableResult
    package static func call<Result: FixedWidthInteger>(_ name: @autoclosure () -> String, _ body: () -> Result)
      throws(SystemCallError) -> Result
    {
      do throws(Errno) {
        return try attempt(body)
      } catch {
        throw SystemCallError(call: name(), errno: error)
      }
    }

    /// Closes a descriptor we own. close(2) errors are not actionable here (the descriptor is released in
    /// any case on Linux), so they are not reported; EINTR is not retried, as Linux has already closed it.
    package static func close(_ fd: Int32) {
      if fd >= 0 { _ = Glibc.close(fd) }
    }
  }
#endif
