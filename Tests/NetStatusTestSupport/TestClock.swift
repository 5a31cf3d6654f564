import NetStatusCore

/// A clock that moves only when a test says so: ``advance(by:)`` moves ``now`` and resumes every sleeper whose
/// deadline has come, in deadline order. Nothing sleeps for real, so a test of held changes is instant and
/// deterministic.
package final class TestClock: Clock, Sendable {
  /// An instant: the time since the clock's zero.
  package struct Instant: InstantProtocol, CustomStringConvertible {
    package var offset: Duration

    package init(offset: Duration) {
      self.offset = offset
    }

    package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    package func duration(to other: Instant) -> Duration { other.offset - offset }
    package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    package var description: String { "\(offset)" }
  }

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var nextID: UInt64 = 0
    var cancelled: Set<UInt64> = []
  }

  private let state = Locked(State())
  /// The number of sleepers, so that a test can await a timer's start without sleeping.
  package let sleeperCounts = Recorder<Int>()

  package init() {}

  package var now: Instant { state.withLockedValue { $0.now } }
  package var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on this clock.
  package var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }

  package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLockedValue { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLockedValue { state -> (resume: Result<Void, any Error>?, count: Int?) in
          if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), nil) }
          if deadline <= state.now { return (.success(()), nil) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, state.sleepers.count)
        }
        if let resume = outcome.resume { continuation.resume(with: resume) }
        if let count = outcome.count { sleeperCounts.append(count) }
      }
    } onCancel: {
      let sleeper = state.withLockedValue { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and resumes the sleepers whose deadline has come.
  package func advance(by duration: Duration) {
    let due = state.withLockedValue { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}
