/// The subscribers of a value that changes over time (a monitor's path, a connectivity state) and what each
/// still has to receive: the state machine behind ``NetworkPathSequence``, ``ConnectivityStateSequence``
/// and the internal callbacks.
///
/// It only decides; its owner holds it in its lock and acts on the decisions (resuming continuations,
/// calling callbacks) after releasing the lock.
///
/// Each iterator subscriber keeps one pending slot: a slow consumer skips to the newest value and never
/// builds up a backlog, and it is never handed the same value twice in a row.
package struct Broadcast<Element: FanOutElement> {
  typealias Continuation = CheckedContinuation<Element?, Never>

  /// An empty broadcast: no subscriber, no value.
  package init() {}

  struct IteratorState {
    var lastDelivered: Element?
    var pending: Element?
    var waiting: Continuation?
    var cancelled = false
    /// The host can no longer deliver (``Broadcast/finish()``): the iterator returns what is pending, then `nil`.
    var finished = false
    /// The iterator has asked its host to start (on its first `next` in a live task).
    var startClaimed = false
  }

  enum Subscriber {
    case iterator(IteratorState)
    case callback(
      @Sendable (Element, UInt64) -> Void, cleared: (@Sendable (UInt64) -> Void)?, finished: (@Sendable () -> Void)?)
  }

  /// What `next` decided.
  enum NextAction {
    case resume(Element?)
    case suspended
  }

  /// What a publish must do once the lock is released.
  package struct Fanout {
    var resumptions: [(Continuation, Element)] = []
    var callbacks: [@Sendable (Element, UInt64) -> Void] = []
    var version: UInt64 = 0

    /// Resumes and calls everything, in subscription order for callbacks.
    package func run(with value: Element) {
      for callback in callbacks { callback(value, version) }
      if !resumptions.isEmpty { resume() }
    }

    /// Resumes the iterators. Not inlined: like `offerToIterators(_:into:)`, its stack frame is sized from
    /// `CheckedContinuation`'s runtime metadata.
    @inline(never)
    private func resume() {
      for (continuation, value) in resumptions { continuation.resume(returning: value) }
    }
  }

  /// What a clear must do once the lock is released: tell the callbacks that asked, with the new version.
  struct ClearFanout {
    var callbacks: [@Sendable (UInt64) -> Void] = []
    var version: UInt64 = 0

    /// Calls everything, in subscription order.
    func run() {
      for callback in callbacks { callback(version) }
    }
  }

  /// What a finish must do once the lock is released: end the waiting iterators and tell the callbacks that asked.
  package struct FinishFanout {
    var waiting: [Continuation] = []
    var callbacks: [@Sendable () -> Void] = []

    /// Resumes the waiting iterators with `nil`, then calls the callbacks, in subscription order.
    package func run() {
      for continuation in waiting { continuation.resume(returning: nil) }
      for callback in callbacks { callback() }
    }
  }

  private(set) var subscribers: [UInt64: Subscriber] = [:]
  private var nextID: UInt64 = 0
  /// Callback subscribers in subscription order, so that callbacks run in a stable order.
  private var callbackOrder: [UInt64] = []
  /// Their callbacks, in the same order: handed to every ``Fanout`` as is (no array is built per publish).
  private var callbacks: [@Sendable (Element, UInt64) -> Void] = []
  /// How many subscribers are iterators: a publish with none skips the table.
  private var iteratorCount = 0

  var count: Int { subscribers.count }

  /// Adds an iterator that will first receive `current`, if known.
  mutating func addIterator(current: Element?) -> UInt64 {
    nextID += 1
    subscribers[nextID] = .iterator(IteratorState(pending: current))
    iteratorCount += 1
    return nextID
  }

  /// Adds a callback, called with every published value and its version; `cleared`, if given, called
  /// with the version of each ``clear()``; and `finished`, if given, called at each ``finish()``. A callback stays
  /// subscribed after a finish, and receives the values of the host's next start.
  ///
  /// Callbacks run outside the lock, so one may see a value before the subscriber has handled the value it
  /// got at registration: it compares versions and drops what is older than what it has.
  mutating func addCallback(
    _ callback: @escaping @Sendable (Element, UInt64) -> Void, cleared: (@Sendable (UInt64) -> Void)? = nil,
    finished: (@Sendable () -> Void)? = nil
  ) -> UInt64 {
    nextID += 1
    subscribers[nextID] = .callback(callback, cleared: cleared, finished: finished)
    callbackOrder.append(nextID)
    callbacks.append(callback)
    return nextID
  }

  /// Removes a subscriber; returns a continuation still waiting, to be resumed with `nil`.
  mutating func remove(_ id: UInt64) -> Continuation? {
    guard let subscriber = subscribers.removeValue(forKey: id) else { return nil }
    switch subscriber {
    case .iterator(let state):
      iteratorCount -= 1
      return state.waiting
    case .callback:
      if let position = callbackOrder.firstIndex(of: id) {
        callbackOrder.remove(at: position)
        callbacks.remove(at: position)
      }
      return nil
    }
  }

  /// An iterator asks for its next value.
  mutating func next(_ id: UInt64, continuation: Continuation) -> NextAction {
    guard case .iterator(var state) = subscribers[id] else { return .resume(nil) }
    if state.cancelled { return .resume(nil) }
    precondition(state.waiting == nil, "an async iterator's next() was called concurrently")
    if let pending = state.pending {
      state.pending = nil
      if !pending.isRepeat(of: state.lastDelivered) {
        state.lastDelivered = pending
        subscribers[id] = .iterator(state)
        return .resume(pending)
      }
    }
    if state.finished {
      subscribers[id] = .iterator(state)
      return .resume(nil)
    }
    state.waiting = continuation
    subscribers[id] = .iterator(state)
    return .suspended
  }

  /// Whether this is the iterator's first claim to start the host: `true` once, unless it was cancelled.
  mutating func claimStart(_ id: UInt64) -> Bool {
    guard case .iterator(var state) = subscribers[id], !state.cancelled, !state.finished, !state.startClaimed else {
      return false
    }
    state.startClaimed = true
    subscribers[id] = .iterator(state)
    return true
  }

  /// An iterator's task was cancelled: it ends; returns the continuation to resume with `nil`.
  mutating func cancel(_ id: UInt64) -> Continuation? {
    guard case .iterator(var state) = subscribers[id] else { return nil }
    state.cancelled = true
    let waiting = state.waiting
    state.waiting = nil
    subscribers[id] = .iterator(state)
    return waiting
  }

  /// The number of values published so far: the version of the latest.
  private(set) var version: UInt64 = 0

  /// A new value: decides who gets it now and who keeps it pending.
  package mutating func publish(_ value: Element) -> Fanout {
    version += 1
    var fanout = Fanout()
    fanout.version = version
    fanout.callbacks = callbacks
    guard iteratorCount > 0 else { return fanout }
    offerToIterators(value, into: &fanout)
    return fanout
  }

  /// The iterators' part of ``publish(_:)``. Not inlined: its stack frame is sized from the runtime metadata of
  /// `CheckedContinuation`, which a publish with callbacks alone (`netstatus watch`) should not look up.
  @inline(never)
  private mutating func offerToIterators(_ value: Element, into fanout: inout Fanout) {
    // Mutate in place through `values` so that the table is not copied on every publish.
    var index = subscribers.values.startIndex
    while index != subscribers.values.endIndex {
      defer { subscribers.values.formIndex(after: &index) }
      guard case .iterator(var state) = subscribers.values[index], !state.cancelled, !state.finished else { continue }
      if let waiting = state.waiting {
        if !value.isRepeat(of: state.lastDelivered) {
          state.waiting = nil
          state.lastDelivered = value
          fanout.resumptions.append((waiting, value))
        }
      } else {
        state.pending = value
      }
      subscribers.values[index] = .iterator(state)
    }
  }

  /// The host forgot its value (a stopped ``NetworkMonitor`` no longer knows its path): a new version, and
  /// the callbacks that asked to be told. Iterators are not told: they resume with the next value.
  mutating func clear() -> ClearFanout {
    version += 1
    var fanout = ClearFanout()
    fanout.version = version
    for id in callbackOrder {
      if case .callback(_, let cleared?, _) = subscribers[id] { fanout.callbacks.append(cleared) }
    }
    return fanout
  }

  /// The host can no longer deliver (its source failed for good): every iterator subscribed now ends once it has
  /// taken what is pending for it (a waiting one at once), and the callbacks that asked are told. Iterators that
  /// subscribe later are not affected: they receive the values of the host's next start.
  package mutating func finish() -> FinishFanout {
    var fanout = FinishFanout()
    if iteratorCount > 0 {
      var index = subscribers.values.startIndex
      while index != subscribers.values.endIndex {
        defer { subscribers.values.formIndex(after: &index) }
        guard case .iterator(var state) = subscribers.values[index], !state.cancelled, !state.finished else { continue }
        state.finished = true
        if let waiting = state.waiting {
          state.waiting = nil
          fanout.waiting.append(waiting)
        }
        subscribers.values[index] = .iterator(state)
      }
    }
    for id in callbackOrder {
      if case .callback(_, _, let finished?) = subscribers[id] { fanout.callbacks.append(finished) }
    }
    return fanout
  }
}
