/// What code needs from a network monitor, as a protocol to inject: ``NetworkMonitor`` conforms, and so
/// can your test doubles.
///
/// ```swift
/// final class FeedLoader {
///     let network: any NetworkStatusProviding
///     init(network: any NetworkStatusProviding = NetworkMonitor.shared) { self.network = network }
///     func refresh() { guard network.isConnected else { return showOffline() } ... }
/// }
///
/// struct AlwaysOffline: NetworkStatusProviding {
///     var currentPath: NetworkPath? { .offline }
///     func networkUpdates() -> AsyncStream<Bool> { AsyncStream { $0.yield(false) } }
/// }
/// ```
public protocol NetworkStatusProviding: Sendable {
  /// The latest path, or `nil` while it is not known.
  var currentPath: NetworkPath? { get }
  /// Connectivity: the current state first, then every change; the stream ends when the provider can no longer
  /// deliver. A familiar name (see ``NetworkMonitor/networkUpdates()``).
  func networkUpdates() -> AsyncStream<Bool>
}

extension NetworkStatusProviding {
  /// Whether the current path is satisfied; `false` while not known.
  public var isConnected: Bool { currentPath?.isConnected ?? false }
  /// Whether the current path is expensive; `false` while not known.
  public var isExpensive: Bool { currentPath?.isExpensive ?? false }
}

extension NetworkMonitor: NetworkStatusProviding {}
