import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// A probe's settings are checked whenever they change, not only when it is made: the throwing setters check
/// each change and leave the probe as it was when it does not pass; the errors say which setting, the value,
/// and what to give instead; a probe changed through the deprecated unchecked setters is caught by
/// `validate()` and by the connectivity monitor, which then sends nothing.
@Suite("Connectivity probe settings after init")
struct ConnectivityProbeSettingsTests {
  static let url = "http://probe.test/"

  @Test func theInitializerSaysWhichSettingIsOutOfRange() {
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.timeoutNotPositive(.zero))) {
      try ConnectivityProbe(url: Self.url, timeout: .zero)
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.settleDelayNegative(.milliseconds(-1)))) {
      try ConnectivityProbe(url: Self.url, settleDelay: .milliseconds(-1))
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.initialBackoffNotPositive(.zero))) {
      try ConnectivityProbe(url: Self.url, initialBackoff: .zero)
    }
    #expect(
      throws: ConnectivityProbeError.settingOutOfRange(
        .maximumBackoffBelowInitial(maximum: .seconds(1), initial: .seconds(2)))
    ) {
      try ConnectivityProbe(url: Self.url, initialBackoff: .seconds(2), maximumBackoff: .seconds(1))
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.recheckIntervalNotPositive(.seconds(-5)))) {
      try ConnectivityProbe(url: Self.url, recheckInterval: .seconds(-5))
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.statusNotHTTP(42))) {
      try ConnectivityProbe(url: Self.url, expecting: .status(42))
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.emptyBodyText)) {
      try ConnectivityProbe(url: Self.url, expecting: .body(""))
    }
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.invalidHeaderName("X-Status:"))) {
      try ConnectivityProbe(url: Self.url, expecting: .header(name: "X-Status:", value: "online"))
    }
  }

  @Test func theSettersApplyAValidChange() throws {
    var probe = try ConnectivityProbe(url: Self.url)
    try probe.setExpectation(.header(name: "X-NetworkManager-Status", value: "online"))
    try probe.setTimeout(.seconds(2))
    try probe.setSettleDelay(.zero)
    try probe.setBackoff(initial: .seconds(10), maximum: .seconds(600))
    try probe.setRecheckInterval(.seconds(900))
    #expect(probe.expectation == .header(name: "X-NetworkManager-Status", value: "online"))
    #expect(probe.timeout == .seconds(2))
    #expect(probe.settleDelay == .zero)
    #expect(probe.initialBackoff == .seconds(10))
    #expect(probe.maximumBackoff == .seconds(600))
    #expect(probe.recheckInterval == .seconds(900))
    try probe.setRecheckInterval(nil)
    #expect(probe.recheckInterval == nil)
    #expect(throws: Never.self) { try probe.validate() }
  }

  /// Both backoffs at once: raising the initial one past the old maximum is fine when the maximum rises with it.
  @Test func theBackoffsChangeTogether() throws {
    var probe = try ConnectivityProbe(url: Self.url, initialBackoff: .seconds(1), maximumBackoff: .seconds(30))
    try probe.setBackoff(initial: .seconds(60), maximum: .seconds(120))
    #expect(probe.initialBackoff == .seconds(60))
    #expect(probe.maximumBackoff == .seconds(120))
  }

  /// One change through a throwing setter.
  enum Change: Sendable, CustomTestStringConvertible {
    case timeout(Duration)
    case settleDelay(Duration)
    case backoff(initial: Duration, maximum: Duration)
    case recheckInterval(Duration?)
    case expectation(ConnectivityProbe.Expectation)

    func apply(to probe: inout ConnectivityProbe) throws(ConnectivityProbeError) {
      switch self {
      case .timeout(let value): try probe.setTimeout(value)
      case .settleDelay(let value): try probe.setSettleDelay(value)
      case .backoff(let initial, let maximum): try probe.setBackoff(initial: initial, maximum: maximum)
      case .recheckInterval(let value): try probe.setRecheckInterval(value)
      case .expectation(let value): try probe.setExpectation(value)
      }
    }

    var testDescription: String { "\(self)" }
  }

  @Test(arguments: [
    (Change.timeout(.zero), ConnectivityProbeError.SettingProblem.timeoutNotPositive(.zero)),
    (.timeout(.seconds(-1)), .timeoutNotPositive(.seconds(-1))),
    (.settleDelay(.milliseconds(-250)), .settleDelayNegative(.milliseconds(-250))),
    (.backoff(initial: .zero, maximum: .seconds(300)), .initialBackoffNotPositive(.zero)),
    (
      .backoff(initial: .seconds(400), maximum: .seconds(300)),
      .maximumBackoffBelowInitial(maximum: .seconds(300), initial: .seconds(400))
    ),
    (.recheckInterval(.zero), .recheckIntervalNotPositive(.zero)),
    (.expectation(.status(600)), .statusNotHTTP(600)),
    (.expectation(.body("")), .emptyBodyText),
    (.expectation(.header(name: "", value: "online")), .invalidHeaderName("")),
  ])
  func aChangeOutOfRangeIsRefusedAndLeavesTheProbeAsItWas(
    change: Change, problem: ConnectivityProbeError.SettingProblem
  ) throws {
    let original = try ConnectivityProbe(url: Self.url, recheckInterval: .seconds(600))
    var probe = original
    #expect(throws: ConnectivityProbeError.settingOutOfRange(problem)) { try change.apply(to: &probe) }
    #expect(probe == original, "unchanged")
    #expect(throws: Never.self) { try probe.validate() }
  }

  @Test func everyProblemSaysWhatIsWrongAndWhatToGive() {
    let problems: [ConnectivityProbeError.SettingProblem] = [
      .timeoutNotPositive(.zero), .settleDelayNegative(.seconds(-1)), .initialBackoffNotPositive(.zero),
      .maximumBackoffBelowInitial(maximum: .seconds(1), initial: .seconds(2)),
      .recheckIntervalNotPositive(.zero), .statusNotHTTP(42), .emptyBodyText, .invalidHeaderName("a:b"),
    ]
    for problem in problems {
      let text = ConnectivityProbeError.settingOutOfRange(problem).description
      #expect(text.hasPrefix("invalid connectivity probe setting: "), "\(text)")
      #expect(text.contains(": give "), "says what to give instead: \(text)")
    }
    #expect(
      ConnectivityProbeError.settingOutOfRange(.timeoutNotPositive(.zero)).description
        == "invalid connectivity probe setting: the timeout is 0.0 seconds, but a check needs time to answer: "
        + "give a positive timeout, such as .seconds(5) (the default)")
    #expect(
      ConnectivityProbeError.settingOutOfRange(.statusNotHTTP(42)).description.contains("42 is not an HTTP status"))
  }

  /// The deprecated setters still compile and store what they are given, unchecked; `validate()` finds it.
  @Test func anUncheckedChangeIsFoundByValidate() throws {
    var probe = try ConnectivityProbe(url: Self.url)
    setTimeoutUnchecked(of: &probe, to: .zero)
    #expect(probe.timeout == .zero, "stored as given, as before")
    #expect(throws: ConnectivityProbeError.settingOutOfRange(.timeoutNotPositive(.zero))) { try probe.validate() }
  }

  /// A monitor given a probe out of range sends nothing: it does not start, and says why.
  @Test func aMonitorOfAProbeOutOfRangeSendsNothingAndSaysWhy() async throws {
    var probe = try ConnectivityProbe(url: Self.url, settleDelay: .milliseconds(1))
    setInitialBackoffUnchecked(of: &probe, to: .zero)  // would check without pause
    let source = ScriptedPathSource(.test(.wifi))
    let transport = ScriptedTransport()
    let connectivity = ConnectivityMonitor(monitor: NetworkMonitor(source: source), probe: probe, transport: transport)
    #expect(connectivity.probeError == .settingOutOfRange(.initialBackoffNotPositive(.zero)))

    connectivity.startMonitoring()
    #expect(!connectivity.isMonitoring)
    connectivity.recheck()
    let states = Recorder<ConnectivityState>()
    let iteration = Task { for await state in connectivity.states { states.append(state) } }
    defer { iteration.cancel() }
    try await states.waitFor(count: 1, "the current state")
    try await Task.sleep(for: .milliseconds(50))
    #expect(transport.requests.values.isEmpty, "nothing sent")
    #expect(states.values == [.unknown])
    #expect(connectivity.state == .unknown)
    #expect(connectivity.checksStarted == 0)
  }

  @Test func aMonitorOfAValidProbeHasNoProbeError() throws {
    let connectivity = ConnectivityMonitor(
      monitor: NetworkMonitor(source: ScriptedPathSource(.test(.wifi))), probe: try ConnectivityProbe(url: Self.url),
      transport: ScriptedTransport())
    #expect(connectivity.probeError == nil)
  }
}

/// The deprecated, unchecked property setters of `ConnectivityProbe`, reached through protocol requirements they
/// witness: so that tests can use them without naming them (which warns).
protocol UncheckedProbeSettings {
  var timeout: Duration { get set }
  var initialBackoff: Duration { get set }
}

extension ConnectivityProbe: UncheckedProbeSettings {}

func setTimeoutUnchecked(of probe: inout some UncheckedProbeSettings, to timeout: Duration) {
  probe.timeout = timeout
}

func setInitialBackoffUnchecked(of probe: inout some UncheckedProbeSettings, to backoff: Duration) {
  probe.initialBackoff = backoff
}
