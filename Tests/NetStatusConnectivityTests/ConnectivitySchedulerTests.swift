import Testing

@testable import NetStatusConnectivity

/// The scheduling rules, on the pure state machine: no clocks, so backoff timing is exact.
@Suite("Connectivity scheduler")
struct ConnectivitySchedulerTests {
  typealias Action = ConnectivityScheduler.Action

  static let wifi = NetworkPath.test(.wifi, index: 3)
  /// The same interface, with a change elsewhere (an IPv6 address appeared).
  static let wifiWithIPv6: NetworkPath = {
    var path = NetworkPath.test(.wifi, index: 3)
    path.supportsIPv6 = true
    return path
  }()
  static let ethernet = NetworkPath.test(.wiredEthernet, index: 4)

  func scheduler(recheck: Duration? = nil, cap: Duration = .seconds(8)) -> ConnectivityScheduler {
    ConnectivityScheduler(
      settleDelay: .milliseconds(250), initialBackoff: .seconds(1), maximumBackoff: cap, recheckInterval: recheck)
  }

  func check(_ state: ConnectivityState) -> ConnectivityCheck {
    ConnectivityCheck(state: state, detail: "test", interface: "wlan0", duration: .milliseconds(10))
  }

  /// The id of the probe the actions start.
  func probeID(_ actions: [Action], sourceLocation: SourceLocation = #_sourceLocation) -> UInt64 {
    for case .startProbe(let id, _) in actions { return id }
    Issue.record("no probe started: \(actions)", sourceLocation: sourceLocation)
    return 0
  }

  /// The timer the actions start.
  func timer(_ actions: [Action], sourceLocation: SourceLocation = #_sourceLocation) -> (
    id: UInt64, delay: Duration, purpose: ConnectivityScheduler.TimerPurpose
  )? {
    for case .startTimer(let id, let delay, let purpose) in actions { return (id, delay, purpose) }
    return nil
  }

  @Test func theFirstSatisfiedPathIsProbedAtOnce() {
    var scheduler = scheduler()
    #expect(scheduler.handle(.path(Self.wifi)) == [.startProbe(id: 1, path: Self.wifi)])
    #expect(scheduler.state == .unknown)
  }

  @Test func aForgottenPathIsUnknownAndTheSamePathIsProbedAtOnceWhenItComesBack() {
    var scheduler = scheduler()
    let id = probeID(scheduler.handle(.path(Self.wifi)))
    _ = scheduler.handle(.probeFinished(id, check(.full)))
    #expect(scheduler.state == .full)
    // The path monitor stopped: nothing is known, nothing is pending.
    #expect(scheduler.handle(.pathForgotten) == [.publish(.unknown)])
    #expect(scheduler.path == nil && scheduler.probeInFlight == nil && scheduler.timer == nil)
    #expect(scheduler.handle(.recheckRequested) == [], "no path, no probe")
    // It started again with the very same path: a first path, probed at once (no settle delay).
    let again = scheduler.handle(.path(Self.wifi))
    #expect(again == [.startProbe(id: id + 1, path: Self.wifi)])
    // Forgotten with a probe in flight: the probe is cancelled.
    #expect(scheduler.handle(.pathForgotten) == [.cancelProbe])
    #expect(scheduler.state == .unknown)
  }

  @Test func noPathMeansNoneAndNothingSent() {
    var scheduler = scheduler()
    #expect(scheduler.handle(.path(.offline)) == [.publish(.noPath)])
    #expect(scheduler.probeInFlight == nil && scheduler.timer == nil)
    #expect(scheduler.handle(.path(NetworkPath(status: .requiresConnection))) == [], "still none, still silent")
  }

