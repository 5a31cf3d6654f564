// The app's own code that the documentation's samples call (Scripts/check-doc-samples.py compiles every sample with
// this file, and Scripts/run-doc-samples.py runs the Linux ones with it; CONTRIBUTING.md, "Code samples in the docs").
// A name belongs here when a sample uses it as the reader's code would (their download, their banner); a sample that
// shows NetStatus's API declares what it uses itself. What the app would do, these print, so that a run shows it.
import Foundation
import NetStatus

/// The monitor most samples observe.
let monitor = NetworkMonitor.shared

/// The app's banner, shown while offline.
@MainActor final class Banner {
  var isHidden = true {
    didSet { print("banner \(isHidden ? "hidden" : "shown")") }
  }
}

/// The app's banner, shown while offline.
@MainActor let banner = Banner()

/// The app's own work, which needs the network.
@MainActor func startLargeDownload() { print("download started") }

/// Sends what the app has queued.
@MainActor func sync() async { print("sync started") }

/// Uploads what the app has queued.
@MainActor func upload() { print("upload started") }

/// Tells the user to log in to a captive portal, at `redirect` when the portal gave one.
@MainActor func showLoginHint(_ redirect: String?) { print("log in at \(redirect ?? "the portal")") }

/// Shows or hides the app's offline banner.
@MainActor func updateBanner(online: Bool) { print("banner: \(online ? "online" : "offline")") }

#if os(Linux)
  /// The process ID of a container's main process: when the samples run, a process in a namespace of the run's own
  /// (Scripts/run-doc-samples.py names it in SAMPLE_CONTAINER_PID).
  let pid: Int32 = ProcessInfo.processInfo.environment["SAMPLE_CONTAINER_PID"].flatMap { Int32($0) } ?? 1
#else
  /// The process ID of a container's main process (the Apple samples only compile).
  let pid: Int32 = 1
#endif
