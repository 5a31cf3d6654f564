/// Passes on values that arrive out of order from several threads, in version order.
///
/// Monitor callbacks run outside the monitor's lock; a relay keeps the newest version it has passed on and
/// drops anything older, so its consumer sees changes in order. How it passes them on is its
/// ``Delivery``. Subscribe one to a host with ``BroadcastHost/addRelayedSubscriber(_:delivery:registered:cleared:deliver:)``,
/// the one place that registers, relays and offers the current value.
final class VersionedRelay<Value: Equatable & Sendable>: Sendable {
  /// How a relay passes values on.
  enum Delivery: Sendable {
    /// Each value newer than and different from the last passed on, emitted under the relay's lock: the consumer
    /// sees changes one at a time, in order, without repeats.
    case changes
    /// Each value (and each clearing) of a newer version, repeats included, decided under the relay's lock and
    /// emitted after it: for a consumer that serialises what it receives under a lock of its own.
    case newerVersions
  }

  private struct State {
    var version: UInt64?
    var last: Value?
  }

  private let state = Locked(State())
  private let delivery: Delivery
  private let emit: @Sendable (Value) -> Void
  private let emitCleared: (@Sendable () -> Void)?

  /// A relay that passes values on to `emit`, and clearings (see ``clear(version:)``) to `cleared`.
  init(
    delivery: Delivery = .changes, cleared: (@Sendable () -> Void)? = nil,
    _ emit: @escaping @Sendable (Value) -> Void
  ) {
    self.delivery = delivery
    self.emit = emit
    self.emitCleared = cleared
  }

  /// Offers a value of the given version.
  ///
  /// ``Delivery/changes``: emits it (under the relay's lock, to keep the order) if it is not older than what was
  /// emitted and different from it. ``Delivery/newerVersions``: emits it (after the lock) if it is newer.
  func offer(_ value: Value, version: UInt64) {
    switch delivery {
    case .changes:
      state.withLockedValue { state in
        if let seen = state.version, version < seen { return }
        state.version = version
        // Compared in place: `last != value` would first copy `value` into an optional.
        if case .some(let last) = state.last, last == value { return }
        state.last = value
        emit(value)
      }
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
      state.withLockedValue { state in
        if let seen = state.version, version <= seen { return }
        state.version = version
        state.last = nil
        emitCleared()
      }
    case .newerVersions:
      if admit(version) { emitCleared() }
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
  ///   - deliver: Receives the values.
  /// - Returns: The id to pass to ``removeSubscriber(_:)``, and the value known at registration.
  @discardableResult
  func addRelayedSubscriber<Value: Equatable & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Value,
    delivery: VersionedRelay<Value>.Delivery = .changes,
    registered: (UInt64) -> Bool = { _ in true },
    cleared: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Value) -> Void
  ) -> (id: UInt64, current: Element?) {
    let relay = VersionedRelay(delivery: delivery, cleared: cleared, deliver)
    return registerRelay(relay, registered: registered, clears: cleared != nil) { value, version in
      relay.offer(transform(value), version: version)
    }
  }

  /// ``addRelayedSubscriber(_:delivery:registered:cleared:deliver:)`` for the values themselves.
  @discardableResult
  func addRelayedSubscriber(
    delivery: VersionedRelay<Element>.Delivery = .changes,
    registered: (UInt64) -> Bool = { _ in true },
    cleared: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Element) -> Void
  ) -> (id: UInt64, current: Element?) {
    // Not through the transforming variant: no extra closure call per value on the `watch` path.
    let relay = VersionedRelay(delivery: delivery, cleared: cleared, deliver)
    return registerRelay(relay, registered: registered, clears: cleared != nil) { value, version in
      relay.offer(value, version: version)
    }
  }

  /// Registers `offer` (which offers a value to `relay`), then offers it the current value.
  private func registerRelay<Value: Equatable & Sendable>(
    _ relay: VersionedRelay<Value>, registered: (UInt64) -> Bool, clears: Bool,
    offer: @escaping @Sendable (Element, UInt64) -> Void
  ) -> (id: UInt64, current: Element?) {
    var onClear: (@Sendable (UInt64) -> Void)?
    if clears { onClear = { version in relay.clear(version: version) } }
    let registration = addCallbackSubscriber(offer, cleared: onClear)
    guard registered(registration.id) else {
      removeSubscriber(registration.id)
      return (registration.id, nil)
    }
    if let current = registration.current { offer(current, registration.version) }
    return (registration.id, registration.current)
  }
}
