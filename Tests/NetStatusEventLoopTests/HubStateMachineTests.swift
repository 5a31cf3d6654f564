import Testing

@testable import NetStatusEventLoop

/// The rtnetlink event loop's state machine, driven by hand: a session's states, a stop in every phase, the shared
/// watches, folder events, and who waits for a close. One test per rule.
@Suite("event loop state machine")
struct HubStateMachineTests {
  /// A session's client, compared by name.
  final class Client: Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    static func == (lhs: Client, rhs: Client) -> Bool { lhs.name == rhs.name }
    var description: String { name }
  }

  struct Event: Equatable {
    var watch: Int32
    var overflow = false
    var ignored = false
  }

  typealias Machine = HubStateMachine<Client, Event>

  /// A machine with session `id` active, its client named `name`.
  static func active(_ id: UInt64 = 2, _ name: String = "a", in machine: inout Machine) {
    machine.reserve(id)
    machine.register(id, client: Client(name))
    #expect(machine.activate(id) == Client(name))
    _ = machine.activated(id, resume: false)
  }

  /// One work of session `id` as the loop runs it (`ending`: the work fails): the client it ran, `nil` when the
  /// session was not run; and the removal its end leaves to carry out, `nil` in the common case.
  static func work(
    _ id: UInt64, ending: Bool = false, in machine: inout Machine
  ) -> (ran: Client?, removal: Machine.Removal?) {
    guard let client = machine.beginWork(id) else { return (nil, nil) }
    return (client, machine.endWork(ended: ending))
  }

  static func route(_ events: [Event], in machine: inout Machine) -> [UInt64: [Event]] {
    machine.route(events, watch: \.watch, isOverflow: \.overflow, isIgnored: \.ignored)
  }

  // MARK: A session's life

  @Test func aSessionGoesFromStartingToRegisteredToActive() {
    var machine = Machine()
    machine.reserve(2)
    guard case .starting = machine.session(2) else {
      Issue.record("reserved: starting")
      return
    }
    #expect(machine.activate(2) == nil, "not registered yet")
    machine.register(2, client: Client("a"))
    guard case .registered(Client("a")) = machine.session(2) else {
      Issue.record("registered")
      return
    }
    #expect(machine.activate(2) == Client("a"))
    let next = machine.activated(2, resume: false)
    #expect(next == (false, false), "settled, missed nothing: no work to run at once")
    guard case .active(Client("a")) = machine.session(2) else {
      Issue.record("active")
      return
    }
    #expect(machine.activate(2) == nil, "activated once")
  }

  @Test func anUnsettledSessionRunsAtOnceWhenActivated() {
    var machine = Machine()
    machine.reserve(2)
    machine.register(2, client: Client("a"))
    let next = machine.activated(2, resume: true)
    #expect(next == (true, false))
  }

  @Test func theLoopIsEmptyOnlyWhenNoSessionStartsOrRuns() {
    var machine = Machine()
    #expect(machine.isEmpty)
    machine.reserve(2)
    #expect(!machine.isEmpty, "a starting session keeps the loop")
    Self.active(3, "b", in: &machine)
    _ = machine.remove(2)
    #expect(!machine.isEmpty)
    _ = machine.remove(3)
    #expect(machine.isEmpty, "the last session gone: the loop may retire")
  }

  // MARK: Stop, in every phase

  @Test func aStopWhileStartingLeavesNothingToClose() {
    var machine = Machine()
    machine.reserve(2)
    machine.addWatch(5, for: 2)
    guard case .removed(let removal) = machine.stop(2) else {
      Issue.record("removed")
      return
    }
    #expect(removal.client == nil && !removal.wasActive, "no client yet: its starter closes what it opened")
    #expect(removal.watches == [5])
    #expect(machine.isEmpty)
  }

  @Test func aStopOfARegisteredSessionClosesItAndItsActivationFindsNothing() {
    var machine = Machine()
    machine.reserve(2)
    machine.register(2, client: Client("a"))
    guard case .removed(let removal) = machine.stop(2) else {
      Issue.record("removed")
      return
    }
    #expect(removal.client == Client("a") && !removal.wasActive, "closed, not in the epoll set")
    #expect(machine.activate(2) == nil, "its activation, which may come later, finds nothing")
    let next = machine.activated(2, resume: true)
    #expect(next == (false, false))
  }

  @Test func aStopOfAnIdleActiveSessionClosesItNow() {
    var machine = Machine()
    Self.active(in: &machine)
    guard case .removed(let removal) = machine.stop(2) else {
      Issue.record("removed")
      return
    }
    #expect(removal.client == Client("a") && removal.wasActive, "out of the epoll set, then closed")
    guard case .nothing = machine.stop(2) else {
      Issue.record("a second stop finds nothing")
      return
    }
    let begun = machine.beginWork(2)
    #expect(begun == nil, "never run again")
  }

  @Test func aStopFromInsideItsOwnWorkTakesEffectWhenTheWorkReturns() {
    var machine = Machine()
    Self.active(in: &machine)
    let begun = machine.beginWork(2)
    #expect(begun == Client("a"))
    guard case .afterItsWork = machine.stop(2) else {
      Issue.record("its own work cannot close it")
      return
    }
    #expect(machine.runningWasStopped)
    #expect(machine.session(2) != nil, "still there while the work runs")
    let removal = machine.endWork(ended: false)
    #expect(removal?.client == Client("a") && removal?.wasActive == true)
    #expect(machine.session(2) == nil)
  }

  @Test func aStopOfAnotherSessionFromInsideAWorkClosesItNow() {
    var machine = Machine()
    Self.active(2, "a", in: &machine)
    Self.active(3, "b", in: &machine)
    _ = machine.beginWork(2)
    guard case .removed(let removal) = machine.stop(3) else {
      Issue.record("b is idle: closed now")
      return
    }
    #expect(removal.client == Client("b"))
    let ended = machine.endWork(ended: false)
    #expect(ended == nil, "a's work goes on")
  }

  @Test func workThatEndsTheSessionRemovesItAndOtherWorkLeavesItActive() {
    var machine = Machine()
    Self.active(in: &machine)
    let common = Self.work(2, in: &machine)
    #expect(common.ran == Client("a") && common.removal == nil, "the common case: nothing to carry out")
    guard case .active = machine.session(2) else {
      Issue.record("still active")
      return
    }
    let failed = Self.work(2, ending: true, in: &machine)
    #expect(failed.removal?.client == Client("a"))
    #expect(Self.work(2, in: &machine).ran == nil, "gone: its events are ignored")
  }

  @Test func workBeginsForTheSessionAskedEvenAsSessionsComeAndGo() {
    var machine = Machine()
    Self.active(2, "a", in: &machine)
    machine.reserve(3)
    #expect(Self.work(3, in: &machine).ran == nil, "starting: not run")
    machine.register(3, client: Client("b"))
    _ = machine.activated(3, resume: false)
    for (id, name) in [(2, "a"), (2, "a"), (3, "b"), (2, "a"), (3, "b"), (3, "b")] as [(UInt64, String)] {
      let work = Self.work(id, in: &machine)
      #expect(work.ran == Client(name) && work.removal == nil, "session \(id)")
    }
    guard case .removed = machine.stop(3) else {
      Issue.record("an idle session leaves at once")
      return
    }
    #expect(Self.work(3, in: &machine).ran == nil, "stopped right after its last work: not run again")
    #expect(Self.work(2, ending: true, in: &machine).removal?.client == Client("a"))
    #expect(Self.work(2, in: &machine).ran == nil, "ended by its work: not run again")
  }

  // MARK: Waiting for a close

  @Test func aWaiterIsAnsweredWhenTheSessionCloses() {
    var machine = Machine()
    Self.active(in: &machine)
    let waits = !machine.awaitClose(2, ticket: 10)
    #expect(waits, "open: the waiter waits")
    let waits2 = !machine.awaitClose(2, ticket: 11)
    #expect(waits2)
    _ = machine.beginWork(2)
    let ended = machine.endWork(ended: true)
    #expect(ended?.waiters == [10, 11], "closed by a failure: both answered")
    let answeredNow = machine.awaitClose(2, ticket: 12)
    #expect(answeredNow, "closed already: answered at once")
    let answeredNow2 = machine.awaitClose(99, ticket: 13)
    #expect(answeredNow2, "never was: answered at once")
  }

  // MARK: Watches

  @Test func aSharedWatchIsRemovedWithTheLastSessionUsingIt() {
    var machine = Machine()
    for id: UInt64 in [2, 3, 4] { machine.reserve(id) }
    machine.addWatch(5, for: 2)
    machine.addWatch(5, for: 3)
    machine.addWatch(6, for: 2)
    let removal = machine.remove(2)
    #expect(removal.watches == [6], "watch 5 still serves 3")
    #expect(machine.sessions(watching: 5) == [3])
    let removal2 = machine.remove(3)
    #expect(removal2.watches == [5])
    machine.addWatch(7, for: 4)
    let removal3 = machine.remove(4)
    #expect(removal3.watches == [7])
    #expect(machine.isUnused(5) && machine.isUnused(7))
  }

  @Test func theLastSessionGoingLeavesNoWatchForTheNextLoop() {
    var machine = Machine()
    machine.reserve(2)
    machine.addWatch(5, for: 2)
    machine.reserve(3)
    machine.addWatch(8, for: 3)
    _ = machine.remove(3)
    let last = machine.remove(2)
    #expect(Set(last.watches) == [5], "none left in the inotify instance kept for the next loop")
    #expect(machine.isUnused(5))
  }

  @Test func aWatchForAnUnknownSessionIsNotRecorded() {
    var machine = Machine()
    machine.addWatch(5, for: 2)
    #expect(machine.isUnused(5), "the caller removes it from the instance")
  }

  // MARK: Folder events

  @Test func folderEventsGoToTheSessionsOfTheirWatchAndOverflowsToAll() {
    var machine = Machine()
    Self.active(2, "a", in: &machine)
    Self.active(3, "b", in: &machine)
    machine.addWatch(5, for: 2)
    machine.addWatch(5, for: 3)
    machine.addWatch(6, for: 3)
    let events = [Event(watch: 6), Event(watch: 5, ignored: true), Event(watch: -1, overflow: true), Event(watch: 9)]
    let routed = Self.route(events, in: &machine)
    #expect(routed[2] == [events[1], events[2]])
    #expect(routed[3] == [events[0], events[1], events[2]])
    #expect(machine.sessions(watching: 5).isEmpty, "removed by the kernel: its number may be reused")
  }

  /// A session makes its watches and reads its folders while it starts, before the loop runs it: events then
  /// cannot be handed to it, so it reads its folders again once active. Dropped, a file written in that window
  /// (networkd's `configured` after `configuring`) would keep its old content for good.
  @Test func aSessionThatMissedFolderEventsWhileStartingRereadsItsFoldersOnceActive() {
    var machine = Machine()
    for id: UInt64 in [2, 3, 4] { machine.reserve(id) }
    machine.register(3, client: Client("registered"))
    machine.register(4, client: Client("quiet"))
    machine.addWatch(5, for: 2)
    machine.addWatch(5, for: 3)
    #expect(Self.route([Event(watch: 5)], in: &machine).isEmpty, "no session runs yet")
    #expect(machine.missedFolderEvents == [2, 3])
    let next = machine.activated(4, resume: false)
    #expect(next == (false, false), "missed nothing")
    let next2 = machine.activated(3, resume: false)
    #expect(next2 == (false, true), "rereads its folders")
    machine.register(2, client: Client("starting"))
    let next3 = machine.activated(2, resume: true)
    #expect(next3 == (true, true))
    #expect(machine.missedFolderEvents.isEmpty, "once")
    // A session given up while starting leaves nothing to reread.
    machine.reserve(6)
    machine.addWatch(7, for: 6)
    _ = Self.route([Event(watch: 7)], in: &machine)
    _ = machine.remove(6)
    #expect(!machine.missedFolderEvents.contains(6))
  }

  // MARK: Waiting for the kernel

  /// One work of session `id` that waits for the kernel until `deadline` (`nil`: the work did not wait).
  static func work(_ id: UInt64, waitingUntil deadline: UInt64?, in machine: inout Machine) -> Machine.Removal? {
    guard machine.beginWork(id) != nil else { return nil }
    return machine.endWork(ended: false, waitingUntil: deadline)
  }

  @Test func aWorkThatWaitsArmsADeadlineAndTheNextWorkThatDoesNotDropsIt() {
    var machine = Machine()
    Self.active(2, "a", in: &machine)
    Self.active(3, "b", in: &machine)
    #expect(machine.nextDeadline == nil, "no session waits: the loop may wait for readiness without end")
    #expect(Self.work(2, waitingUntil: 500, in: &machine) == nil)
    #expect(Self.work(3, waitingUntil: 300, in: &machine) == nil)
    #expect(machine.nextDeadline == 300, "the earliest")
    #expect(Self.work(2, waitingUntil: 800, in: &machine) == nil, "still waiting: a new deadline replaces the old")
    #expect(Self.work(3, waitingUntil: nil, in: &machine) == nil, "b's answers came")
    #expect(machine.nextDeadline == 800)
    #expect(machine.expireDeadlines(at: 799).isEmpty, "not yet")
  }

  @Test func deadlinesExpireInTheirOrderAndOnce() {
    var machine = Machine()
    for (id, name) in [(2, "a"), (3, "b"), (4, "c")] as [(UInt64, String)] { Self.active(id, name, in: &machine) }
    _ = Self.work(4, waitingUntil: 100, in: &machine)
    _ = Self.work(2, waitingUntil: 200, in: &machine)
    _ = Self.work(3, waitingUntil: 100, in: &machine)
    #expect(machine.expireDeadlines(at: 150) == [3, 4], "earliest first, then by ID")
    #expect(machine.expireDeadlines(at: 150).isEmpty, "expired once")
    #expect(machine.nextDeadline == 200)
    #expect(machine.expireDeadlines(at: 1_000) == [2])
    #expect(machine.nextDeadline == nil)
  }

  @Test func aSessionThatLeavesWhileWaitingTakesItsDeadlineAlong() {
    var machine = Machine()
    Self.active(2, "a", in: &machine)
    Self.active(3, "b", in: &machine)
    _ = Self.work(2, waitingUntil: 100, in: &machine)
    _ = Self.work(3, waitingUntil: 200, in: &machine)
    guard case .removed(let removal) = machine.stop(2) else {
      Issue.record("a waiting session is idle between its works: a stop closes it at once")
      return
    }
    #expect(removal.client == Client("a"))
    #expect(machine.nextDeadline == 200, "a's deadline went with it")
    // Stopped from inside the work that would have waited: it leaves, and waits for nothing.
    _ = machine.beginWork(3)
    guard case .afterItsWork = machine.stop(3) else {
      Issue.record("stopped from inside its work")
      return
    }
    #expect(machine.endWork(ended: false, waitingUntil: 900)?.client == Client("b"))
    #expect(machine.nextDeadline == nil)
    #expect(machine.expireDeadlines(at: 1_000).isEmpty)
  }
}
