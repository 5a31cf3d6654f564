// Seed 000 with NetStatus: the shared monitor, started once when the app launches, and a screen that follows the
// `.connectivityStatus` notification on the main queue.
import Foundation
import NetStatus
import SeedHarness

// The app delegate's part: start the shared monitor once. A handler that keeps state, as the tutorial's does,
// runs on the main queue (handlerQueue), so reading that state from the screen needs no lock.
let monitor = NetworkMonitor.shared
monitor.pathUpdateHandler = { path in
  print("handler: \(path.isConnected ? "online" : "offline")")
}
do {
  try monitor.start()
} catch {
  print("cannot monitor the network: \(error)")
  exit(1)
}

let screen = MainActor.assumeIsolated { StatusScreen() }
MainActor.assumeIsolated { screen.viewDidLoad() }

Harness.start()
dispatchMain()
