import NetStatusCore

/// The links of the namespace `wait --interface` watches, as the monitor last read them, and a signal each time
/// they change (on the rtnetlink thread, which only stores them and signals).
final class LinkStates: Sendable {
  /// A signal per change; a slow reader sees one for a burst.
  let changes: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  private let latest = Locked<[LinkInventory.Link]>([])

  init() {
    (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// The links as last read.
  var links: [LinkInventory.Link] { latest.withLockedValue { $0 } }

  /// Stores the links read now and signals the change.
  func update(_ links: [LinkInventory.Link]) {
    latest.withLockedValue { $0 = links }
    continuation.yield()
  }

  /// Ends the signals.
  func finish() { continuation.finish() }
}
