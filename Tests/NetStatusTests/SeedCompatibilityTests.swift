import Foundation
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Testing

// Only `import NetStatus`, as the seed tutorials (and apps) write it: the whole API, the NotificationCenter part
// included, from the thin layer over NetStatusCore (Sources/NetStatus/NetStatus.swift).

@Suite("import NetStatus gives the whole API")
struct SeedCompatibilityTests {
  @Test("a path change is posted as .connectivityStatus on the main queue, with the path in userInfo")
  func notificationCenterAPI() async throws {
    let source = ScriptedPathSource([.connected(via: .wifi), .offline])
    let monitor = NetworkMonitor(source: source)
    #expect(monitor.postsNotifications)
    let notified = Recorder<NetworkPath>()
    let observer = NotificationCenter.default.addObserver(
      forName: .connectivityStatus, object: monitor, queue: nil
    ) { note in
      dispatchPrecondition(condition: .onQueue(.main))
      if let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath { notified.append(path) }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    #expect(Notification.Name.connectivityStatus.rawValue == "connectivityStatusChanged")
    #expect(NetworkMonitor.pathUserInfoKey == "path")

    monitor.startMonitoring()
    try await notified.waitFor(count: 1, "the first notification")
    #expect(source.advance())
    try await notified.waitFor(count: 2, "the second notification")
    monitor.stopMonitoring()
    #expect(notified.values == [.connected(via: .wifi), .offline])
  }
}
