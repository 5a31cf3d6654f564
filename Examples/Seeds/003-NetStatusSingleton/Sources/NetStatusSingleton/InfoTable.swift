import NetStatus

/// The tutorial's view controller: a table of three sections (connected or not; the available interface types, the
/// one in use marked; expensive or not) and a button that starts and stops monitoring.
///
/// The tutorial's singleton becomes `NetworkMonitor.shared`, which has its names (`startMonitoring()`,
/// `stopMonitoring()`, `isMonitoring`, `netStatusChangeHandler`, `didStartMonitoringHandler`,
/// `didStopMonitoringHandler`, `isConnected`, `interfaceType`, `availableInterfaceTypes`, `isExpensive`). Its handlers
/// run on the main queue, so the table reloads there without `DispatchQueue.main.async`, and a stopped monitor can
/// be started again.
@MainActor
final class InfoTable {
  private let status = NetworkMonitor.shared
  private(set) var buttonTitle = "Start Monitoring"

  func viewDidLoad() {
    status.didStartMonitoringHandler = { [weak self] in
      MainActor.assumeIsolated { self?.setButtonTitle("Stop Monitoring") }
    }
    status.didStopMonitoringHandler = { [weak self] in
      MainActor.assumeIsolated {
        self?.setButtonTitle("Start Monitoring")
        self?.reloadData()
      }
    }
    status.netStatusChangeHandler = { [weak self] in
      MainActor.assumeIsolated { self?.reloadData() }
    }
  }

  /// The tutorial's `toggleMonitoring(_:)`.
  func toggleMonitoring() {
    if !status.isMonitoring {
      status.startMonitoring()
    } else {
      status.stopMonitoring()
    }
  }

  private func setButtonTitle(_ title: String) {
    buttonTitle = title
    print("button: \(title)")
  }

  /// The three sections, on one line.
  private func reloadData() {
    let connected = status.isConnected ? "Connected" : "Not Connected"
    let current = status.interfaceType
    let interfaces = status.availableInterfaceTypes.map { type in type == current ? "\(type) ✓" : "\(type)" }
    let expensive = status.isExpensive ? "Expensive" : "Not Expensive"
    print(
      "table: \(connected) | \(interfaces.isEmpty ? "no interface" : interfaces.joined(separator: ", ")) | \(expensive)"
    )
  }
}
