import Dispatch
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
  /// Monitors post from the first use of this name in the process on (observing it uses it): a program that never
  /// names it observes nothing, and its monitors keep nothing for notifications.
  ///
  /// `connectivityStatus` is the tutorials' name (the seed tutorials' spelling), kept as public API so that code
  /// written from them compiles.
  ///
  /// ```swift
  /// NotificationCenter.default.addObserver(forName: .connectivityStatus, object: nil, queue: .main) { note in
  ///     let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath
  ///     print(path?.isConnected == true ? "Connected" : "Not connected")
  /// }
  /// ```
  public static let connectivityStatus: Notification.Name = {
    NetworkMonitor.installNotificationPoster(ConnectivityNotification.schedule)
    return Notification.Name(rawValue: "connectivityStatusChanged")
  }()
}

extension NetworkMonitor {
  /// The `userInfo` key under which ``Foundation/NSNotification/Name/connectivityStatus`` carries the new
  /// ``NetworkPath``: `"path"`.
  public static let pathUserInfoKey = "path"
}

/// Posts a monitor's changes for the core (Sources/NetStatusCore/Monitor/NotificationMailbox.swift).
enum ConnectivityNotification {
  /// Queues one block on the main queue to post the pending changes of `monitor`. The block holds the monitor
  /// weakly: a main queue that never runs must not keep a dropped monitor (its thread and descriptors) alive.
  @Sendable static func schedule(_ monitor: NetworkMonitor) {
    DispatchQueue.main.async { [weak monitor] in
      guard let monitor else { return }
      post(monitor.takePendingNotifications(), from: monitor)
    }
  }

  /// Posts the changes in order, on the main queue, where UI code can handle them.
  private static func post(_ paths: [NetworkPath], from monitor: NetworkMonitor) {
    for path in paths {
      NotificationCenter.default.post(
        name: .connectivityStatus,
        object: monitor,
        userInfo: [NetworkMonitor.pathUserInfoKey: path]
      )
    }
  }
}
