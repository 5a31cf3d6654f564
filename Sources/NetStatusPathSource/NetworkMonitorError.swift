#if canImport(NetStatusSystem)
  import NetStatusSystem
#endif

/// Why a monitor could not start, or why it stopped seeing the network.
///
/// Every case says what failed and, through ``recoverySuggestion``, what to do about it.
///
/// ```swift
/// do {
///     try monitor.start()
/// } catch {
///     print("netstatus: \(error)")   // says what failed and what to do
/// }
/// ```
public enum NetworkMonitorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A system call failed.
  ///
  /// - Parameters:
  ///   - call: The call and its subject, for example `socket(AF_NETLINK, NETLINK_ROUTE)`.
  ///   - errno: The `errno` it returned, with its name (``Errno``).
  case systemCall(call: String, errno: Errno)
  /// The network namespace to watch does not exist.
  case namespaceNotFound(path: String)
  /// The network namespace exists but could not be entered.
  ///
  /// `errno` is the failing call's, or `ENOTTY` when the file is not a namespace at all (a regular file, a FIFO,
  /// a device or a directory: not on nsfs), or `EINVAL` when it is a namespace of another type (such as
  /// `/proc/PID/ns/mnt`).
  case namespaceNotEnterable(path: String, errno: Errno)
  /// The watched network namespace was deleted while it was being watched.
  ///
  /// For a path of the form `/proc/PID/ns/net`, it also means that process PID exited: the path no longer
  /// names the namespace (which may live on, held by other processes).
  case namespaceDeleted(path: String)
  /// No path arrived within the time allowed.
  case timedOut(Duration)
  /// The platform has no path source; pass one to ``NetworkMonitor/init(source:requiredInterfaceType:prohibitedInterfaceTypes:)``.
  case unsupportedPlatform(String)
  /// A path source failed for a reason of its own.
  case sourceFailed(String)
  /// A system call failed because a kernel limit on what the user may hold was reached.
  ///
  /// - Parameters:
  ///   - call: The call and its subject, for example `inotify_init1`.
  ///   - errno: The `errno` it returned (EMFILE, ENOSPC…, which alone would suggest another limit).
  ///   - limit: The limit that was reached, and so the one to raise.
  case limitReached(call: String, errno: Errno, limit: SystemLimit)

  /// A kernel limit that stops a monitor from starting once reached.
  public enum SystemLimit: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The inotify instances one user may hold, across all of the user's processes: the sysctl
    /// `fs.inotify.max_user_instances` (in a user namespace, also its `user.max_inotify_instances`). Each
    /// running monitor holds one instance. Reached, `inotify_init1` fails with EMFILE.
    case inotifyInstances
    /// The inotify watches one user may hold, across all of the user's processes: the sysctl
    /// `fs.inotify.max_user_watches` (in a user namespace, also its `user.max_inotify_watches`). Each running
    /// monitor watches a few folders. Reached, `inotify_add_watch` fails with ENOSPC.
    case inotifyWatches

    /// The sysctl that sets the limit: `fs.inotify.max_user_instances` or `fs.inotify.max_user_watches`.
    public var sysctl: String {
      switch self {
      case .inotifyInstances: "fs.inotify.max_user_instances"
      case .inotifyWatches: "fs.inotify.max_user_watches"
      }
    }

    /// The limit in words, with its sysctl.
    public var description: String {
      switch self {
      case .inotifyInstances: "the limit on inotify instances per user (\(sysctl))"
      case .inotifyWatches: "the limit on inotify watches per user (\(sysctl))"
      }
    }
  }

  /// What failed, with the errno's name and meaning when there is one, and what to do.
  public var description: String {
    let what: String
    switch self {
    case .systemCall(let call, let errno):
      what = "\(call) failed: \(errno)"
    case .namespaceNotFound(let path):
      what = "network namespace \(path) does not exist"
    case .namespaceNotEnterable(let path, .inappropriateIOControlOperation):
      what = "cannot enter network namespace \(path): it is not a namespace file (not on nsfs; ENOTTY)"
    case .namespaceNotEnterable(let path, let errno):
      what = "cannot enter network namespace \(path): \(errno)"
    case .namespaceDeleted(let path):
      if let pid = ProcessNamespacePath.processID(in: path) {
        what = "process \(pid) exited while its network namespace \(path) was watched"
      } else {
        what = "network namespace \(path) was deleted while it was watched"
      }
    case .timedOut(let duration):
      what = "no network path arrived within \(duration)"
    case .unsupportedPlatform(let platform):
      what = "NetStatus has no path source for \(platform)"
    case .sourceFailed(let reason):
      what = "the path source failed: \(reason)"
    case .limitReached(let call, let errno, let limit):
      what = "\(call) failed: \(errno): \(limit) was reached"
    }
    return "\(what). \(recoverySuggestion)"
  }

  /// What to do about the error.
  public var recoverySuggestion: String {
    switch self {
    case .systemCall(_, let errno):
      switch errno {
      case .notPermitted, .permissionDenied:
        return "Run with the needed privilege (root or CAP_SYS_ADMIN for namespaces), or check the sandbox."
      case .tooManyOpenFiles:
        return "The process has as many open descriptors as its limit allows: close some, or raise the limit "
          + "(RLIMIT_NOFILE: ulimit -n, or LimitNOFILE= in a systemd unit)."
      case .tooManyOpenFilesInSystem:
        return "The system has as many open files as its limit allows (fs.file-max): close some, or raise it."
      case .outOfMemory, .noBufferSpace:
        return "The system is short of memory; try again."
      case .addressFamilyNotSupported, .protocolNotSupported:
        return "The kernel does not offer rtnetlink here; NetStatus needs Linux with netlink sockets."
      default:
        return "Check the system's state and try again."
      }
    case .namespaceNotFound:
      return "Check the name with `ip netns list`, or give the full path of a namespace file."
    case .namespaceNotEnterable(_, let errno):
      if errno == .notPermitted || errno == .permissionDenied {
        return "Entering a namespace needs CAP_SYS_ADMIN: run as root."
      }
      return "Check that the path names a network namespace (a /run/netns entry or /proc/PID/ns/net)."
    case .namespaceDeleted(let path):
      if ProcessNamespacePath.processID(in: path) != nil {
        return "Watch the namespace of a running process (such as the container's new main process)."
      }
      return "Start the monitor again once the namespace exists."
    case .timedOut:
      return "Start the monitor first, or allow more time."
    case .unsupportedPlatform:
      return "Create the monitor with a PathSource, such as NetStatusTesting's ScriptedPathSource."
    case .sourceFailed:
      return "Restart the monitor."
    case .limitReached(_, _, let limit):
      let raise: String
      switch limit {
      case .inotifyInstances: raise = "sysctl -w fs.inotify.max_user_instances=1024"
      case .inotifyWatches: raise = "sysctl -w fs.inotify.max_user_watches=524288"
      }
      return "It counts what every process of the user holds, not this process's descriptors: stop monitors "
        + "or programs that use inotify and are no longer needed, or raise it as root (\(raise); in "
        + "/etc/sysctl.d to keep it)."
    }
  }
}
