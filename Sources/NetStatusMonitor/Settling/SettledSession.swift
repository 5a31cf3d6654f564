/// One run of settled observation: its subscription to the followed monitor, its ``Settler`` and the one timer the
/// settler asks for (a task sleeping on the clock). Decides under its lock; sends, and cancels timers, outside it.
///
/// What it sends goes out one event at a time and in the order decided: an event decided while another is being
/// sent (by the timer's task, or from inside the consumer) is sent by the sending thread right after it, so that a
/// value the timer publishes can never overtake one the followed monitor published later.
package final class SettledSession<Value: SettledValue & FanOutElement, C: Clock>: PathSourceSession
where C.Duration == Duration {
  package typealias Event = SettledEvent<Value>

  private struct State {
    var settler: Settler<Value, C.Instant>
    var timer: Task<Void, Never>?
    var unsubscribe: (@Sendable () -> Void)?
    var isStopped = false
    var outbox: [Event] = []
    var isSending = false

    /// Queues `event`; returns whether the caller must send the queue (no other thread is sending it).
    mutating func enqueue(_ event: Event) -> Bool {
      outbox.append(event)
      guard !isSending else { return false }
      isSending = true
      return true
    }
  }

  private let state: Locked<State>
  private let clock: C
  private let send: @Sendable (Event) -> Void

  package init(settler: Settler<Value, C.Instant>, clock: C, send: @escaping @Sendable (Event) -> Void) {
    self.state = Locked(State(settler: settler))
    self.clock = clock
    self.send = send
  }

  /// Subscribes to `upstream`: its current value and each change go through the settler.
  package func follow<Host: BroadcastHost>(_ upstream: Host) where Host.Element == Value {
    upstream.addRelayedSubscriber(
      registered: { id in
        state.withLockedValue { state in
          guard !state.isStopped else { return false }
          state.unsubscribe = { [weak upstream] in upstream?.removeSubscriber(id) }
          return true
        }
      },
      cleared: { [weak self] in self?.step { _, settler in settler.reset() } },
      finished: { [weak self] in self?.finish() },
      deliver: { [weak self] value in self?.step { clock, settler in settler.receive(value, at: clock.now) } })
  }

  package func stop() {
    let (timer, unsubscribe) = state.withLockedValue { state in
      state.isStopped = true
      state.outbox = []
      defer { (state.timer, state.unsubscribe) = (nil, nil) }
      return (state.timer, state.unsubscribe)
    }
    timer?.cancel()
    unsubscribe?()
  }

  private func finish() {
    let sends = state.withLockedValue { state -> Bool in
      guard !state.isStopped else { return false }
      return state.enqueue(.finished)
    }
    if sends { drain() }
  }

  /// Runs one step of the settler under the lock (starting the timer it asks for), then cancels the timer it
  /// replaced and sends what it publishes, outside the lock. A replaced timer that fires anyway finds nothing due.
  private func step(_ body: (C, inout Settler<Value, C.Instant>) -> Settler<Value, C.Instant>.Output) {
    let clock = self.clock
    let (replaced, sends) = state.withLockedValue { state -> (Task<Void, Never>?, Bool) in
      guard !state.isStopped else { return (nil, false) }
      let output = body(clock, &state.settler)
      var replaced: Task<Void, Never>?
      switch output.timer {
      case .unchanged: break
      case .cancel:
        replaced = state.timer
        state.timer = nil
      case .start(let deadline):
        replaced = state.timer
        state.timer = Task { [weak self] in
          do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
          self?.step { clock, settler in settler.timerFired(at: clock.now) }
        }
      }
      guard let value = output.publish else { return (replaced, false) }
      return (replaced, state.enqueue(.value(value)))
    }
    replaced?.cancel()
    if sends { drain() }
  }

  /// Sends the queued events, one at a time, until none is left.
  private func drain() {
    while let event = state.withLockedValue({ state -> Event? in
      guard !state.isStopped, !state.outbox.isEmpty else {
        state.isSending = false
        return nil
      }
      return state.outbox.removeFirst()
    }) {
      send(event)
    }
  }
}

/// What a ``SettledSession`` sends.
package enum SettledEvent<Value: Sendable>: Sendable {
  /// A settled value.
  case value(Value)
  /// The followed monitor can no longer deliver.
  case finished
}
