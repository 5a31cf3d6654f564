import NetStatus

/// A screen with the tutorial's `.needsInternet()` over it, as SwiftUI's `.task` would drive it: one loop over the
/// shared monitor's changes, on the main actor, for as long as the screen is shown.
///
/// The tutorial's singleton hands every caller of `networkUpdates()` the same `pathUpdateHandler`, so only the
/// newest stream gets changes, and the first stream to end cancels the one monitor for every screen. With NetStatus
/// each loop is a subscriber of its own: any number run at once, and ending one stops nothing.
@MainActor
struct Screen {
  let name: String

  /// A screen that appears and goes away again: its loop takes the current state and ends.
  func appearAndGoAway() async {
    for await connected in NetworkMonitor.shared.networkUpdates() {
      print("\(name): appeared \(connected ? "online" : "offline"), went away")
      break
    }
  }

  /// The screen's `.task`: what `.needsInternet()` shows, after every change.
  func follow() async {
    for await path in NetworkMonitor.shared.paths {
      print("\(name): \(Self.shows(path))")
    }
  }

  /// What `.needsInternet()` (NetStatusUI) shows over the screen for `path`: the content, or its cover's headline.
  static func shows(_ path: NetworkPath) -> String {
    switch InternetUnavailability(path: path) {
    case nil:
      let interfaces = path.availableInterfaces.map(\.name).joined(separator: " ")
      return "content (\(path.isConnected ? "online" : "not connected yet") via \(interfaces))"
    case .offline: return "covered: No Internet Connection"
    case .captivePortal: return "covered: Log In to This Network"
    case .noInternetAccess: return "covered: No Internet Access"
    }
  }
}
