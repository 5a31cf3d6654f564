import Testing

@testable import NetStatusConnectivity

/// Internet per address family, on the pure state machine: each family the path supports has its state, the overall
/// state is the best of them.
@Suite("Connectivity scheduler per family")
struct ConnectivitySchedulerFamilyTests {
  static let dualStack: NetworkPath = {
    var path = NetworkPath.test(.wifi, index: 3)
    path.supportsIPv6 = true
    return path
  }()
  static let ipv4Only = NetworkPath.test(.wifi, index: 3)

  func scheduler() -> ConnectivityScheduler {
    ConnectivityScheduler(
      settleDelay: .milliseconds(250), initialBackoff: .seconds(1), maximumBackoff: .seconds(8), recheckInterval: nil)
  }

  func check(ipv4: ConnectivityState?, ipv6: ConnectivityState?) -> ConnectivityCheck {
    let families = FamilyConnectivity(ipv4: ipv4, ipv6: ipv6)
    var check = ConnectivityCheck(
      state: families.best ?? .unknown, detail: "test", interface: "wlan0", duration: .milliseconds(10))
    check.families = families
    return check
  }

  func probeID(_ actions: [ConnectivityScheduler.Action], sourceLocation: SourceLocation = #_sourceLocation) -> UInt64 {
    for case .startProbe(let id, _) in actions { return id }
    Issue.record("no probe started: \(actions)", sourceLocation: sourceLocation)
    return 0
  }

  @Test func brokenIPv6UpstreamIsLimitedWhileTheOverallStateIsFullAndIsCheckedAgain() {
    var scheduler = scheduler()
    let first = scheduler.handle(.path(Self.dualStack))
    #expect(scheduler.families == FamilyConnectivity(ipv4: .unknown, ipv6: .unknown))
    let actions = scheduler.handle(.probeFinished(probeID(first), check(ipv4: .full, ipv6: .limited)))
    #expect(scheduler.state == .full)
    #expect(scheduler.families == FamilyConnectivity(ipv4: .full, ipv6: .limited))
    #expect(actions.contains(.publish(.full)))
    // IPv6 answered short of full: checked again after the backoff, although the overall state is full.
    #expect(actions.contains(.startTimer(id: 2, after: .seconds(1), purpose: .retry)))
    guard case .startTimer(let id, _, _)? = actions.last else {
      Issue.record("no retry timer: \(actions)")
      return
    }
    let retry = scheduler.handle(.timerFired(id))
    // IPv6 now answers: the overall state is the same, and published again so that a family's change is seen.
    let repaired = scheduler.handle(.probeFinished(probeID(retry), check(ipv4: .full, ipv6: .full)))
    #expect(repaired.contains(.publish(.full)))
    #expect(scheduler.families == FamilyConnectivity(ipv4: .full, ipv6: .full))
    #expect(!repaired.contains { if case .startTimer = $0 { true } else { false } }, "full on both: nothing more")
  }

  @Test func theOverallStateIsTheBestFamily() {
    var scheduler = scheduler()
    let first = scheduler.handle(.path(Self.dualStack))
    _ = scheduler.handle(.probeFinished(probeID(first), check(ipv4: .portal(redirect: nil), ipv6: .limited)))
    #expect(scheduler.state == .portal(redirect: nil))
    #expect(FamilyConnectivity(ipv4: .limited, ipv6: .unknown).best == .limited)
    #expect(FamilyConnectivity(ipv4: nil, ipv6: .full).best == .full)
    #expect(FamilyConnectivity().best == nil)
  }

  @Test func anUnsupportedFamilyHasNoStateAndACheckForBothSetsTheSupportedOnes() {
    var scheduler = scheduler()
    let first = scheduler.handle(.path(Self.ipv4Only))
    #expect(scheduler.families == FamilyConnectivity(ipv4: .unknown, ipv6: nil))
    // A check that stood for both families (no per-family answers): each supported family gets its state.
    _ = scheduler.handle(
      .probeFinished(
        probeID(first), ConnectivityCheck(state: .full, detail: "HTTP 204", interface: nil, duration: .zero)))
    #expect(scheduler.families == FamilyConnectivity(ipv4: .full, ipv6: nil))
  }

  @Test func aPathChangeOnTheSameInterfaceKeepsTheVerdictsOfTheFamiliesItStillSupports() {
    var scheduler = scheduler()
    let first = scheduler.handle(.path(Self.dualStack))
    _ = scheduler.handle(.probeFinished(probeID(first), check(ipv4: .full, ipv6: .full)))
    // IPv6 went away: its state with it, silently (the path says so); IPv4's verdict holds.
    let lost = scheduler.handle(.path(Self.ipv4Only))
    #expect(!lost.contains { if case .publish = $0 { true } else { false } })
    #expect(scheduler.families == FamilyConnectivity(ipv4: .full, ipv6: nil))
    // It came back: not checked yet.
    _ = scheduler.handle(.path(Self.dualStack))
    #expect(scheduler.families == FamilyConnectivity(ipv4: .full, ipv6: .unknown))
    // No path: neither family has a state.
    var offline = Self.dualStack
    offline.status = .unsatisfied
    _ = scheduler.handle(.path(offline))
    #expect(scheduler.state == .noPath && scheduler.families == FamilyConnectivity())
    _ = scheduler.handle(.stopped)
    #expect(scheduler.families == FamilyConnectivity())
  }

  @Test func anIPLiteralURLHasTheFamilyOfItsAddress() throws {
    #expect(IPFamily.ofLiteral(try HTTPProbeURL("http://192.0.2.1/")) == .ipv4)
    #expect(IPFamily.ofLiteral(try HTTPProbeURL("http://[2001:db8::1]:8080/")) == .ipv6)
    #expect(IPFamily.ofLiteral(try HTTPProbeURL("http://probe.test/")) == nil)
    #expect(IPFamily.ofLiteral(try HTTPProbeURL("http://1.2.3.example/")) == nil)
  }
}
