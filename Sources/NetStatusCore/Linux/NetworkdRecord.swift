#if os(Linux)
  import Glibc
  import Synchronization

  /// What a ``NetlinkPathSource`` shares with its sessions about systemd-networkd: the status its sessions read
  /// (``NetworkdStatus``), and for tests a closure told of every new status.
  final class NetworkdRecord: Sendable {
    private struct State {
      var status: NetworkdStatus
      var observer: (@Sendable (NetworkdStatus) -> Void)?
    }
    private let state: Mutex<State>

    /// The default root: `NETSTATUS_NETWORKD_ROOT` when set (a testing and diagnostic knob, README "Testing"),
    /// else `/run/systemd/netif` for the process's own namespace and none for another: networkd manages the host's
    /// links, and its files say nothing about another namespace's.
    static func defaultRoot(ownNamespace: Bool) -> String? {
      if let value = getenv("NETSTATUS_NETWORKD_ROOT"), value.pointee != 0 { return String(cString: value) }
      return ownNamespace ? "/run/systemd/netif" : nil
    }

    init(root: String?, observer: (@Sendable (NetworkdStatus) -> Void)?) {
      state = Mutex(
        State(
          status: NetworkdStatus(root: root, use: root == nil ? .otherNamespace : .notStarted),
          observer: observer))
    }

    var status: NetworkdStatus { state.withLock { $0.status } }

    /// Records a new status, and tells the observer (outside the lock) when it changed.
    func update(_ status: NetworkdStatus) {
      let observer = state.withLock { state -> (@Sendable (NetworkdStatus) -> Void)? in
        guard state.status != status else { return nil }
        state.status = status
        return state.observer
      }
      observer?(status)
    }
  }
#endif
