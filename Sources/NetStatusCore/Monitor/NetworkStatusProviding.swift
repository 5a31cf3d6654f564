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
///     func pathUpdates() -> AsyncStream<NetworkPath> { AsyncStream { $0.yield(.offline) } }
/// }
/// ```
public protocol NetworkStatusProviding: Sendable {
  /// The latest path, or `nil` while it is not known.
  var currentPath: NetworkPath? { get }
  /// Connectivity: the current state first, then every change.
  func networkUpdates() -> AsyncStream<Bool>
  /// Paths: the current one first, then every change.
  func pathUpdates() -> AsyncStream<NetworkPath>
}

extension NetworkStatusProviding {
  /// Whether the current path is satisfied; `false` while not known.
  public var isConnected: Bool { currentPath?.isConnected ?? false }
  /// Whether the current path is expensive; `false` while not known.
  public var isExpensive: Bool { currentPath?.isExpensive ?? false }
  /// Whether the device is connected: ``isConnected`` under the tutorials' name (the seed tutorials'
  /// `ReachabilityUC.execute()`), kept as public API so that code written from them compiles.
  public func execute() -> Bool { isConnected }
}

extension NetworkMonitor: NetworkStatusProviding {
  /// Every path as an `AsyncStream`: the current one first (once known), then every change, in order and
  /// without repeats, on a subscription of its own that starts the monitor if needed.
  ///
  /// The stream keeps only the newest path (`.bufferingNewest(1)`): a consumer that falls behind gets the newest
  /// path when it reads again, not a backlog of the changes it missed, so memory stays bounded however slow it
  /// is. (Should the path change and change back meanwhile, that newest path can equal the last one it read;
  /// ``paths`` never repeats one.)
  public func pathUpdates() -> AsyncStream<NetworkPath> {
    let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: .bufferingNewest(1))
    let registration = addRelayedSubscriber { continuation.yield($0) }
    continuation.onTermination = { [weak self] _ in self?.removeSubscriber(registration.id) }
    return stream
  }
}
