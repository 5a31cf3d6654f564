/// Passes on values that arrive out of order from several threads, in version order and without repeats.
///
/// Monitor callbacks run outside the monitor's lock; a relay keeps the newest version it has passed on and
/// drops anything older, so its consumer sees changes in order.
final class VersionedRelay<Value: Equatable & Sendable>: Sendable {
  private struct State {
    var version: UInt64?
    var last: Value?
  }

  private let state = Locked(State())
  private let emit: @Sendable (Value) -> Void

  init(_ emit: @escaping @Sendable (Value) -> Void) {
    self.emit = emit
  }

  /// Offers a value of the given version; emits it (under the relay's lock, to keep the order) if it is
  /// newer than what was emitted and different from it.
  func offer(_ value: Value, version: UInt64) {
    state.withLockedValue { state in
      if let seen = state.version, version < seen { return }
      state.version = version
      // Compared in place: `last != value` would first copy `value` into an optional.
      if case .some(let last) = state.last, last == value { return }
      state.last = value
      emit(value)
    }
  }
}
