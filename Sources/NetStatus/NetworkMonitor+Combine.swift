#if canImport(Combine)
  import Combine
  import Foundation

  extension NetworkMonitor {
    /// The current path, then every change, as a Combine publisher.
    ///
    /// Each subscription is its own subscriber of the monitor (starting it if needed) and honours demand: a
    /// subscriber that has not asked for more gets the newest path when it does, never a backlog. Cancelling the
    /// subscription ends it and releases the subscriber; the monitor keeps running for everyone else. Values arrive
    /// on the source's thread: add `.receive(on: DispatchQueue.main)` before touching UI.
    ///
    /// The publisher completes (`.finished`) when the monitor can no longer deliver: after a fatal failure of its
    /// source (a watched network namespace deleted, the source failed for good, or the monitor could not start), once
    /// the last, unsatisfied path has been delivered. ``NetworkMonitor/lastError`` says why. A new subscription
    /// starts the monitor again.
    ///
    /// ```swift
    /// NetworkMonitor.shared.pathPublisher
    ///     .map(\.isConnected)
    ///     .removeDuplicates()
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { [weak self] connected in self?.offlineBanner.isHidden = connected }
    ///     .store(in: &cancellables)
    /// ```
    public var pathPublisher: NetworkPathPublisher { NetworkPathPublisher(monitor: self) }
  }

  /// The publisher of ``NetworkMonitor/pathPublisher``: network paths, never failing.
  public struct NetworkPathPublisher: Publisher, Sendable {
    /// The published values: network paths.
    public typealias Output = NetworkPath
    /// The publisher never fails.
    public typealias Failure = Never

    /// The monitor whose paths are published.
    public let monitor: NetworkMonitor

    /// Subscribes `subscriber` to the monitor's paths.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == NetworkPath, S.Failure == Never {
      let subscription = DemandSubscription(subscriber: subscriber)
      // Subscribe first: the relay keeps the current path until the subscriber asks for it.
      subscription.start(monitor: monitor)
      subscriber.receive(subscription: subscription)
    }

    /// Connects a Combine subscriber to a ``PathDemandRelay``, which holds all the logic.
    ///
    /// `@unchecked Sendable`: its two fields are only read or written under `lock`, and the subscriber is only
    /// called by the relay, one delivery at a time, outside any lock.
    private final class DemandSubscription<S: Subscriber>: Subscription, @unchecked Sendable
    where S.Input == NetworkPath, S.Failure == Never {
      private let lock = NSLock()
      private var subscriber: S?
      private var relay: PathDemandRelay?

      init(subscriber: S) {
        self.subscriber = subscriber
      }

      func start(monitor: NetworkMonitor) {
        // The relay's closure is `@Sendable`; it must not capture `self`, whose type is generic over `S`, or it
        // captures `S.Type`, which is not `Sendable` (a warning since Swift 6.2). It captures a non-generic
        // forwarder instead, and only that forwarder's own closure, which is not `@Sendable`, captures `self`.
        let forwarder = PathForwarder { [weak self] path in self?.forward(path) ?? 0 }
        let completer = CompletionForwarder { [weak self] in self?.complete() }
        let relay = PathDemandRelay(monitor: monitor, deliver: { path in forwarder(path) }, finished: { completer() })
        lock.withLock { self.relay = relay }
      }

      private func forward(_ path: NetworkPath) -> Int {
        guard let subscriber = lock.withLock({ self.subscriber }) else { return 0 }
        return subscriber.receive(path).max ?? Int.max
      }

      private func complete() {
        let subscriber = lock.withLock {
          relay = nil
          return self.subscriber.take()
        }
        subscriber?.receive(completion: .finished)
      }

      func request(_ demand: Subscribers.Demand) {
        lock.withLock { relay }?.request(demand.max ?? Int.max)
      }

      func cancel() {
        let relay = lock.withLock {
          subscriber = nil
          return self.relay.take()
        }
        relay?.cancel()
      }
    }
  }

  /// Hands a path to a subscription without naming the subscription's type.
  ///
  /// `@unchecked Sendable`: `forward` is immutable, and the relay calls it one delivery at a time.
  private final class PathForwarder: @unchecked Sendable {
    private let forward: (NetworkPath) -> Int

    init(_ forward: @escaping (NetworkPath) -> Int) {
      self.forward = forward
    }

    func callAsFunction(_ path: NetworkPath) -> Int {
      forward(path)
    }
  }

  /// Tells a subscription that the publisher completed, without naming the subscription's type.
  ///
  /// `@unchecked Sendable`: `complete` is immutable, and the relay calls it once.
  private final class CompletionForwarder: @unchecked Sendable {
    private let complete: () -> Void

    init(_ complete: @escaping () -> Void) {
      self.complete = complete
    }

    func callAsFunction() {
      complete()
    }
  }
#endif
