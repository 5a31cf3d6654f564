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
///
/// Given a ``ConnectivityMonitor``, the model also follows whether the internet answers:
///
/// ```swift
/// let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")
/// @State private var network = NetworkStatusModel(connectivity: ConnectivityMonitor(probe: probe))
///
/// var body: some View {
///     if case .portal = network.connectivity { Text("Log in to this network") }
/// }
/// ```
@MainActor
@Observable
public final class NetworkStatusModel {
  /// The latest path, or `nil` while it is not known yet.
  public private(set) var path: NetworkPath?
  /// The error that last stopped the monitor, if any.
  public private(set) var lastError: NetworkMonitorError?
  /// Whether the internet answers, as the ``connectivityMonitor`` last found; ``ConnectivityState/unknown``
  /// when the model has no connectivity monitor.
  public private(set) var connectivity: ConnectivityState = .unknown

  /// The monitor the model follows.
  @ObservationIgnored public let monitor: NetworkMonitor
  /// The connectivity monitor the model follows, if any.
  @ObservationIgnored public let connectivityMonitor: ConnectivityMonitor?
  @ObservationIgnored private let subscription: CallbackSubscription<NetworkMonitor>
  @ObservationIgnored private let connectivitySubscription: CallbackSubscription<ConnectivityMonitor>?

  /// Creates a model that follows `monitor` (``NetworkMonitor/shared`` by default).
  public convenience init(monitor: NetworkMonitor = .shared) {
    self.init(monitor: monitor, connectivity: nil)
  }

  /// Creates a model that follows a connectivity monitor and its path monitor. The model starts the
  /// connectivity monitor (so that checks are made) and never stops it.
  public convenience init(connectivity: ConnectivityMonitor) {
    self.init(monitor: connectivity.monitor, connectivity: connectivity)
  }

  private init(monitor: NetworkMonitor, connectivity connectivityMonitor: ConnectivityMonitor?) {
    self.monitor = monitor
    self.connectivityMonitor = connectivityMonitor
    let box = WeakModel()
    let relay = VersionedRelay<NetworkPath> { path in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { box.model?.apply(path) }
      }
    }
    let registration = monitor.addCallbackSubscriber { path, version in relay.offer(path, version: version) }
    self.subscription = CallbackSubscription(host: monitor, id: registration.id)
    self.path = registration.current
    self.lastError = monitor.lastError
    var connectivityRegistration: (id: UInt64, current: ConnectivityState?, version: UInt64)?
    var connectivityRelay: VersionedRelay<ConnectivityState>?
    if let connectivityMonitor {
      let relay = VersionedRelay<ConnectivityState> { state in
        DispatchQueue.main.async {
          MainActor.assumeIsolated { box.model?.apply(state) }
        }
      }
      let registration = connectivityMonitor.addCallbackSubscriber { state, version in
        relay.offer(state, version: version)
      }
      connectivityRegistration = registration
      connectivityRelay = relay
      self.connectivitySubscription = CallbackSubscription(host: connectivityMonitor, id: registration.id)
      self.connectivity = registration.current ?? .unknown
    } else {
      self.connectivitySubscription = nil
    }
    box.model = self
    if let current = registration.current { relay.offer(current, version: registration.version) }
    if let connectivityRegistration, let connectivityRelay, let current = connectivityRegistration.current {
      connectivityRelay.offer(current, version: connectivityRegistration.version)
    }
  }

  private func apply(_ state: ConnectivityState) {
    if connectivity != state { connectivity = state }
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
  /// Whether the internet answers (``connectivity`` is ``ConnectivityState/full``); `false` without a
  /// connectivity monitor.
  public var hasInternetAccess: Bool { connectivity.isFull }
}

/// A weak reference to the model, set once on the main actor and read there.
@MainActor
private final class WeakModel: Sendable {
  weak var model: NetworkStatusModel?
}

/// Removes a callback subscription when released.
final class CallbackSubscription<Host: BroadcastHost>: Sendable {
  let host: Host
  let id: UInt64

  init(host: Host, id: UInt64) {
    self.host = host
    self.id = id
  }

  deinit {
    host.removeSubscriber(id)
  }
}
