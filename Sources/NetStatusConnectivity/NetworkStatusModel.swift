import Dispatch
import Observation

/// The state of a ``NetworkMonitor`` as an `@Observable` model on the main actor, for SwiftUI and any
/// other Observation client (Linux included).
///
/// The model subscribes on creation and unsubscribes when it is released; it never stops the monitor. Updates arrive
/// on the main queue, in order. A monitor that runs already gives the model its current path at once; one that does
/// not is started by the model off the main actor (a start may block: on Linux a netlink dump and NetworkManager's
/// first answer, 750 ms at most), and its path comes as soon as the start knows it. Until then ``path`` is `nil`
/// (``isKnown`` is `false`).
///
/// ```swift
/// @State private var network = NetworkStatusModel()
///
/// var body: some View {
///     Text(network.isConnected ? "Online" : "Offline")
/// }
/// ```
///
/// Given a ``ConnectivityMonitor``, the model also follows whether the internet answers (checked over TCP sockets on
/// Linux and Network's `NWConnection` on macOS, iOS, tvOS and visionOS; on watchOS it stays
/// ``ConnectivityState/unknown``: see ``ConnectivityMonitor``):
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
    // Deliveries are queued on the main queue: the model (set below, on the main actor) receives them after this
    // initialiser, the current values first. The monitors are started afterwards, off the main actor.
    let registration = monitor.addRelayedSubscriberStartedLater { path in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { box.model?.apply(path) }
      }
    }
    self.subscription = CallbackSubscription(host: monitor, id: registration.id)
    self.path = registration.current
    self.lastError = monitor.lastError
    var starts = [registration.start]
    if let connectivityMonitor {
      let registration = connectivityMonitor.addRelayedSubscriberStartedLater { state in
        DispatchQueue.main.async {
          MainActor.assumeIsolated { box.model?.apply(state) }
        }
      }
      self.connectivitySubscription = CallbackSubscription(host: connectivityMonitor, id: registration.id)
      self.connectivity = registration.current ?? .unknown
      starts.append(registration.start)
    } else {
      self.connectivitySubscription = nil
    }
    box.model = self
    let startAll = starts
    Task { @MainActor in
      // Each start is skipped when the model was released meanwhile (its subscription removed).
      _ = await runOffExecutor { for start in startAll { start() } }
      // A start that failed delivers no path: its error is taken here.
      box.model?.applyLastError()
    }
  }

  private func applyLastError() {
    let error = monitor.lastError
    if lastError != error { lastError = error }
  }

  private func apply(_ state: ConnectivityState) {
    if connectivity != state { connectivity = state }
  }

  private func apply(_ path: NetworkPath) {
    if !path.isRepeat(of: self.path) { self.path = path }
    applyLastError()
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

extension NetworkStatusModel {
  /// Why the internet is not there, judged from ``path`` and ``connectivity`` (see ``InternetUnavailability``):
  /// what `.needsInternet()` covers the content for. `nil` while nothing stands in the way or nothing is known yet.
  public var internetUnavailability: InternetUnavailability? {
    InternetUnavailability(path: path, connectivity: connectivity)
  }
}
