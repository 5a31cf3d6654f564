import Foundation
import NetStatus

/// The tutorial's view controller: shows an offline state while the device is not connected, and says over which
/// kind of interface it is and whether that is expensive.
///
/// Unlike the tutorial, it reads the path a notification carries (the monitor may already hold a newer one when
/// the main queue gets to the observer), shows the path already known when it appears (the first notification
/// may have been posted before the screen existed), and treats "not known yet" as neither online nor offline.
@MainActor
final class StatusScreen {
  private var observer: (any NSObjectProtocol)?
  private var shown: NetworkPath?
  private(set) var isOfflineBannerShown = false

  func viewDidLoad() {
    if let path = NetworkMonitor.shared.currentPath { show(path) }
    // Observed on the main queue, where a screen is updated; with NetStatus this works in a Linux program too,
    // whatever runs its main queue (dispatchMain() here).
    observer = NotificationCenter.default.addObserver(forName: .connectivityStatus, object: nil, queue: .main) {
      [weak self] note in
      guard let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath else { return }
      MainActor.assumeIsolated { self?.show(path) }
    }
  }

  private func show(_ path: NetworkPath) {
    guard path != shown else { return }
    shown = path
    isOfflineBannerShown = !path.isConnected
    if path.isConnected {
      let type = path.interfaceType.map { "\($0)" } ?? "no interface"
      let interfaces = path.availableInterfaces.map(\.name).joined(separator: " ")
      print("Connected via \(type) (\(interfaces)), expensive: \(path.isExpensive ? "yes" : "no"); banner hidden")
    } else {
      print("Not connected; offline banner shown")
    }
  }
}
