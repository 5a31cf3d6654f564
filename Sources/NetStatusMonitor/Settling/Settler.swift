/// The rule of settled observation, pure: which changes of a value to publish and when, given the instants at
/// which they happen. Its driver feeds it values and timer firings with the clock's instants, and does what it
/// says (publish a value, start or cancel one timer); no I/O, no clock, no lock here, so that every case is
/// unit-tested with made-up instants (Tests/NetStatusTests/SettlerTests.swift).
///
/// The rule:
/// - The first value is published at once, and so is the first known one after a value that is not known
///   (``SettledValue/isKnown``: a connectivity state of `unknown`): going from "not known" to known is not a change.
/// - A change of side (``SettledValue/isUp``: satisfied ↔ unsatisfied, full ↔ not full) is published once the
///   new side has held for its hold (`upHold` to go up, `downHold` to go down), counted from the first value on
///   that side; the latest value on that side is what is published. Coming back to the published side before
///   the hold drops the change: a blip shorter than the hold is never seen.
/// - Any other change (another interface type, expensive or not, on the same side) is published once that exact
///   value has held for the hold of its side: each different value starts the hold again, so a path that keeps
///   changing while connected is published only once it stops changing.
/// - A hold of zero (or less) publishes at once.
package struct Settler<Value: SettledValue, Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration {
  /// What the driver must do with its one timer.
  package enum TimerChange: Sendable, Equatable {
    /// Keep it as it is.
    case unchanged
    /// Cancel it: nothing is pending.
    case cancel
    /// (Re)start it to fire at this instant.
    case start(Instant)
  }

  /// What one input asks the driver to do, outside its lock.
  package struct Output: Sendable {
    /// The value to publish, if any.
    package var publish: Value?
    /// What to do with the timer.
    package var timer: TimerChange
  }

  private struct Pending: Sendable {
    var value: Value
    var deadline: Instant
  }

  /// How long a change to the up side must hold.
  package let upHold: Duration
  /// How long a change to the down side must hold.
  package let downHold: Duration
  /// The last value published; `nil` before the first.
  package private(set) var published: Value?
  private var pending: Pending?

  /// A settler that publishes its first value at once, or (`published` given) starts as if it had published it.
  package init(upHold: Duration, downHold: Duration, published: Value? = nil) {
    self.upHold = upHold
    self.downHold = downHold
    self.published = published
  }

  /// When the pending change is due, or `nil` when none is pending.
  package var deadline: Instant? { pending?.deadline }

  /// The value the settler is holding back, if any.
  package var pendingValue: Value? { pending?.value }

  /// Takes in a new value observed at `now`.
  package mutating func receive(_ value: Value, at now: Instant) -> Output {
    guard let published, published.isKnown else { return publishNow(value) }
    if value.isSettledRepeat(of: published) {
      guard pending != nil else { return Output(publish: nil, timer: .unchanged) }
      pending = nil
      return Output(publish: nil, timer: .cancel)
    }
    let hold = value.isUp ? upHold : downHold
    if hold <= .zero { return publishNow(value) }
    if let current = pending {
      if value.isUp != published.isUp, current.value.isUp == value.isUp {
        // Still on the new side: its hold runs from the first value there.
        pending = Pending(value: value, deadline: current.deadline)
        return Output(publish: nil, timer: .unchanged)
      }
      if value.isUp == published.isUp, value.isSettledRepeat(of: current.value) {
        return Output(publish: nil, timer: .unchanged)
      }
    }
    let deadline = now.advanced(by: hold)
    pending = Pending(value: value, deadline: deadline)
    return Output(publish: nil, timer: .start(deadline))
  }

  /// The timer fired at `now`: publishes the pending value if it is due. A firing that is early or stale (its
  /// change was dropped or replaced) publishes nothing.
  package mutating func timerFired(at now: Instant) -> Output {
    guard let current = pending else { return Output(publish: nil, timer: .unchanged) }
    guard now >= current.deadline else { return Output(publish: nil, timer: .start(current.deadline)) }
    pending = nil
    published = current.value
    return Output(publish: current.value, timer: .unchanged)
  }

  /// Forgets everything: the next value is published at once (the observed value became unknown again).
  package mutating func reset() -> Output {
    published = nil
    return dropPending()
  }

  /// Publishes `value` now, dropping what was pending.
  private mutating func publishNow(_ value: Value) -> Output {
    published = value
    var output = dropPending()
    output.publish = value
    return output
  }

  /// Drops the pending change, if any: the timer is to be cancelled.
  private mutating func dropPending() -> Output {
    let hadPending = pending != nil
    pending = nil
    return Output(publish: nil, timer: hadPending ? .cancel : .unchanged)
  }
}
