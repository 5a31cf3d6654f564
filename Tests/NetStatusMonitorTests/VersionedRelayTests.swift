import Dispatch
import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusMonitor

extension Int: FanOutElement {}

/// The one subscription idiom: ``VersionedRelay`` and ``BroadcastHost/addRelayedSubscriber``.
@Suite("VersionedRelay")
struct VersionedRelayTests {
  @Test("changes: in version order, without repeats; an equal version is not a repeat of another value")
  func changesInOrder() {
    let emitted = Recorder<Int>()
    let relay = VersionedRelay<Int> { emitted.append($0) }
    relay.offer(1, version: 5)
    relay.offer(0, version: 4)  // older: dropped
    relay.offer(1, version: 6)  // a repeat: dropped
    relay.offer(2, version: 7)
    relay.offer(2, version: 7)  // the same again (the current value offered after a callback): dropped
    relay.offer(3, version: 9)
    relay.offer(4, version: 8)  // late: dropped
    #expect(emitted.values == [1, 2, 3])
  }

  @Test("newerVersions: repeats pass, older and equal versions do not, and emission is outside the lock")
  func newerVersions() {
    let emitted = Recorder<Int>()
    let relay = Locked<VersionedRelay<Int>?>(nil)
    let made = VersionedRelay<Int>(delivery: .newerVersions) { (value: Int) in
      emitted.append(value)
      // Re-entering the relay from its consumer must not deadlock: the lock is released before emitting.
      if value == 1 { relay.withLockedValue { $0 }?.offer(9, version: 1) }
    }
    relay.withLockedValue { $0 = made }
    // The relay's consumer holds the box that holds the relay: emptied at the end, or the cycle leaks (LSan).
    defer { relay.withLockedValue { $0 = nil } }
    made.offer(1, version: 1)
    made.offer(1, version: 2)
    made.offer(5, version: 2)
    made.offer(0, version: 1)
    made.offer(3, version: 4)
    #expect(emitted.values == [1, 1, 3])
  }

  @Test("changes: a consumer may offer to its own relay from inside a delivery; the value follows, in order")
  func reentrantChanges() {
    let emitted = Recorder<Int>()
    let relay = Locked<VersionedRelay<Int>?>(nil)
    let made = VersionedRelay<Int> { (value: Int) in
      // Under the relay's lock this would deadlock; it is queued for this thread instead.
      if value < 3 { relay.withLockedValue { $0 }?.offer(value + 1, version: UInt64(value + 1)) }
      emitted.append(value)
    }
    relay.withLockedValue { $0 = made }
    defer { relay.withLockedValue { $0 = nil } }  // breaks the relay ↔ consumer cycle (LSan)
    made.offer(1, version: 1)
    #expect(emitted.values == [1, 2, 3], "each value after the delivery it was offered from")
    made.offer(2, version: 2)  // older than the newest accepted: dropped
    made.offer(4, version: 4)
    #expect(emitted.values == [1, 2, 3, 4])
  }

  @Test("a synchronous subscriber can make its source publish from inside its handler")
  func publishingFromInsideADelivery() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let id = monitor.addSynchronousSubscriber { path in
      received.append(path)
      if path == .offline { script.send(.test(.cellular)) }
    }
    script.send(.offline)
    #expect(received.values == [.test(.wifi), .offline, .test(.cellular)])
    monitor.removeSynchronousSubscriber(id)
    monitor.stopMonitoring()
  }

  @Test("a clearing is ordered with the values; after it the last value is passed on again")
  func clearing() {
    for delivery in [VersionedRelay<Int>.Delivery.changes, .newerVersions] {
      let events = Recorder<Int?>()
      let relay = VersionedRelay<Int>(delivery: delivery, cleared: { events.append(nil) }, { events.append($0) })
      relay.offer(1, version: 1)
      relay.clear(version: 2)
      relay.clear(version: 2)
      relay.offer(1, version: 1)  // older than the clearing: dropped
      relay.offer(1, version: 3)
      relay.clear(version: 3)  // not newer: dropped
      #expect(events.values == [1, nil, 1], "\(delivery)")
    }
    let silent = Recorder<Int>()
    let relay = VersionedRelay<Int> { silent.append($0) }
    relay.offer(1, version: 1)
    relay.clear(version: 2)  // no `cleared`: ignored, and the next 1 is still a repeat
    relay.offer(1, version: 3)
    #expect(silent.values == [1])
  }

  @Test("changes: values offered from many threads at once come out in increasing version order")
  func concurrentOffers() {
    let emitted = Recorder<Int>()
    let relay = VersionedRelay<Int> { emitted.append($0) }
    DispatchQueue.concurrentPerform(iterations: 2000) { version in
      relay.offer(version, version: UInt64(version))
    }
    let values = emitted.values
    #expect(!values.isEmpty)
    #expect(values == values.sorted() && Set(values).count == values.count, "strictly increasing")
    #expect(values.last == 1999, "the newest is never lost")
  }

  @Test("a subscription gets the current value first, once, then every change")
  func currentThenChanges() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let registration = monitor.addRelayedSubscriber { received.append($0) }
    #expect(monitor.isMonitoring, "registering lets the host start")
    #expect(registration.current == .test(.wifi))
    #expect(received.values == [.test(.wifi)])
    script.send(.test(.wifi))
    script.send(.offline)
    script.send(.test(.cellular))
    #expect(received.values == [.test(.wifi), .offline, .test(.cellular)])
    monitor.removeSubscriber(registration.id)
    script.send(.offline)
    #expect(received.values.count == 3, "nothing after removal")
  }

  @Test("a transformed subscription drops repeats of the transformed value")
  func transformed() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<Bool>()
    let registration = monitor.addRelayedSubscriber(\.isConnected) { received.append($0) }
    script.send(.test(.cellular))
    script.send(.offline)
    script.send(.test(.wiredEthernet))
    #expect(received.values == [true, false, true])
    monitor.removeSubscriber(registration.id)
  }

  @Test("registered sees the id before the current value is offered; refusing removes the subscription")
  func registeredHook() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    // Started first: a host starting during registration reports its path from there, before `registered`.
    monitor.startMonitoring()
    let events = Recorder<String>()
    let kept = monitor.addRelayedSubscriber(
      registered: { id in
        events.append("registered \(id)")
        return true
      },
      deliver: { _ in events.append("delivered") })
    #expect(events.values == ["registered \(kept.id)", "delivered"])
    let before = monitor.subscriberCount
    let refused = Recorder<NetworkPath>()
    let result = monitor.addRelayedSubscriber(registered: { _ in false }, deliver: { refused.append($0) })
    #expect(result.current == nil)
    #expect(monitor.subscriberCount == before, "removed at once")
    script.send(.offline)
    #expect(refused.values.isEmpty)
    monitor.removeSubscriber(kept.id)
  }

  @Test("cleared is called when the monitor stops and forgets its path")
  func clearedOnStop() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let events = Recorder<NetworkPath?>()
    let registration = monitor.addRelayedSubscriber(
      delivery: .newerVersions, cleared: { events.append(nil) }, deliver: { events.append($0) })
    monitor.stopMonitoring()
    monitor.startMonitoring()
    #expect(events.values.first == .test(.wifi))
    #expect(events.values.dropFirst().first == .some(nil), "the clearing, after the path")
    monitor.removeSubscriber(registration.id)
  }
}
