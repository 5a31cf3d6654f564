/// Passes on values that arrive out of order from several threads, in version order.
///
/// Monitor callbacks run outside the monitor's lock; a relay keeps the newest version it has accepted and
/// drops anything older, so its consumer sees changes in order. It decides under its lock and emits after it, so a
/// consumer may call back into whatever feeds the relay (stop its monitor, make its source publish) from inside a
/// delivery. How it passes values on is its ``Delivery``. Subscribe one to a host with
/// ``BroadcastHost/addRelayedSubscriber(_:delivery:registered:cleared:finished:deliver:)``, the one place that registers,
/// relays and offers the current value.
package final class VersionedRelay<Value: FanOutElement>: Sendable {
  /// How a relay passes values on.
  package enum Delivery: Sendable {
    /// Each value newer than and different from the last accepted, one delivery at a time and in the order
    /// accepted: the consumer sees changes one at a time, in order, without repeats. A value accepted while a
    /// delivery is under way (on another thread, or from inside the consumer) is emitted by the delivering thread
    /// right after it.
    case changes
    /// Each value (and each clearing) of a newer version, repeats included, emitted at once by the thread that
    /// offered it: for a consumer that serialises what it receives under a lock of its own.
    case newerVersions
  }

  /// What waits for the delivering thread.
  private enum Event {
    case value(Value)
    case cleared
    case finished
  }

  private struct State {
    var version: UInt64?
    var last: Value?
    /// Whether a thread is emitting (``Delivery/changes``); others queue their events for it.
    var delivering = false
    /// Accepted while a delivery was under way, oldest first. Empty (and unallocated) unless offers overlap.
    var queued: [Event] = []

    /// Whether this thread emits now: it takes the delivery if no other thread has it, or else queues `event` for
    /// the thread that has it (made only then: a value is not copied into an event it does not need).
    mutating func claimDelivery(queueing event: @autoclosure () -> Event) -> Bool {
      guard !delivering else {
        queued.append(event())
        return false
      }
      delivering = true
      return true
    }
  }

  private let state = Locked(State())
  private let delivery: Delivery
  private let emit: @Sendable (Value) -> Void
  private let emitCleared: (@Sendable () -> Void)?
  private let emitFinished: (@Sendable () -> Void)?

  /// A relay that passes values on to `emit`, clearings (see ``clear(version:)``) to `cleared`, and the host's end
  /// (see ``finish()``) to `finished`.
  init(
    delivery: Delivery = .changes, cleared: (@Sendable () -> Void)? = nil, finished: (@Sendable () -> Void)? = nil,
    _ emit: @escaping @Sendable (Value) -> Void
  ) {
    self.delivery = delivery
    self.emit = emit
    self.emitCleared = cleared
    self.emitFinished = finished
  }

  /// Offers a value of the given version.
  ///
  /// ``Delivery/changes``: accepts it if it is not older than what was accepted and different from it, and emits
  /// it (or queues it for the thread already emitting). ``Delivery/newerVersions``: emits it if it is newer.
  func offer(_ value: Value, version: UInt64) {
    switch delivery {
    case .changes:
      let emitsNow = state.withLockedValue { state -> Bool in
        if let seen = state.version, version < seen { return false }
        state.version = version
        // Moved out and back rather than compared in place: `last != value` would first copy `value` into an
        // optional, and binding the stored value copies it (a retain and a release of a path's box).
        if let last = state.last.take() {
          guard !value.isRepeat(of: last) else {
            state.last = consume last
            return false
          }
        }
        state.last = value
        return state.claimDelivery(queueing: .value(value))
      }
      emitNow(emitsNow) { emit(value) }
    case .newerVersions:
      if admit(version) { emit(value) }
    }
  }

  /// Offers the host's forgetting of its value (``Broadcast/clear()``) at the given version: passed on to the
  /// `cleared` closure if it is newer than anything seen, and then the next value is passed on even if it repeats
  /// the last.
  func clear(version: UInt64) {
    guard let emitCleared else { return }
    switch delivery {
    case .changes:
      let emitsNow = state.withLockedValue { state -> Bool in
        if let seen = state.version, version <= seen { return false }
        state.version = version
        state.last = nil
        return state.claimDelivery(queueing: .cleared)
      }
      emitNow(emitsNow, emitCleared)
    case .newerVersions:
      if admit(version) { emitCleared() }
    }
  }

  /// Offers the host's end (``Broadcast/finish()``): passed on to the `finished` closure after every value accepted
  /// before it (``Delivery/changes``), or at once (``Delivery/newerVersions``).
  func finish() {
    guard let emitFinished else { return }
    switch delivery {
    case .changes:
      emitNow(state.withLockedValue { $0.claimDelivery(queueing: .finished) }, emitFinished)
    case .newerVersions:
      emitFinished()
    }
  }

  /// Runs `emit` and then what others queued meanwhile, when this thread claimed the delivery (`claimed`).
  @inline(__always)
  private func emitNow(_ claimed: Bool, _ emit: () -> Void) {
    guard claimed else { return }
    emit()
    drain()
  }

  /// Emits what was queued during this thread's delivery, oldest first, until nothing is left; then another thread
  /// may deliver. Only the delivering thread runs it.
  private func drain() {
    while true {
      let next = state.withLockedValue { state -> Event? in
        if state.queued.isEmpty {
          state.delivering = false
          return nil
        }
        return state.queued.removeFirst()
      }
      switch next {
      case nil: return
      case .value(let value): emit(value)
      case .cleared: emitCleared?()
      case .finished: emitFinished?()
      }
    }
  }

  /// Whether `version` is newer than any seen; it becomes the newest seen if so.
  private func admit(_ version: UInt64) -> Bool {
    state.withLockedValue { state in
      if let seen = state.version, version <= seen { return false }
      state.version = version
      return true
    }
  }
}

