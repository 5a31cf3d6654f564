#if os(Linux)
  import NetStatusSystem
  import Glibc
  import Synchronization

  /// What a ``NetlinkPathSource`` shares with its sessions about systemd-networkd: the status its sessions read
  /// (``NetworkdStatus``), and for tests a closure told of every new status.
  final class NetworkdRecord: Sendable {
    private struct State {
      var status: NetworkdStatus
      var observer: (@Sendable (NetworkdStatus) -> Void)?
      /// The session whose reading the status is: the latest one to report (session IDs grow). A stopped monitor's
      /// session may end after its next one started; what it reports then is dropped.
      var session: UInt64?
    }
    private let state: Mutex<State>

    /// The default root: `/run/systemd/netif` for the process's own namespace and none for another: networkd manages
    /// the host's links, and its files say nothing about another namespace's. Never read from the environment: a host
    /// app's environment must not redirect the library (tests and `netstatus --networkd-root` pass a root instead).
    static func defaultRoot(ownNamespace: Bool) -> String? {
      // networkd manages PID 1's namespace; a process moved out of it (`ip netns exec`) shares its /run but not its
      // links (SystemNamespace.swift), unless a networkd of its own runs beside it, in the same network and mount
      // namespaces (a container's, or a test's entered with nsenter).
      guard ownNamespace else { return nil }
      return SystemNamespace.ownIsSystems || NetworkdProcess.runsInOwnNamespaces() ? "/run/systemd/netif" : nil
    }

    /// Why no root is read when ``defaultRoot(ownNamespace:)`` gives none: another namespace, or the own one when it
    /// cannot be shown to be PID 1's.
    static func unusedReason(ownNamespace: Bool) -> NetworkdStatus.Use {
      ownNamespace && SystemNamespace.own == .unknown ? .namespaceUnverified : .otherNamespace
    }

    init(root: String?, unused: NetworkdStatus.Use = .otherNamespace, observer: (@Sendable (NetworkdStatus) -> Void)?) {
      state = Mutex(
        State(
          status: NetworkdStatus(root: root, use: root == nil ? unused : .notStarted),
          observer: observer))
    }

    var status: NetworkdStatus { state.withLockedValue { $0.status } }

    /// Records what session `session` read, and tells the observer (outside the lock) when it changed. A session
    /// older than the one that reported last is not heard.
    func update(_ status: NetworkdStatus, session: UInt64) {
      let observer = state.withLockedValue { state -> (@Sendable (NetworkdStatus) -> Void)? in
        guard state.session.map({ $0 <= session }) ?? true else { return nil }
        state.session = session
        guard state.status != status else { return nil }
        state.status = status
        return state.observer
      }
      observer?(status)
    }

    /// Session `session` ended: nothing is read any more, unless a newer session reads it.
    func end(session: UInt64) {
      let ended = state.withLockedValue { state -> (NetworkdStatus, (@Sendable (NetworkdStatus) -> Void)?)? in
        guard state.session == session else { return nil }
        state.session = nil
        let status = NetworkdStatus(root: state.status.root, use: .notStarted)
        guard state.status != status else { return nil }
        state.status = status
        return (status, state.observer)
      }
      if let (status, observer) = ended { observer?(status) }
    }
  }
#endif