  @Test func backoffStartsAtOneSecondAndDoublesUpToTheCap() {
    var scheduler = scheduler(cap: .seconds(8))
    var id = probeID(scheduler.handle(.path(Self.wifi)))
    var delays: [Duration] = []
    for attempt in 0..<6 {
      let actions = scheduler.handle(.probeFinished(id, check(.limited)))
      #expect(actions.first == .record(check(.limited)))
      #expect(actions.contains(.publish(.limited)) == (attempt == 0), "published once: \(actions)")
      guard let retry = timer(actions) else {
        Issue.record("no retry timer after a limited check: \(actions)")
        return
      }
      #expect(retry.purpose == .retry)
      delays.append(retry.delay)
      id = probeID(scheduler.handle(.timerFired(retry.id)))
    }
    #expect(delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
  }

  @Test func nothingMoreWhileFullUnlessAsked() {
    var idle = scheduler()
    let id = probeID(idle.handle(.path(Self.wifi)))
    #expect(idle.handle(.probeFinished(id, check(.full))) == [.record(check(.full)), .publish(.full)])
    #expect(idle.timer == nil && idle.probeInFlight == nil, "no timer, no probe: no polling while full")

    var polling = scheduler(recheck: .seconds(600))
    let first = probeID(polling.handle(.path(Self.wifi)))
    let actions = polling.handle(.probeFinished(first, check(.full)))
    #expect(timer(actions)?.delay == .seconds(600))
    #expect(timer(actions)?.purpose == .recheck)
  }

  @Test func aFullAnswerResetsTheBackoff() {
    var scheduler = scheduler()
    var id = probeID(scheduler.handle(.path(Self.wifi)))
    for _ in 0..<3 {
      let retry = timer(scheduler.handle(.probeFinished(id, check(.portal(redirect: nil)))))!
      id = probeID(scheduler.handle(.timerFired(retry.id)))
    }
    #expect(scheduler.backoff == .seconds(8))
    _ = scheduler.handle(.probeFinished(id, check(.full)))
    #expect(scheduler.backoff == .seconds(1))
  }

  @Test func aPathChangeCancelsTheProbeInFlightAndSettlesFirst() {
    var scheduler = scheduler()
    let first = probeID(scheduler.handle(.path(Self.wifi)))
    let changed = scheduler.handle(.path(Self.wifiWithIPv6))
    #expect(changed == [.cancelProbe, .startTimer(id: 2, after: .milliseconds(250), purpose: .settle)])
    #expect(scheduler.handle(.probeFinished(first, check(.full))) == [], "a cancelled probe's answer is dropped")
    #expect(scheduler.state == .unknown)
    #expect(scheduler.handle(.timerFired(2)) == [.startProbe(id: 3, path: Self.wifiWithIPv6)])
  }

  @Test func aBurstOfChangesLeadsToOneProbe() {
    var scheduler = scheduler()
    let first = probeID(scheduler.handle(.path(Self.wifi)))
    _ = scheduler.handle(.probeFinished(first, check(.full)))
    let a = timer(scheduler.handle(.path(Self.wifiWithIPv6)))!
    let b = scheduler.handle(.path(Self.wifi))
    #expect(b == [.cancelTimer, .startTimer(id: a.id + 1, after: .milliseconds(250), purpose: .settle)])
    #expect(scheduler.handle(.timerFired(a.id)) == [], "the superseded timer does nothing")
    #expect(scheduler.handle(.timerFired(a.id + 1)) == [.startProbe(id: a.id + 2, path: Self.wifi)])
  }

  @Test func losingThePathCancelsEverythingAndIsNone() {
    var scheduler = scheduler()
    let id = probeID(scheduler.handle(.path(Self.wifi)))
    #expect(scheduler.handle(.path(.offline)) == [.cancelProbe, .publish(.noPath)])
    #expect(scheduler.handle(.probeFinished(id, check(.full))) == [])
    #expect(scheduler.state == .noPath)

    // Limited with a retry pending, then the path goes: the retry is cancelled.
    var retrying = self.scheduler()
    let probe = probeID(retrying.handle(.path(Self.wifi)))
    let retry = timer(retrying.handle(.probeFinished(probe, check(.limited))))!
    #expect(retrying.handle(.path(.offline)) == [.cancelTimer, .publish(.noPath)])
    #expect(retrying.handle(.timerFired(retry.id)) == [])
  }