extension BroadcastHost {
  /// Subscribes `deliver` to the host's values through a ``VersionedRelay``: registers the relay's callback (which
  /// lets the host start), calls `registered` with the subscription's id, then offers the value known at
  /// registration, with its version, so that it is neither lost (a change published meanwhile is newer and wins)
  /// nor repeated. The one implementation of "register, relay with versions, offer the current value".
  ///
  /// - Parameters:
  ///   - transform: What the subscriber receives of each value (compared after the transform with
  ///     ``VersionedRelay/Delivery/changes``).
  ///   - delivery: How the relay passes values on.
  ///   - registered: Called with the id before the current value is offered, to keep it; if it returns `false`,
  ///     the subscription is removed at once and nothing is offered.
  ///   - cleared: Called when the host forgets its value; `nil` to be told nothing.
  ///   - finished: Called when the host can no longer deliver, after the values before; `nil` to be told nothing.
  ///   - deliver: Receives the values.
  /// - Returns: The id to pass to ``removeSubscriber(_:)``, and the value known at registration.
  @discardableResult
  func addRelayedSubscriber<Value: FanOutElement>(
    _ transform: @escaping @Sendable (Element) -> Value,
    delivery: VersionedRelay<Value>.Delivery = .changes,
    registered: (UInt64) -> Bool = { _ in true },
    cleared: (@Sendable () -> Void)? = nil,
    finished: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Value) -> Void
  ) -> (id: UInt64, current: Element?) {
    let relay = VersionedRelay(delivery: delivery, cleared: cleared, finished: finished, deliver)
    return registerRelay(relay, registered: registered, clears: cleared != nil, finishes: finished != nil) {
      value, version in
      relay.offer(transform(value), version: version)
    }
  }

  /// ``addRelayedSubscriber(_:delivery:registered:cleared:finished:deliver:)`` for the values themselves.
  @discardableResult
  package func addRelayedSubscriber(
    delivery: VersionedRelay<Element>.Delivery = .changes,
    registered: (UInt64) -> Bool = { _ in true },
    cleared: (@Sendable () -> Void)? = nil,
    finished: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Element) -> Void
  ) -> (id: UInt64, current: Element?) {
    // Not through the transforming variant: no extra closure call per value on the `watch` path.
    let relay = VersionedRelay(delivery: delivery, cleared: cleared, finished: finished, deliver)
    return registerRelay(relay, registered: registered, clears: cleared != nil, finishes: finished != nil) {
      value, version in
      relay.offer(value, version: version)
    }
  }

  /// ``addRelayedSubscriber(delivery:registered:cleared:finished:deliver:)`` (changes only) without starting the
  /// host: the value known at registration is offered at once, and `start`, to call later, off the caller's executor
  /// (it may block), starts the host unless the subscription was removed meanwhile, then offers the value known then
  /// (the versions drop it if a publish delivered it already).
  package func addRelayedSubscriberStartedLater(
    deliver: @escaping @Sendable (Element) -> Void
  ) -> (id: UInt64, current: Element?, start: @Sendable () -> Void) {
    let relay = VersionedRelay(delivery: .changes, cleared: nil, finished: nil, deliver)
    let registration = addCallbackSubscriber(
      { value, version in relay.offer(value, version: version) }, startsHost: false)
    if let current = registration.current { relay.offer(current, version: registration.version) }
    let id = registration.id
    let start: @Sendable () -> Void = { [self] in
      guard withBroadcast({ broadcast, _ in broadcast.subscribers[id] != nil }) else { return }
      subscriberAdded()
      let (current, version) = withBroadcast { broadcast, current in (current, broadcast.version) }
      if let current { relay.offer(current, version: version) }
    }
    return (id, registration.current, start)
  }

  /// Registers `offer` (which offers a value to `relay`), then offers it the current value.
  private func registerRelay<Value: FanOutElement>(
    _ relay: VersionedRelay<Value>, registered: (UInt64) -> Bool, clears: Bool, finishes: Bool,
    offer: @escaping @Sendable (Element, UInt64) -> Void
  ) -> (id: UInt64, current: Element?) {
    var onClear: (@Sendable (UInt64) -> Void)?
    if clears { onClear = { version in relay.clear(version: version) } }
    var onFinish: (@Sendable () -> Void)?
    if finishes { onFinish = { relay.finish() } }
    let registration = addCallbackSubscriber(offer, cleared: onClear, finished: onFinish)
    guard registered(registration.id) else {
      removeSubscriber(registration.id)
      return (registration.id, nil)
    }
    if let current = registration.current { offer(current, registration.version) }
    return (registration.id, registration.current)
  }
}
