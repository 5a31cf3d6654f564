import NetStatus
import NetStatusTestSupport
import NetStatusTesting
import Testing

@testable import NetStatusMonitor

/// The logic behind the Combine publisher (`NetworkMonitor.pathPublisher`), tested on every platform.
@Suite("PathDemandRelay")
struct PathDemandRelayTests {
  @Test("nothing is delivered before demand; then the current path")
  func demandGatesDelivery() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      return 0
    }
    #expect(monitor.isMonitoring, "subscribing starts the monitor")
    #expect(received.count == 0)
    relay.request(1)
    #expect(received.values == [.test(.wifi)])
    withExtendedLifetime(relay) {}
  }

  @Test("without demand only the newest path is kept")
  func newestWins() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      return 0
    }
    relay.request(1)
    script.send(.offline)
    script.send(.test(.cellular))
    #expect(received.values == [.test(.wifi)])
    relay.request(5)
    #expect(received.values == [.test(.wifi), .test(.cellular)])
    script.send(.offline)
    #expect(received.values == [.test(.wifi), .test(.cellular), .offline])
    withExtendedLifetime(relay) {}
  }

  @Test("after the source fails: the last path as demand allows, then finished, once; nothing after a restart")
  func aFailedSourceFinishesAfterThePendingPath() throws {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let received = Recorder<NetworkPath>()
    let finished = Recorder<Void>()
    let relay = PathDemandRelay(
      monitor: monitor,
      deliver: { path in
        received.append(path)
        return 0
      },
      finished: { finished.append(()) })
    relay.request(1)
    #expect(received.values == [.test(.wifi)])
    script.fail(.namespaceDeleted(path: "/run/netns/gone"))
    #expect(finished.count == 0, "the unsatisfied path is pending: the end waits for it")
    relay.request(1)
    #expect(received.values == [.test(.wifi), .offline])
    #expect(finished.count == 1, "then the end")
    try monitor.start()
    script.send(.test(.cellular))
    relay.request(5)
    #expect(received.values == [.test(.wifi), .offline], "nothing follows the end")
    #expect(finished.count == 1)
    #expect(monitor.subscriberCount == 0, "the relay unsubscribed at the end")
    monitor.stop()
    withExtendedLifetime(relay) {}
  }

  @Test("a monitor that cannot start finishes the subscription at its first request, not before")
  func aMonitorThatCannotStartFinishesAtTheFirstRequest() {
    let script = ScriptedPathSource(.test(.wifi))
    script.startError = .namespaceNotFound(path: "/run/netns/nope")
    let monitor = NetworkMonitor(source: script)
    let finished = Recorder<Void>()
    let relay = PathDemandRelay(
      monitor: monitor, deliver: { _ in 0 }, finished: { finished.append(()) })
    #expect(finished.count == 0, "Combine hands the subscriber its subscription first")
    relay.request(1)
    #expect(finished.count == 1)
    relay.request(1)
    #expect(finished.count == 1, "once")
    withExtendedLifetime(relay) {}
  }

  @Test("a cancelled relay is never finished")
  func aCancelledRelayIsNeverFinished() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let finished = Recorder<Void>()
    let relay = PathDemandRelay(
      monitor: monitor, deliver: { _ in 0 }, finished: { finished.append(()) })
    relay.request(1)
    relay.cancel()
    script.fail(.sourceFailed("gone"))
    #expect(finished.count == 0)
  }

  @Test("unlimited demand delivers every change in order, without repeats")
  func unlimited() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      return 0
    }
    relay.request(.max)
    script.send(.test(.wifi))
    script.send(.offline)
    script.send(.test(.cellular))
    #expect(received.values == [.test(.wifi), .offline, .test(.cellular)])
    withExtendedLifetime(relay) {}
  }

  @Test("demand returned by the subscriber counts, and the subscriber may call back in without deadlock")
  func reentrant() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let box = Locked<PathDemandRelay?>(nil)
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      // Ask for one more from inside the delivery, as a Combine subscriber may.
      box.withLockedValue { $0 }?.request(1)
      return 0
    }
    box.withLockedValue { $0 = relay }
    relay.request(1)
    script.send(.offline)
    #expect(received.values == [.test(.wifi), .offline])
    box.withLockedValue { $0 = nil }
  }

  @Test("cancel ends the subscription and delivers nothing more; the monitor keeps running")
  func cancel() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    let received = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      return Int.max
    }
    relay.request(1)
    #expect(monitor.subscriberCount == 1)
    relay.cancel()
    #expect(monitor.subscriberCount == 0)
    script.send(.offline)
    relay.request(1)
    #expect(received.values == [.test(.wifi)])
    #expect(monitor.isMonitoring)
  }

  @Test("releasing the relay without cancelling unsubscribes: no leak")
  func releaseUnsubscribes() {
    let script = ScriptedPathSource(.test(.wifi))
    let monitor = NetworkMonitor(source: script)
    monitor.postsNotifications = false  // its subscription would count among the subscribers
    weak var weakRelay: PathDemandRelay?
    do {
      let relay = PathDemandRelay(monitor: monitor) { _ in 0 }
      weakRelay = relay
      relay.request(1)
      #expect(monitor.subscriberCount == 1)
    }
    #expect(weakRelay == nil)
    #expect(monitor.subscriberCount == 0)
  }

  @Test("paths sent from many threads: the newest last, none twice")
  func concurrentSends() async throws {
    let script = ScriptedPathSource(.test(.wifi, index: 0))
    let monitor = NetworkMonitor(source: script)
    let received = Recorder<NetworkPath>()
    let relay = PathDemandRelay(monitor: monitor) { path in
      received.append(path)
      return 0
    }
    relay.request(.max)
    await withTaskGroup(of: Void.self) { group in
      for index in 1...50 {
        group.addTask { script.send(.test(.wifi, index: index)) }
      }
    }
    let last = try #require(monitor.currentPath)
    let values = received.values
    #expect(values.last == last)
    #expect(Set(values).count == values.count, "no repeats")
    withExtendedLifetime(relay) {}
  }
}
