// The core of the NotificationCenter API without Foundation: which changes wait to be posted, and the hook through
// which the NetStatus module (Sources/NetStatus/ConnectivityNotification.swift) posts them. Without that module,
// nothing is posted and nothing waits.

extension NetworkMonitor {
  /// How many changes wait for the main queue at most (64); when it falls further behind, the oldest are
  /// dropped: its observers still get the newest path. The NetStatus module publishes it as
  /// `maximumPendingNotifications`.
  package static let pendingNotificationLimit = 64

  /// Whether path changes are kept for the poster (the NetStatus module's `postsNotifications`). Turning it off
  /// drops the changes not posted yet.
  package var keepsNotifications: Bool {
    get { state.withLockedValue { $0.notifications.isEnabled } }
    set { state.withLockedValue { $0.notifications.isEnabled = newValue } }
  }

  /// Installs the poster of notifications, once per process: called with a monitor whenever it has changes to post
  /// and no call is pending (see ``NotificationMailbox``); it takes them with ``takePendingNotifications()``.
  /// Later installs are ignored. Until one is installed, monitors keep no changes for notifications.
  package static func installNotificationPoster(_ poster: @escaping @Sendable (NetworkMonitor) -> Void) {
    notificationPoster.withLockedValue { installed in
      guard installed == nil else { return }
      installed = poster
    }
  }

  /// Takes the changes to post now, oldest first; the next change calls the poster again.
  package func takePendingNotifications() -> [NetworkPath] {
    state.withLockedValue { $0.notifications.takeAll() }
  }

  /// Calls the installed poster for this monitor.
  func schedulePendingNotifications() {
    notificationPoster.withLockedValue { $0 }?(self)
  }
}

/// The poster ``NetworkMonitor/installNotificationPoster(_:)`` installed, if any. A `Locked`, not a `Mutex` and an
/// `Atomic`: this file is compiled on Apple platforms too, where Synchronization's types need iOS 18 and macOS 15,
/// above NetStatus's deployment targets (Sources/NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift).
private let notificationPoster = Locked<(@Sendable (NetworkMonitor) -> Void)?>(nil)

/// The changes a monitor has yet to post as notifications, and whether a call of the poster is pending: at most
/// one call per monitor waits (on the main queue), however many changes happen before it runs.
struct NotificationMailbox {
  /// ``NetworkMonitor/keepsNotifications``.
  var isEnabled = true {
    didSet { if !isEnabled { pending.removeAll() } }
  }
  private var pending: [NetworkPath] = []
  private var scheduled = false

  /// Adds a change to post, if notifications are on and a poster is installed. Returns whether the caller must call
  /// the poster (no call is pending yet).
  mutating func enqueue(_ path: NetworkPath) -> Bool {
    guard isEnabled, notificationPoster.withLockedValue({ $0 != nil }) else { return false }
    if pending.count == NetworkMonitor.pendingNotificationLimit { pending.removeFirst() }
    pending.append(path)
    guard !scheduled else { return false }
    scheduled = true
    return true
  }

  /// Takes the changes to post now; the next change calls the poster again.
  mutating func takeAll() -> [NetworkPath] {
    scheduled = false
    defer { pending.removeAll() }
    return pending
  }
}
