#if os(Linux)
  import Testing

  @testable import NetStatusCore

  /// The event hub's registry as a pure state machine: a session's states, who closes a stopped session, the
  /// shared watches, and when the loop retires, driven by hand.
  @Suite("event hub registry")
  struct NetlinkHubRegistryTests {
    /// A loop, compared by identity.
    final class Loop {}

    typealias Registry = NetlinkHubRegistry<String, Loop>

    /// A registry with a loop and one active session, named `name`.
    func activeSession(_ name: String = "a") -> (Registry, UInt64, Loop) {
      var registry = Registry()
      let loop = Loop()
      let (id, _, _) = registry.reserve(adopting: loop)
      registry.register(id, name)
      #expect(registry.enable(id) == name)
      _ = registry.activated(id, resume: false)
      return (registry, id, loop)
    }

    @Test func theFirstReservationAdoptsTheLoopAndLaterOnesShareIt() {
      var registry = Registry()
      let withoutLoop = registry.reserve()
      #expect(withoutLoop == nil, "no loop runs: the caller makes one")
      let made = Loop()
      let first = registry.reserve(adopting: made)
      #expect(first.adopted && first.loop === made)
      let second = registry.reserve(adopting: Loop())
      #expect(!second.adopted && second.loop === made, "a loop made meanwhile is not used")
      let third = registry.reserve()
      #expect(third?.loop === made)
      #expect(first.id >= 2 && second.id == first.id + 1, "IDs from 2: the loop's own tags are 0 and 1")
    }

    @Test func aSessionGoesFromStartingToRegisteredToActive() {
      var registry = Registry()
      let (id, _, _) = registry.reserve(adopting: Loop())
      guard case .starting = registry.sessions[id] else {
        Issue.record("reserved: starting")
        return
      }
      #expect(registry.enable(id) == nil, "not registered yet")
      registry.register(id, "a")
      guard case .registered("a") = registry.sessions[id] else {
        Issue.record("registered")
        return
      }
      #expect(registry.enable(id) == "a")
      let wakes = registry.activated(id, resume: false)
      #expect(!wakes, "settled: nothing to wake the thread for")
      guard case .active("a") = registry.sessions[id] else {
        Issue.record("active")
        return
      }
      #expect(registry.enable(id) == nil, "enabled once")
    }

    @Test func anUnsettledSessionIsResumedByTheThread() {
      var registry = Registry()
      let (id, _, _) = registry.reserve(adopting: Loop())
      registry.register(id, "a")
      _ = registry.enable(id)
      let wakes = registry.activated(id, resume: true)
      #expect(wakes, "wake the thread")
      let requests = registry.takeResumeRequests()
      let again = registry.takeResumeRequests()
      #expect(requests == [id])
      #expect(again.isEmpty, "taken once")
    }

    @Test func theLastSessionGoingRetiresTheLoopAndNotBefore() {
      var registry = Registry()
      let loop = Loop()
      let a = registry.reserve(adopting: loop).id
      let b = registry.reserve(adopting: loop).id
      registry.register(a, "a")
      let first = registry.remove(a)
      #expect(first.client == "a" && !first.wasActive && first.retired == nil, "b still starts")
      #expect(registry.serves(loop))
      let last = registry.remove(b)
      #expect(last.client == nil, "b had not registered a client")
      #expect(last.retired === loop)
      #expect(!registry.serves(loop) && registry.loop == nil)
      let next = registry.reserve()
      #expect(next == nil, "the next session starts a new loop")
    }

    @Test func aStopOffTheThreadClosesAnIdleSession() {
      var (registry, id, loop) = activeSession()
      guard case .remove(let removal) = registry.stop(id, onHubThread: false) else {
        Issue.record("an idle session is removed by its stopper")
        return
      }
      #expect(removal.client == "a" && removal.wasActive && removal.retired === loop && !removal.stopperWaits)
      guard case .nothing = registry.stop(id, onHubThread: false) else {
        Issue.record("a second stop finds nothing")
        return
      }
    }

    @Test func aStopFromAnotherThreadWhileTheThreadRunsItWaitsForTheThread() {
      var (registry, id, loop) = activeSession()
      let client = registry.beginWork(id)
      #expect(client == "a")
      guard case .waitForThread("a") = registry.stop(id, onHubThread: false) else {
        Issue.record("the stopper waits")
        return
      }
      #expect(registry.sessions[id] != nil, "still registered: the thread closes it")
      guard let removal = registry.endWork(ended: false) else {
        Issue.record("the thread closes it when its work returns")
        return
      }
      #expect(removal.client == "a" && removal.wasActive && removal.stopperWaits)
      #expect(removal.retired === loop, "retired with it: the waiting stopper joins the thread")
    }

    @Test func aStopFromItsOwnWorkIsCarriedOutByTheThreadAfterTheWork() {
      var (registry, id, _) = activeSession()
      _ = registry.beginWork(id)
      guard case .nothing = registry.stop(id, onHubThread: true) else {
        Issue.record("its own work cannot wait for itself")
        return
      }
      let removal = registry.endWork(ended: false)
      #expect(removal?.client == "a" && removal?.stopperWaits == false, "no one waits: the thread ends the loop")
    }

    @Test func workThatEndsTheSessionRemovesItAndOtherWorkLeavesItActive() {
      var (registry, id, _) = activeSession()
      _ = registry.beginWork(id)
      let common = registry.endWork(ended: false)
      #expect(common == nil, "the common case: nothing to carry out")
      guard case .active = registry.sessions[id] else {
        Issue.record("still active")
        return
      }
      _ = registry.beginWork(id)
      let ended = registry.endWork(ended: true)
      #expect(ended?.client == "a")
      let afterwards = registry.beginWork(id)
      #expect(afterwards == nil, "gone: its events are ignored")
    }

    @Test func workBeginsForTheSessionAskedEvenAsSessionsComeAndGo() {
      var (registry, first, _) = activeSession("a")
      guard let second = registry.reserve()?.id else {
        Issue.record("a loop runs: a second session shares it")
        return
      }
      #expect(registry.beginWork(second) == nil, "starting: not run")
      _ = registry.endWork(ended: false)
      registry.register(second, "b")
      _ = registry.activated(second, resume: false)
      for (id, name) in [(first, "a"), (first, "a"), (second, "b"), (first, "a"), (second, "b"), (second, "b")] {
        #expect(registry.beginWork(id) == name, "session \(id)")
        #expect(registry.endWork(ended: false) == nil)
      }
      guard case .remove = registry.stop(second, onHubThread: false) else {
        Issue.record("an idle session leaves at once")
        return
      }
      #expect(registry.beginWork(second) == nil, "stopped right after its last work: not run again")
      #expect(registry.beginWork(first) == "a")
      #expect(registry.endWork(ended: true)?.client == "a")
      #expect(registry.beginWork(first) == nil, "ended by its work: not run again")
    }

    @Test func aStoppedRegisteredSessionIsClosedAndNeverEnabled() {
      var registry = Registry()
      let (id, _, _) = registry.reserve(adopting: Loop())
      registry.register(id, "a")
      guard case .remove(let removal) = registry.stop(id, onHubThread: false) else {
        Issue.record("removed")
        return
      }
      #expect(removal.client == "a" && !removal.wasActive, "not in the epoll set")
      #expect(registry.enable(id) == nil, "the starter's enable finds nothing")
    }

    @Test func aStartingSessionIsNotStoppedButCancelled() {
      var registry = Registry()
      let (id, _, _) = registry.reserve(adopting: Loop())
      guard case .nothing = registry.stop(id, onHubThread: false) else {
        Issue.record("its starter cancels it")
        return
      }
      #expect(registry.sessions[id] != nil)
    }

    @Test func aSharedWatchIsRemovedWithTheLastSessionUsingIt() {
      var registry = Registry()
      let loop = Loop()
      let a = registry.reserve(adopting: loop).id
      let b = registry.reserve(adopting: loop).id
      let c = registry.reserve(adopting: loop).id
      registry.addWatch(5, for: a)
      registry.addWatch(5, for: b)
      registry.addWatch(6, for: a)
      var removed: [Int32] = []
      _ = registry.remove(a) { _, watch in removed.append(watch) }
      #expect(removed == [6], "watch 5 still serves b")
      #expect(registry.watches[5] == [b])
      _ = registry.remove(b) { _, watch in removed.append(watch) }
      #expect(removed == [6, 5])
      registry.addWatch(7, for: c)
      let last = registry.remove(c) { _, watch in removed.append(watch) }
      #expect(removed == [6, 5, 7] && last.retired === loop)
      #expect(registry.watches.isEmpty, "none left in the inotify instance kept for the next loop")
    }

    @Test func folderEventsGoToTheSessionsOfTheirWatchAndOverflowsToAll() {
      struct Event: Equatable {
        var watch: Int32
        var overflow = false
        var ignored = false
      }
      var registry = Registry()
      let loop = Loop()
      let a = registry.reserve(adopting: loop).id
      let b = registry.reserve(adopting: loop).id
      for (id, name) in [(a, "a"), (b, "b")] {
        registry.register(id, name)
        _ = registry.activated(id, resume: false)
      }
      registry.addWatch(5, for: a)
      registry.addWatch(5, for: b)
      registry.addWatch(6, for: b)
      let events = [Event(watch: 6), Event(watch: 5, ignored: true), Event(watch: -1, overflow: true), Event(watch: 9)]
      let routed = registry.route(
        events, watch: \.watch, isOverflow: \.overflow, isIgnored: \.ignored)
      #expect(routed[a] == [events[1], events[2]])
      #expect(routed[b] == [events[0], events[1], events[2]])
      #expect(registry.watches[5] == nil, "removed by the kernel: its number may be reused")
      #expect(registry.takeRescanRequests().isEmpty, "active sessions missed nothing")
    }

    /// A session makes its watches and reads its folders while it starts, before the thread runs it: events then
    /// cannot be handed to it, so it reads its folders again once active. Before, they were dropped, and a file
    /// written in that window (networkd's `configured` after `configuring`) kept its old content for good.
    @Test func aSessionThatMissedFolderEventsWhileStartingReadsItsFoldersOnceActive() {
      struct Event: Equatable { var watch: Int32 }
      var registry = Registry()
      let loop = Loop()
      let starting = registry.reserve(adopting: loop).id
      let registered = registry.reserve(adopting: loop).id
      let quiet = registry.reserve(adopting: loop).id
      registry.register(registered, "registered")
      registry.register(quiet, "quiet")
      registry.addWatch(5, for: starting)
      registry.addWatch(5, for: registered)
      let routed = registry.route(
        [Event(watch: 5)], watch: \.watch, isOverflow: { _ in false }, isIgnored: { _ in false })
      #expect(routed.isEmpty, "no session runs yet")
      #expect(registry.missedFolderEvents == [starting, registered])
      #expect(registry.activated(quiet, resume: false) == false, "missed nothing: no wake")
      let woken = registry.activated(registered, resume: false)
      #expect(woken, "the thread is woken to hand it an overflow")
      #expect(registry.takeRescanRequests() == [registered])
      #expect(registry.takeRescanRequests().isEmpty, "once")
      registry.register(starting, "starting")
      _ = registry.activated(starting, resume: true)
      let (rescans, resumes) = (registry.takeRescanRequests(), registry.takeResumeRequests())
      #expect(rescans == [starting] && resumes == [starting])
      // A session given up while starting leaves nothing to rescan.
      let gone = registry.reserve(adopting: loop).id
      registry.addWatch(7, for: gone)
      _ = registry.route([Event(watch: 7)], watch: \.watch, isOverflow: { _ in false }, isIgnored: { _ in false })
      _ = registry.remove(gone)
      #expect(!registry.missedFolderEvents.contains(gone))
    }
  }
#endif
