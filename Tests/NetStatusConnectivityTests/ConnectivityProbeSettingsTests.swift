import NetStatusTestSupport
import Testing

@testable import NetStatusConnectivity

/// A probe is valid when it is made: the initializer checks every setting and its errors say which setting, the
/// value, and what to give instead; the settings are read-only, so a probe that exists is valid.
@Suite("Connectivity probe settings")
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

  @Test func theSettingsAreTheInitializers() throws {
    let probe = try ConnectivityProbe(
      url: Self.url, expecting: .header(name: "X-NetworkManager-Status", value: "online"), timeout: .seconds(2),
      settleDelay: .zero, initialBackoff: .seconds(10), maximumBackoff: .seconds(600), recheckInterval: .seconds(900))
    #expect(probe.url == Self.url)
    #expect(probe.expectation == .header(name: "X-NetworkManager-Status", value: "online"))
    #expect(probe.timeout == .seconds(2))
    #expect(probe.settleDelay == .zero)
    #expect(probe.initialBackoff == .seconds(10))
    #expect(probe.maximumBackoff == .seconds(600))
    #expect(probe.recheckInterval == .seconds(900))
    let defaults = try ConnectivityProbe(url: Self.url)
    #expect(defaults.expectation == .status(204))
    #expect(defaults.timeout == .seconds(5))
    #expect(defaults.settleDelay == .milliseconds(250))
    #expect(defaults.initialBackoff == .seconds(1))
    #expect(defaults.maximumBackoff == .seconds(300))
    #expect(defaults.recheckInterval == nil)
  }

  /// Both backoffs bound each other: an initial one above the default maximum is fine with a maximum to match.
  @Test func theBackoffsAreCheckedTogether() throws {
    let probe = try ConnectivityProbe(url: Self.url, initialBackoff: .seconds(400), maximumBackoff: .seconds(600))
    #expect(probe.initialBackoff == .seconds(400))
    #expect(
      throws: ConnectivityProbeError.settingOutOfRange(
        .maximumBackoffBelowInitial(maximum: .seconds(300), initial: .seconds(400)))
    ) {
      try ConnectivityProbe(url: Self.url, initialBackoff: .seconds(400))
    }
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
}
