import Foundation

extension Notification.Name {
  /// Posted on the main queue each time a ``NetworkMonitor``'s path changes, while the monitor's
  /// ``NetworkMonitor/postsNotifications`` is `true` (the default).
  ///
  /// The notification's `object` is the monitor; `userInfo[NetworkMonitor.pathUserInfoKey]` is the new
  /// ``NetworkPath``. Read the path from `userInfo` rather than from the monitor: by the time the main
  /// queue runs the observer, the monitor may already hold a newer path. Changes still waiting for the main
  /// queue when their monitor is released are not posted.
  ///
  /// ```swift
  /// NotificationCenter.default.addObserver(forName: .connectivityStatus, object: nil, queue: .main) { note in
  ///     let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath
  ///     print(path?.isConnected == true ? "Connected" : "Not connected")
  /// }
  /// ```
  public static let connectivityStatus = Notification.Name(rawValue: "connectivityStatusChanged")
}

extension NetworkMonitor {
  /// The `userInfo` key under which ``Foundation/NSNotification/Name/connectivityStatus`` carries the new
  /// ``NetworkPath``: `"path"`.
  public static let pathUserInfoKey = "path"

  /// How many changes wait for the main queue at most (64); when it falls further behind, the oldest are
  /// dropped: its observers still get the newest path. See ``postsNotifications``.
  public static let maximumPendingNotifications = 64

  /// Queues one block on the main queue to post the pending changes. The block holds the monitor weakly: a
  /// main queue that never runs must not keep a dropped monitor (its thread and descriptors) alive.
  func schedulePendingNotifications() {
    DispatchQueue.main.async { [weak self] in
      self?.postPendingNotifications()
    }
  }

  /// Posts the pending changes in order, on the main queue, where UI code can handle them.
  private func postPendingNotifications() {
    let paths = state.withLockedValue { $0.notifications.takeAll() }
    for path in paths {
      NotificationCenter.default.post(
        name: .connectivityStatus,
        object: self,
        userInfo: [NetworkMonitor.pathUserInfoKey: path]
      )
    }
  }
}

/// The changes a monitor has yet to post as notifications, and whether a block to post them is queued: at most
/// one block per monitor waits on the main queue, however many changes happen before it runs.
struct NotificationMailbox {
  /// ``NetworkMonitor/postsNotifications``.
  var isEnabled = true {
    didSet { if !isEnabled { pending.removeAll() } }
  }
  private var pending: [NetworkPath] = []
  private var scheduled = false

  /// Adds a change to post. Returns whether the caller must queue the block that posts (none is queued yet).
  mutating func enqueue(_ path: NetworkPath) -> Bool {
    guard isEnabled else { return false }
    if pending.count == NetworkMonitor.maximumPendingNotifications { pending.removeFirst() }
    pending.append(path)
    guard !scheduled else { return false }
    scheduled = true
    return true
  }

  /// Takes the changes to post now; the next change queues a new block.
  mutating func takeAll() -> [NetworkPath] {
    scheduled = false
    defer { pending.removeAll() }
    return pending
  }
}
