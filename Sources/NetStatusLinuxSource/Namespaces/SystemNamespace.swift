#if os(Linux)
  import NetStatusSystem
  import Glibc

  /// Whether the process runs in the network namespace the system's network managers manage.
  ///
  /// NetworkManager and systemd-networkd manage the network namespace of the system's manager, PID 1 (the host's,
  /// or a container's own when the container runs them). A process moved into another namespace with `ip netns
  /// exec` or `unshare --net` still sees the same `/run` and system bus: their interface indexes and names there
  /// describe other links than its own, so their state must not be applied to its paths. Their state is applied only
  /// where the namespace is shown to be PID 1's (``Relation/same``); when it cannot be told (``Relation/unknown``) it
  /// is not, and the diagnostics say so. ARCHITECTURE.md, "Kernel and platform facts".
  package enum SystemNamespace {
    /// A namespace file's identity: its device and inode.
    struct Identity: Equatable {
      var device: UInt64
      var inode: UInt64
    }

    /// How the process's own network namespace relates to PID 1's.
    package enum Relation: Equatable {
      /// The same namespace: the managers' state describes the process's links.
      case same
      /// Another namespace.
      case other
      /// Neither check could be made (`/proc/1/ns/net` and `/proc/1/net/netlink` both unreadable).
      case unknown
    }

    /// How the process's own network namespace relates to PID 1's, decided once per process (``decide()``).
    package static let own: Relation = decide()

    /// Whether the process's own network namespace is shown to be PID 1's.
    static var ownIsSystems: Bool { own == .same }

    /// Whether the system bus's NetworkManager speaks for the process's own namespace: it runs in PID 1's, or the
    /// user named a bus (`DBUS_SYSTEM_BUS_ADDRESS`), which says whose NetworkManager to ask. The one rule for both
    /// its metered view (the default path source) and its connectivity (``ConnectivityMonitor``).
    package static var followsSystemNetworkManager: Bool {
      ownIsSystems || getenv("DBUS_SYSTEM_BUS_ADDRESS") != nil
    }

    /// Why the system bus's NetworkManager is not followed for a monitor: of a namespace given by name
    /// (`namespaceGiven`), or of the process's own, whose relation to PID 1's is `relation` (``Relation/other`` or
    /// ``Relation/unknown``: ``followsSystemNetworkManager`` is false). Pure.
    package static func networkManagerNotFollowed(namespaceGiven: Bool, relation: Relation) -> String {
      if namespaceGiven { return "the monitor watches another network namespace than the one NetworkManager manages" }
      switch relation {
      case .unknown:
        return "this process's network namespace cannot be shown to be the one NetworkManager manages (PID 1's: "
          + "/proc/1/ns/net and /proc/1/net/netlink unreadable)"
      case .same, .other:
        return "this process's network namespace is not the one NetworkManager manages (PID 1's)"
      }
    }

    /// Two checks, the first that can be made:
    /// 1. The nsfs identities of `/proc/self/ns/net` and `/proc/1/ns/net` compared. Reading PID 1's needs ptrace
    ///    access to it: root, and not in every container or sandbox.
    /// 2. Without privileges: a netlink socket is made and bound, and looked for by its inode in
    ///    `/proc/1/net/netlink`, which lists the bound netlink sockets of PID 1's namespace and which any user may
    ///    read (unless `/proc` is mounted with `hidepid`). The socket is there exactly when the process shares that
    ///    namespace.
    static func decide() -> Relation {
      let first = relation(own: identity(of: "/proc/self/ns/net"), system: identity(of: "/proc/1/ns/net"))
      guard first == .unknown else { return first }
      return relation(socketListed: ownSocketIsListed(in: "/proc/1/net/netlink"))
    }

    /// The first check, pure: unknown unless both identities are known.
    static func relation(own: Identity?, system: Identity?) -> Relation {
      guard let own, let system else { return .unknown }
      return own == system ? .same : .other
    }

    /// The second check, pure: whether the own socket is in PID 1's list, `nil` when the list cannot be read.
    static func relation(socketListed: Bool?) -> Relation {
      socketListed.map { $0 ? .same : .other } ?? .unknown
    }

    /// Whether a netlink socket bound here appears in the socket list at `path` (`/proc/PID/net/netlink`), or `nil`
    /// when the socket cannot be made or the list read.
    static func ownSocketIsListed(in path: String) -> Bool? {
      guard let socket = try? NetlinkSocket.open(receiveBufferSize: 4096, groups: 0) else { return nil }
      var info = stat()
      guard fstat(socket.fd, &info) == 0 else { return nil }
      // A busy host has a few thousand netlink sockets, about 100 bytes a line. Read while the socket is open.
      let text = LocalFile.readText(path, limit: 16 << 20)
      socket.close()
      guard let text else { return nil }
      return listsSocket(text, inode: UInt64(info.st_ino))
    }

    /// Whether the text of a `/proc/PID/net/netlink` lists the socket with inode `inode` (the last column). Pure.
    static func listsSocket(_ text: String, inode: UInt64) -> Bool {
      let wanted = Substring(String(inode))
      return text.split(separator: "\n").dropFirst().contains { line in
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last == wanted
      }
    }

    /// The identity of the namespace file at `path` (`stat(2)` follows the magic link to the nsfs inode), or `nil`.
    static func identity(of path: String) -> Identity? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
  }
#endif