  @Test func fromNoneBackToAPathIsUnknownUntilChecked() {
    var scheduler = scheduler()
    _ = scheduler.handle(.path(.offline))
    let actions = scheduler.handle(.path(Self.wifi))
    #expect(actions == [.publish(.unknown), .startTimer(id: 1, after: .milliseconds(250), purpose: .settle)])
  }

  @Test func theVerdictHoldsOnTheSameInterfaceOnly() {
    var scheduler = scheduler()
    let id = probeID(scheduler.handle(.path(Self.wifi)))
    _ = scheduler.handle(.probeFinished(id, check(.full)))
    #expect(!scheduler.handle(.path(Self.wifiWithIPv6)).contains { if case .publish = $0 { true } else { false } })
    #expect(scheduler.state == .full, "an address change on the same interface does not flicker the state")
    #expect(scheduler.handle(.path(Self.ethernet)).contains(.publish(.unknown)), "another interface: not known yet")
  }

  @Test func theBackoffRestartsOnAPathChange() {
    var scheduler = scheduler()
    var id = probeID(scheduler.handle(.path(Self.wifi)))
    for _ in 0..<3 {
      let retry = timer(scheduler.handle(.probeFinished(id, check(.limited))))!
      id = probeID(scheduler.handle(.timerFired(retry.id)))
    }
    let settle = timer(scheduler.handle(.path(Self.ethernet)))!
    id = probeID(scheduler.handle(.timerFired(settle.id)))
    #expect(timer(scheduler.handle(.probeFinished(id, check(.limited))))?.delay == .seconds(1))
  }

  @Test func aLocalFailureKeepsTheVerdictAndRetries() {
    var scheduler = scheduler()
    var id = probeID(scheduler.handle(.path(Self.wifi)))
    _ = scheduler.handle(.probeFinished(id, check(.portal(redirect: "http://p/"))))
    id = probeID(scheduler.handle(.timerFired(scheduler.timer!.id)))
    let actions = scheduler.handle(.probeFinished(id, check(.unknown)))
    #expect(actions.first == .record(check(.unknown)))
    #expect(!actions.contains { if case .publish = $0 { true } else { false } })
    #expect(scheduler.state == .portal(redirect: "http://p/"))
    #expect(timer(actions)?.purpose == .retry)
  }

  @Test func aRecheckProbesNowAndRestartsTheBackoff() {
    var scheduler = scheduler()
    #expect(scheduler.handle(.recheckRequested) == [], "no path: nothing to check")
    let id = probeID(scheduler.handle(.path(Self.wifi)))
    let retry = timer(scheduler.handle(.probeFinished(id, check(.portal(redirect: nil)))))!
    #expect(scheduler.backoff == .seconds(2))
    #expect(scheduler.handle(.recheckRequested) == [.cancelTimer, .startProbe(id: retry.id + 1, path: Self.wifi)])
    #expect(scheduler.backoff == .seconds(1))
  }

  @Test func stoppingCancelsEverythingAndForgets() {
    var scheduler = scheduler()
    let id = probeID(scheduler.handle(.path(Self.wifi)))
    _ = scheduler.handle(.probeFinished(id, check(.limited)))
    #expect(scheduler.handle(.stopped) == [.cancelTimer, .publish(.unknown)])
    #expect(scheduler.path == nil)
    #expect(scheduler.handle(.path(Self.wifi)).last == .startProbe(id: 3, path: Self.wifi), "after a restart: at once")
  }

  @Test func aZeroSettleDelayProbesAtOnce() {
    var scheduler = ConnectivityScheduler(
      settleDelay: .zero, initialBackoff: .seconds(1), maximumBackoff: .seconds(1), recheckInterval: nil)
    _ = scheduler.handle(.path(Self.wifi))
    #expect(scheduler.handle(.path(Self.ethernet)) == [.cancelProbe, .startProbe(id: 2, path: Self.ethernet)])
  }
}
