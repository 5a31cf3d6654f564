#if os(Linux)
  import NetStatusSystem
  import Glibc

  /// Whether the process runs in the network namespace the system's network managers manage.
  ///
  /// NetworkManager and systemd-networkd manage the network namespace of the system's manager, PID 1 (the host's,
  /// or a container's own when the container runs them). A process moved into another namespace with `ip netns
  /// exec` or `unshare --net` still sees the same `/run` and system bus: their interface indexes and names there
  /// describe other links than its own, so their state must not be applied to its paths. ARCHITECTURE.md,
  /// "Kernel and platform facts".
  enum SystemNamespace {
    /// A namespace file's identity: its device and inode.
    struct Identity: Equatable {
      var device: UInt64
      var inode: UInt64
    }

    /// Whether the process's own network namespace is PID 1's, decided once per process. `true` also when PID 1's
    /// cannot be read (`/proc/1/ns/net` needs ptrace access to PID 1: an unprivileged user, or a sandbox that hides
    /// it): the process's own namespace is then the best guess, as it was before this check.
    static let ownIsSystems: Bool = isSystems(
      own: identity(of: "/proc/self/ns/net"), system: identity(of: "/proc/1/ns/net"))

    /// Whether the system bus's NetworkManager speaks for the process's own namespace: it runs in PID 1's, or the
    /// user named a bus (`DBUS_SYSTEM_BUS_ADDRESS`), which says whose NetworkManager to ask. The one rule for both
    /// its metered view (the default path source) and its connectivity (``ConnectivityMonitor``).
    static var followsSystemNetworkManager: Bool {
      ownIsSystems || getenv("DBUS_SYSTEM_BUS_ADDRESS") != nil
    }

    /// The decision, pure: different only when both identities are known and differ.
    static func isSystems(own: Identity?, system: Identity?) -> Bool {
      guard let own, let system else { return true }
      return own == system
    }

    /// The identity of the namespace file at `path` (`stat(2)` follows the magic link to the nsfs inode), or `nil`.
    static func identity(of path: String) -> Identity? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
  }
#endif
