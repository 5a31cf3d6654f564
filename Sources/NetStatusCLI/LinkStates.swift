import NetStatusCore

/// The links of the namespace `wait` judges as systemd-networkd-wait-online does (WaitOnlineRule.swift): the kernel's
/// links as the monitor last read them, networkd's state of each where the monitor reads it, and a signal each time
/// either changes (on the rtnetlink thread, which only stores them and signals).
final class LinkStates: Sendable {
  /// A signal per change; a slow reader sees one for a burst.
  let changes: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation
  private struct State {
    var links: [LinkInventory.Link] = []
    /// networkd's state, once the monitor read it (never, where it reads none: another namespace).
    var networkd: NetworkdStatus?
  }
  private let latest = Locked(State())

  init() {
    (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Whether networkd's own state of the links is read: it runs and manages the namespace. Otherwise each link is
  /// judged from the kernel alone.
  var networkdInUse: Bool { latest.withLockedValue { $0.networkd?.use == .inUse } }

  /// The links as the rule sees them: networkd's state of each where it is read, the kernel's judgement otherwise.
  var judged: [WaitOnlineRule.Link] {
    let state = latest.withLockedValue { $0 }
    guard let networkd = state.networkd, networkd.use == .inUse else {
      return WaitOnlineRule.Link.kernelJudged(state.links)
    }
    return state.links.map {
      WaitOnlineRule.Link(name: $0.name, isLoopback: $0.type == .loopback, networkd: networkd.links[$0.index])
    }
  }

  /// Stores the links read now and signals the change.
  func update(_ links: [LinkInventory.Link]) {
    latest.withLockedValue { $0.links = links }
    continuation.yield()
  }

  /// Stores networkd's state read now and signals the change.
  func update(_ networkd: NetworkdStatus) {
    latest.withLockedValue { $0.networkd = networkd }
    continuation.yield()
  }

  /// Ends the signals.
  func finish() { continuation.finish() }
}
