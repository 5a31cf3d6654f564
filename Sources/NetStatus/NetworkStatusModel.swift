import Dispatch
import Observation

/// The state of a ``NetworkMonitor`` as an `@Observable` model on the main actor, for SwiftUI and any
/// other Observation client (Linux included).
///
/// The model subscribes on creation (starting the monitor if needed) and unsubscribes when it is
/// released; it never stops the monitor. Updates arrive on the main queue, in order.
///
/// ```swift
/// @State private var network = NetworkStatusModel()
///
/// var body: some View {
///     Text(network.isConnected ? "Online" : "Offline")
/// }
/// ```
@MainActor
@Observable
public final class NetworkStatusModel {
  /// The latest path, or `nil` while it is not known yet.
  public private(set) var path: NetworkPath?
  /// The error that last stopped the monitor, if any.
  public private(set) var lastError: NetworkMonitorError?

  /// The monitor the model follows.
  @ObservationIgnored public let monitor: NetworkMonitor
  @ObservationIgnored private let subscription: CallbackSubscription

  /// Creates a model that follows `monitor` (``NetworkMonitor/shared`` by default).
  public init(monitor: NetworkMonitor = .shared) {
    self.monitor = monitor
    let box = WeakModel()
    let relay = VersionedRelay<NetworkPath> { path in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { box.model?.apply(path) }
      }
    }
    let registration = monitor.addCallbackSubscriber { path, version in relay.offer(path, version: version) }
    self.subscription = CallbackSubscription(monitor: monitor, id: registration.id)
    self.path = registration.current
    self.lastError = monitor.lastError
    box.model = self
    if let current = registration.current { relay.offer(current, version: registration.version) }
  }

  private func apply(_ path: NetworkPath) {
    if self.path != path { self.path = path }
    let error = monitor.lastError
    if lastError != error { lastError = error }
  }

  /// Whether the path is known yet.
  public var isKnown: Bool { path != nil }
  /// Whether the path is satisfied; `false` while not known.
  public var isConnected: Bool { path?.isConnected ?? false }
  /// Whether the path is expensive; `false` while not known.
  public var isExpensive: Bool { path?.isExpensive ?? false }
  /// Whether the path is constrained; `false` while not known.
  public var isConstrained: Bool { path?.isConstrained ?? false }
  /// The type of the interface in use, or `nil`.
  public var interfaceType: InterfaceType? { path?.interfaceType }
  /// The distinct types of the available interfaces, most preferred first.
  public var availableInterfaceTypes: [InterfaceType] { path?.availableInterfaceTypes ?? [] }
}

/// A weak reference to the model, set once on the main actor and read there.
@MainActor
private final class WeakModel: Sendable {
  weak var model: NetworkStatusModel?
}

/// Removes a monitor subscription when released.
final class CallbackSubscription: Sendable {
  let monitor: NetworkMonitor
  let id: UInt64

  init(monitor: NetworkMonitor, id: UInt64) {
    self.monitor = monitor
    self.id = id
  }

  deinit {
    monitor.removeSubscriber(id)
  }
}
