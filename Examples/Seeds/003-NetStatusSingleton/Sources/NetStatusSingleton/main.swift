// Seed 003 with NetStatus: the table and its start/stop button (the driver's `tap`), on a main queue run by
// RunLoop.main.run(), as an app's main thread runs it.
import Foundation
import SeedHarness

let table = MainActor.assumeIsolated { InfoTable() }
MainActor.assumeIsolated {
  table.viewDidLoad()
  table.toggleMonitoring()
}
Harness.start(onTap: { table.toggleMonitoring() })
RunLoop.main.run()
