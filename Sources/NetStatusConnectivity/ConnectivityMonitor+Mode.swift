extension ConnectivityMonitor {
  /// Where the state comes from, for the monitor's whole life.
  enum Mode {
    /// Checks of its own with this probe, when the scheduler says.
    case probing(ConnectivityProbe, ConnectivityScheduler)
    /// NetworkManager's connectivity (``ConnectivitySource/networkManager``).
    case networkManager(NetworkManagerConnectivity)
    /// Another connectivity monitor's states, settled (``settled(offlineAfter:onlineAfter:clock:)``).
    case settled(SettledConnectivity)
  }
}

// The mode's parts, for the code of one mode (ConnectivityMonitor+NetworkManager.swift,
// ConnectivityMonitor+Settled.swift): each reads and updates its own, and does nothing in another mode.
extension ConnectivityMonitor.State {
  /// What the NetworkManager mode keeps; `nil` in another mode, where setting it does nothing.
  var networkManager: NetworkManagerConnectivity? {
    get {
      guard case .networkManager(let follower) = mode else { return nil }
      return follower
    }
    set {
      guard let newValue, case .networkManager = mode else { return }
      mode = .networkManager(newValue)
    }
  }

  /// What the settled mode keeps; `nil` in another mode, where setting it does nothing.
  var settled: SettledConnectivity? {
    get {
      guard case .settled(let settled) = mode else { return nil }
      return settled
    }
    set {
      guard let newValue, case .settled = mode else { return }
      mode = .settled(newValue)
    }
  }
}
