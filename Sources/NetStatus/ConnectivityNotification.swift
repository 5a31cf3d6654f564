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
  /// When the monitor's ``NetworkMonitor/handlerQueue`` is the main queue (the default), a change's
  /// ``NetworkMonitor/pathUpdateHandler`` runs before its notification is posted: an observer that reads state the
  /// handler keeps, as the tutorials' screens do, finds the change there.
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
    NetworkMonitor.attachToEveryMonitor { $0.companion(ConnectivityNotificationPoster.self).attach() }
    return Notification.Name(rawValue: "connectivityStatusChanged")
  }()
}

extension NetworkMonitor {
  /// The `userInfo` key under which ``Foundation/NSNotification/Name/connectivityStatus`` carries the new
  /// ``NetworkPath``: `"path"`.
  public static let pathUserInfoKey = "path"

  /// How many changes wait for the main queue at most (64); when it falls further behind, the oldest are
  /// dropped: its observers still get the newest path. See ``postsNotifications``.
  public static let maximumPendingNotifications = 64

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
    get { companion(ConnectivityNotificationPoster.self).isEnabled }
    set { companion(ConnectivityNotificationPoster.self).isEnabled = newValue }
  }
}

/// Posts one monitor's changes as ``Foundation/NSNotification/Name/connectivityStatus``: an ordinary subscriber of
/// the monitor (a callback that does not start it), subscribed while the name has been used and
/// ``NetworkMonitor/postsNotifications`` is on. It keeps the changes the main queue has yet to post, in order, and
/// at most one operation waiting there, however many changes happen before it runs.
final class ConnectivityNotificationPoster: NetworkMonitorCompanion {
  private struct State {
    /// ``NetworkMonitor/postsNotifications``.
    var isEnabled = true
    /// The name has been used: the poster subscribes while it is enabled.
    var isAttached = false
    /// The subscription to the monitor, while there is one.
    var subscription: UInt64?
    /// The version of the newest change kept: callbacks run outside the monitor's lock, so an older one can come
    /// after a newer one.
    var version: UInt64 = 0
    var pending: [NetworkPath] = []
    /// An operation waits on the main queue to post `pending`.
    var scheduled = false
  }

  private weak let monitor: NetworkMonitor?
  /// Taken before the monitor's own lock, never after: subscribing and unsubscribing run under it, so that they
  /// happen in the order the settings changed. The monitor calls the subscription's callback with no lock held.
  private let state = Locked(State())

  init(monitor: NetworkMonitor) {
    self.monitor = monitor
  }

  var isEnabled: Bool {
    get { state.withLockedValue { $0.isEnabled } }
    set {
      state.withLockedValue { state in
        state.isEnabled = newValue
        if !newValue { state.pending.removeAll() }
        update(&state)
      }
    }
  }

  /// The notification's name has been used: post from now on, while enabled.
  func attach() {
    state.withLockedValue { state in
      state.isAttached = true
      update(&state)
    }
  }

  /// Subscribes or unsubscribes as the settings now say.
  private func update(_ state: inout State) {
    guard let monitor else { return }
    let wanted = state.isEnabled && state.isAttached
    if wanted, state.subscription == nil {
      state.subscription =
        monitor.addCallbackSubscriber({ [self] path, version in keep(path, version: version) }, startsHost: false).id
    } else if !wanted, let subscription = state.subscription {
      monitor.removeSubscriber(subscription)
      state.subscription = nil
    }
  }

  /// A change of the monitor: kept for the main queue, which is asked to post once per batch.
  private func keep(_ path: NetworkPath, version: UInt64) {
    let schedules = state.withLockedValue { state -> Bool in
      guard state.isEnabled, version > state.version else { return false }
      state.version = version
      if state.pending.count == NetworkMonitor.maximumPendingNotifications { state.pending.removeFirst() }
      state.pending.append(path)
      guard !state.scheduled else { return false }
      state.scheduled = true
      return true
    }
    if schedules { schedule() }
  }

  /// Queues one operation on the main operation queue to post the pending changes. The operation holds the monitor
  /// weakly: a main queue that never runs must not keep a dropped monitor (its thread and descriptors) alive.
  ///
  /// An operation of `OperationQueue.main`, not a block of `DispatchQueue.main`: `NotificationCenter.post` hands an
  /// observer whose queue is not `OperationQueue.current` to that queue and waits for it to finish. Inside a block of
  /// the main dispatch queue, swift-corelibs-foundation's `OperationQueue.current` is `.main` only on the main thread,
  /// and under `dispatchMain()` or an `async` main another thread drains that queue: a post there waited for the main
  /// queue from the main queue, for ever. Inside an operation of `OperationQueue.main`, `.main` is current on any
  /// thread, so observers on `.main` (or with no queue) run in place.
  private func schedule() {
    OperationQueue.main.addOperation { [self, weak monitor] in
      let paths = state.withLockedValue { state -> [NetworkPath] in
        state.scheduled = false
        defer { state.pending.removeAll() }
        return state.pending
      }
      guard let monitor else { return }
      for path in paths {
        NotificationCenter.default.post(
          name: .connectivityStatus, object: monitor, userInfo: [NetworkMonitor.pathUserInfoKey: path])
      }
    }
  }
}
