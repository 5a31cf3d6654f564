import Foundation

extension Notification.Name {
  /// Posted on the main queue each time a ``NetworkMonitor``'s path changes.
  ///
  /// The notification's `object` is the monitor; `userInfo[NetworkMonitor.pathUserInfoKey]` is the new
  /// ``NetworkPath``. Read the path from `userInfo` rather than from the monitor: by the time the main
  /// queue runs the observer, the monitor may already hold a newer path.
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

  /// Posts the change on the main queue, where UI code can handle it.
  func postConnectivityNotification(_ path: NetworkPath) {
    DispatchQueue.main.async {
      NotificationCenter.default.post(
        name: .connectivityStatus,
        object: self,
        userInfo: [NetworkMonitor.pathUserInfoKey: path]
      )
    }
  }
}
