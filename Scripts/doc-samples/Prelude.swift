// The app's own code that the documentation's samples call (Scripts/check-doc-samples.py compiles every sample with
// this file; CONTRIBUTING.md, "Code samples in the docs"). Declarations only: nothing here runs. A name belongs here
// when a sample uses it as the reader's code would (their download, their banner); a sample that shows NetStatus's
// API declares what it uses itself.
import Foundation
import NetStatus

/// The monitor most samples observe.
let monitor = NetworkMonitor.shared

/// The app's banner, shown while offline.
@MainActor final class Banner {
  var isHidden = true
}

/// The app's banner, shown while offline.
@MainActor let banner = Banner()

/// The app's own work, which needs the network.
@MainActor func startLargeDownload() {}

/// Sends what the app has queued.
@MainActor func sync() async {}

/// Uploads what the app has queued.
@MainActor func upload() {}

/// Tells the user to log in to a captive portal, at `redirect` when the portal gave one.
@MainActor func showLoginHint(_ redirect: String?) {}

/// Shows or hides the app's offline banner.
@MainActor func updateBanner(online: Bool) {}

/// The process ID of a container's main process.
let pid: Int32 = 1
