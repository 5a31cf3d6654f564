import NetStatus

/// What the tutorial's `NetworkMonitorView` shows: the content while connected, "No Internet Connection" otherwise.
///
/// The tutorial injects a `ReachabilityUC` whose `execute()` says whether the device is connected, and reads it when
/// the view appears and when the user taps "Check for internet". NetStatus's `NetworkStatusProviding` is that
/// protocol (`execute()` is its familiar name for `isConnected`), and its `networkUpdates()` lets the screen follow
/// every change instead of waiting for a tap. `NetworkMonitor` conforms; so does any test double.
@MainActor
public final class ReachabilityViewModel {
  private let network: any NetworkStatusProviding
  /// Whether the screen shows its content (`true`) or "No Internet Connection".
  public private(set) var isConnected = false
  /// Called after every change of what the screen shows.
  public var onChange: (@MainActor (String) -> Void)?

  /// Creates the model over `network`: the shared monitor in the app, a test double or scripted monitor in tests.
  public init(network: any NetworkStatusProviding = NetworkMonitor.shared) {
    self.network = network
  }

  /// What the screen shows now.
  public var screen: String { isConnected ? "Hello, world!" : "No Internet Connection" }

  /// The tutorial's `onAppear` and its "Check for internet" button: reads the provider once.
  public func check() {
    isConnected = network.execute()
  }

  /// Follows every change until the task is cancelled (SwiftUI's `.task`) or the provider can no longer deliver.
  public func follow() async {
    for await connected in network.networkUpdates() {
      isConnected = connected
      onChange?(screen)
    }
  }
}
