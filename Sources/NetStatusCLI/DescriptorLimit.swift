#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`, `ulimit -n`).
///
/// `watch --all-netns` holds a few descriptors per namespace (its netlink socket, a pidfd), so a host with a
/// thousand namespaces exceeds the usual soft limit of 1,024. The soft limit is raised to the hard one at start, as
/// systemd's own programs and the Go runtime (since 1.19) do for themselves: the low soft limit exists for
/// programs that still use `select(2)`, whose sets stop at 1,024, and netstatus uses `epoll` and `poll` only. Linux
/// only; a failure changes nothing.
enum DescriptorLimit {
  /// The fewest open descriptors netstatus runs with. Below it, a descriptor it needs (libdispatch's epoll set, a
  /// sysfs file read to tell an interface's type) can fail to open: a crash, or a wrong answer (Ethernet read as
  /// `other`). One namespace takes about 16 (a probe and NetworkManager included); 64 leaves room.
  static let minimum: UInt64 = 64

  /// One line for standard error when `limit` is below ``minimum``, or `nil`.
  static func problem(limit: UInt64?) -> String? {
    guard let limit, limit < minimum else { return nil }
    return "the limit on open files is \(limit), and netstatus needs at least \(minimum): raise it (ulimit -n, "
      + "LimitNOFILE= in a systemd unit, prlimit --nofile)"
  }

  /// Raises the soft limit to the hard limit. Returns the soft limit now in force, `nil` when it cannot be read.
  @discardableResult
  static func raiseToHardLimit() -> UInt64? {
    #if os(Linux)
      var limit = rlimit()
      guard getrlimit(resource, &limit) == 0 else { return nil }
      guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      return UInt64(setrlimit(resource, &raised) == 0 ? raised.rlim_cur : limit.rlim_cur)
    #else
      return nil
    #endif
  }

  #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #elseif canImport(Musl)
    private static let resource = RLIMIT_NOFILE
  #endif
}
