// Apple platforms only (UIKit); compiled by CI for iOS against the stand-in SDK. See Examples/README.md.
//
// The table of the NetStatus tutorial (seed 003): section 0 the connection, section 1 the available interface
// types with the one in use marked, section 2 whether the path is expensive; a button starts and stops monitoring.
import NetStatus
import UIKit

final class NetStatusViewController: UITableViewController {
  /// A monitor of our own, so that this screen does not take over the handlers of `NetworkMonitor.shared`.
  private let monitor = NetworkMonitor()
  /// The path the table shows: the one the last handler call brought (`nil`: not known yet).
  private var path: NetworkPath?

  private enum Section: Int, CaseIterable {
    case connection, interfaces, cost
  }

  init() {
    super.init(style: .insetGrouped)
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    title = "NetStatus"
    tableView.register(UITableViewCell.self, forCellReuseIdentifier: "infoCell")
    // The button runs a closure, a `UIAction`, not a selector (`UIBarButtonItem(title:image:primaryAction:menu:)`,
    // iOS 14). The item takes the action's title when the action is set, so the action carries it too; the handlers
    // below change the item's own title afterwards.
    navigationItem.rightBarButtonItem = UIBarButtonItem(
      title: "Start Monitoring",
      primaryAction: UIAction(title: "Start Monitoring") { [weak self] _ in self?.toggleMonitoring() })

    // The handlers run on `monitor.handlerQueue`, the main queue: assume the main actor there.
    monitor.pathUpdateHandler = { [weak self] path in
      MainActor.assumeIsolated {
        self?.path = path
        self?.tableView.reloadData()
      }
    }
    monitor.didStartMonitoringHandler = { [weak self] in
      MainActor.assumeIsolated {
        self?.navigationItem.rightBarButtonItem?.title = "Stop Monitoring"
      }
    }
    monitor.didStopMonitoringHandler = { [weak self] in
      MainActor.assumeIsolated {
        self?.path = nil
        self?.navigationItem.rightBarButtonItem?.title = "Start Monitoring"
        self?.tableView.reloadData()
      }
    }
    monitor.startMonitoring()
  }

  private func toggleMonitoring() {
    if monitor.isMonitoring {
      monitor.stopMonitoring()
    } else {
      monitor.startMonitoring()
    }
  }

  // MARK: Table

  override func numberOfSections(in tableView: UITableView) -> Int {
    Section.allCases.count
  }

  override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
    switch Section(rawValue: section) {
    case .connection: return "Connection"
    case .interfaces: return "Available Interfaces"
    case .cost: return "Cost"
    case nil: return nil
    }
  }

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    Section(rawValue: section) == .interfaces ? (path?.availableInterfaceTypes.count ?? 0) : 1
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "infoCell", for: indexPath)
    var content = cell.defaultContentConfiguration()
    switch Section(rawValue: indexPath.section) {
    case .connection:
      if let path {
        // `requiresConnection` is not connected.
        content.text = path.isConnected ? "Connected" : "Not Connected"
        content.image = UIImage(systemName: path.isConnected ? "checkmark.circle" : "xmark.circle")
      } else {
        content.text = monitor.isMonitoring ? "Checking…" : "Not Monitoring"
        content.image = UIImage(systemName: "questionmark.circle")
      }
    case .interfaces:
      let types = path?.availableInterfaceTypes ?? []
      if indexPath.row < types.count {
        let type = types[indexPath.row]
        content.text = type.description
        // The interface in use is the path's first (preferred) one.
        content.image = type == path?.interfaceType ? UIImage(systemName: "checkmark") : nil
      }
    case .cost:
      let expensive = path?.isExpensive ?? false
      content.text = expensive ? "Expensive" : "Not Expensive"
      content.image = expensive ? UIImage(systemName: "exclamationmark.triangle") : nil
    case nil:
      break
    }
    cell.contentConfiguration = content
    cell.selectionStyle = .none
    return cell
  }
}
