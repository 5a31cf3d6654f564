#if canImport(NetStatusSystem)
  import NetStatusSystem
#endif

/// Whether a path source uses systemd-networkd's per-link state, why not, and what it read: the diagnostics of the
/// networkd integration (`NetlinkPathSource.networkd` on Linux).
///
/// ```swift
/// let source = NetlinkPathSource()
/// let monitor = NetworkMonitor(source: source)
/// monitor.start()
/// switch source.networkd.use {
/// case .inUse: print("networkd manages \(source.networkd.links.count) links")
/// case let other: print("networkd not used: \(other)")
/// }
/// ```
package struct NetworkdStatus: Sendable, Hashable {
  /// Whether the state files are read.
  package enum Use: Sendable, Hashable, CustomStringConvertible {
    /// The source is not running, so nothing is read.
    case notStarted
    /// The source watches another network namespace than the process's own: networkd manages the host's links,
    /// and its files say nothing about another namespace's (unless a root was configured explicitly).
    case otherNamespace
    /// The source watches the process's own network namespace, but it cannot be shown to be the one networkd
    /// manages (PID 1's): `/proc/1/ns/net` and `/proc/1/net/netlink` are both unreadable (`/proc` mounted with
    /// `hidepid`, some sandboxes). networkd's files may describe another namespace's links, so they are not read.
    case namespaceUnverified
    /// The folder of per-link files (`ROOT/links`) does not exist: networkd is not running (or never ran since
    /// boot). It is watched: when networkd starts and makes it, its files are read.
    case folderMissing
    /// The folder exists, but networkd does not run: its files are left from an earlier run (or its package made
    /// the folder), so they are not read. The folder and systemd's record of running units are watched: when networkd
    /// starts, its files are read.
    case notRunning
    /// The folder exists but cannot be read (`errno`, as the C library names it: `EACCES`…).
    case unreadable(errno: Int32)
    /// The folder is read and watched; ``NetworkdStatus/links`` holds what it says.
    case inUse

    /// `not started`, `other namespace`, `namespace unverified`, `folder missing`, `not running`, `unreadable: EACCES
    /// (Permission denied)`, `in use`.
    package var description: String {
      switch self {
      case .notStarted: "not started"
      case .otherNamespace: "other namespace"
      case .namespaceUnverified: "namespace unverified"
      case .folderMissing: "folder missing"
      case .notRunning: "not running"
      case .unreadable(let code): "unreadable: \(Errno.describe(code))"
      case .inUse: "in use"
      }
    }
  }

  /// The folder read (`/run/systemd/netif` by default), or `nil` when none is (``Use/otherNamespace``,
  /// ``Use/namespaceUnverified``).
  package var root: String?
  /// Whether the files are read, or why not.
  package var use: Use
  /// The state of each link networkd has a file for, by interface index (empty unless ``Use/inUse``).
  package var links: [Int32: NetworkdLinkState]

  /// Creates a status.
  package init(root: String?, use: Use, links: [Int32: NetworkdLinkState] = [:]) {
    self.root = root
    self.use = use
    self.links = links
  }
}
