import Foundation

extension Notification.Name {
  /// Posted on the main queue each time a ``NetworkMonitor``'s path changes, while the monitor's
  /// ``NetworkMonitor/postsNotifications`` is `true` (the default). A familiar name: the notification many
  /// reachability guides observe.
  ///
  /// The notification's `object` is the monitor; `userInfo[NetworkMonitor.pathUserInfoKey]` is the new
  /// ``NetworkPath``. Read the path from `userInfo` rather than from the monitor: by the time the main
  /// queue runs the observer, the monitor may already hold a newer path. Changes still waiting for the main
  /// queue when their monitor is released are not posted.
  ///
  /// Monitors post from the first use of this name in the process on (observing it uses it): a program that never
  /// names it observes nothing, and its monitors keep nothing for notifications.
  ///
  /// It is posted from the main queue, which must run: an app's does; a command-line tool runs it with an `async`
  /// main, `dispatchMain()` or `RunLoop.main.run()`. Observers on `.main`, on no queue or on a queue of their own each
  /// receive every change, whichever runs it.
  ///
  /// ```swift
  /// import Foundation
  /// import NetStatus
  ///
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

  /// How many changes wait for the main queue at most (64); when it falls further behind, the oldest are
  /// dropped: its observers still get the newest path. See ``postsNotifications``.
  public static let maximumPendingNotifications = NetworkMonitor.pendingNotificationLimit

  /// Whether path changes are posted as ``Foundation/NSNotification/Name/connectivityStatus`` on the main
  /// queue. `true` by default, so that an app's observers work without setting anything.
  ///
  /// Posting begins from the first use of that notification's name in the process on.
  ///
  /// Set it to `false` where nothing observes the notification, above all in a process that never runs the
  /// main queue (a server, a daemon, a command-line tool): a change then costs nothing more. Left on there,
  /// a monitor keeps at most one block waiting on the main queue (which does not keep the monitor alive) and
  /// at most ``maximumPendingNotifications`` paths for it. Turning it off drops the changes not posted yet.
  ///
  /// ```swift
  /// let monitor = NetworkMonitor()
  /// monitor.postsNotifications = false   // a daemon: no main run loop, no observers
  /// ```
  public var postsNotifications: Bool {
    get { keepsNotifications }
    set { keepsNotifications = newValue }
  }
}

/// Posts a monitor's changes for the core (Sources/NetStatusMonitor/Monitor/NotificationMailbox.swift).
enum ConnectivityNotification {
  /// Queues one operation on the main operation queue to post the pending changes of `monitor`. The operation holds
  /// the monitor weakly: a main queue that never runs must not keep a dropped monitor (its thread and descriptors)
  /// alive.
  ///
  /// An operation of `OperationQueue.main`, not a block of `DispatchQueue.main`: `NotificationCenter.post` hands an
  /// observer whose queue is not `OperationQueue.current` to that queue and waits for it to finish. Inside a block of
  /// the main dispatch queue, swift-corelibs-foundation's `OperationQueue.current` is `.main` only on the main thread,
  /// and under `dispatchMain()` or an `async` main another thread drains that queue: a post there waited for the main
  /// queue from the main queue, for ever. Inside an operation of `OperationQueue.main`, `.main` is current on any
  /// thread, so observers on `.main` (or with no queue) run in place.
  @Sendable static func schedule(_ monitor: NetworkMonitor) {
    OperationQueue.main.addOperation { [weak monitor] in
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
