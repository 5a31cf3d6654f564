// How a module above the monitor (the NetStatus module's NotificationCenter poster,
// Sources/NetStatus/ConnectivityNotification.swift) keeps something of its own for each monitor, and reaches the
// monitors it did not create: the monitor knows neither what the companion is nor what it does with the paths it
// subscribes to.

/// An object a module above keeps for each monitor, at most one of each type per monitor: made on first use by
/// ``NetworkMonitor/companion(_:)`` and released with the monitor. It must hold the monitor weakly.
package protocol NetworkMonitorCompanion: AnyObject, Sendable {
  /// Makes the companion of `monitor`, which it holds weakly. Called without any of the monitor's locks held.
  init(monitor: NetworkMonitor)
}

extension NetworkMonitor {
  /// The monitor's companion of the given type, made now if it has none.
  package func companion<Companion: NetworkMonitorCompanion>(_ type: Companion.Type) -> Companion {
    let key = ObjectIdentifier(type)
    if let existing = state.withLockedValue({ $0.companions[key] }) { return existing as! Companion }
    // Made outside the lock (its initializer is the module's code); of two made at once, the first stored is kept.
    let made = Companion(monitor: self)
    let kept = state.withLockedValue { state in
      if let existing = state.companions[key] { return existing }
      state.companions[key] = made
      return made
    }
    return kept as! Companion
  }

  /// Calls `attach` with every monitor of the process: each one alive now, then each new one when it has been
  /// created. `attach` runs on the caller's thread, without any lock held; it is never removed.
  package static func attachToEveryMonitor(_ attach: @escaping @Sendable (NetworkMonitor) -> Void) {
    let alive = liveMonitors.withLockedValue { live -> [NetworkMonitor] in
      live.attachers.append(attach)
      return live.monitors.values.compactMap(\.monitor)
    }
    for monitor in alive { attach(monitor) }
  }

  /// Records a new monitor and runs the attachers on it: the last step of its initializer.
  func joinLiveMonitors() {
    let attachers = liveMonitors.withLockedValue { live in
      live.monitors[ObjectIdentifier(self)] = LiveMonitors.Entry(monitor: self)
      return live.attachers
    }
    for attach in attachers { attach(self) }
  }

  /// Forgets a monitor that is going: called by its `deinit`.
  func leaveLiveMonitors() {
    liveMonitors.withLockedValue { live in _ = live.monitors.removeValue(forKey: ObjectIdentifier(self)) }
  }
}

/// The monitors alive in the process, held weakly, and what ``NetworkMonitor/attachToEveryMonitor(_:)`` runs on
/// each: read and changed only when a monitor is made or released, or an attacher added, never on a change.
struct LiveMonitors {
  struct Entry {
    weak var monitor: NetworkMonitor?
  }

  var monitors: [ObjectIdentifier: Entry] = [:]
  var attachers: [@Sendable (NetworkMonitor) -> Void] = []
}

/// A `Locked`, not a `Mutex`: this file is compiled on Apple platforms too, where Synchronization's types need iOS 18
/// and macOS 15, above NetStatus's deployment targets (Sources/NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift).
private let liveMonitors = Locked(LiveMonitors())
