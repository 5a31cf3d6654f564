import Foundation
import Testing

@testable import NetStatusConnectivity

@Suite("Connectivity probe: URL, settings, classifier, state")
struct ConnectivityClassifierTests {
  func classify(_ text: String, _ expectation: ConnectivityProbe.Expectation = .status(204)) throws -> (
    state: ConnectivityState, detail: String
  ) {
    let probe = try ConnectivityProbe(url: "http://probe.test:8080/check", expecting: expectation)
    guard case .complete(let response) = HTTPResponseParser.parse(Array(text.utf8)) else {
      throw CancellationError()
    }
    return ConnectivityClassifier.classify(.response(response), probe: probe)
  }

  // MARK: URL

  @Test func urlsAreTakenApart() throws {
    let plain = try HTTPProbeURL("http://Connectivity-Check.Ubuntu.com")
    #expect(plain.host == "connectivity-check.ubuntu.com")
    #expect(plain.port == 80)
    #expect(plain.target == "/")
    #expect(plain.hostHeader == "connectivity-check.ubuntu.com")

    let full = try HTTPProbeURL("HTTP://203.0.113.80:8080/generate_204?x=1#fragment")
    #expect(full.host == "203.0.113.80")
    #expect(full.port == 8080)
    #expect(full.target == "/generate_204?x=1")
    #expect(full.hostHeader == "203.0.113.80:8080")
    #expect(full.normalized == "http://203.0.113.80:8080/generate_204?x=1")

    let v6 = try HTTPProbeURL("http://[2001:db8::1]/?q")
    #expect(v6.host == "2001:db8::1")
    #expect(v6.isIPv6Literal)
    #expect(v6.hostHeader == "[2001:db8::1]")
    #expect(v6.target == "/?q")
    #expect(try HTTPProbeURL("http://h?x").target == "/?x")
  }

  @Test(
    "an IPv4-mapped IPv6 literal is refused: its traffic is IPv4, its checks would count as IPv6's",
    arguments: ["http://[::ffff:10.88.0.1]:8001/", "http://[::FFFF:a58:1]/", "http://[0:0:0:0:0:ffff:10.88.0.1]/"])
  func ipv4MappedLiteralsAreRefused(url: String) {
    #expect {
      try HTTPProbeURL(url)
    } throws: { error in
      "\(error)".contains("IPv4-mapped") && "\(error)".contains("write 10.88.0.1 instead")
    }
  }

  @Test func httpsIsRefusedWithAnExplanation() {
    #expect(throws: ConnectivityProbeError.unsupportedScheme(url: "https://example.com/", scheme: "https")) {
      try ConnectivityProbe(url: "https://example.com/")
    }
    let text = ConnectivityProbeError.unsupportedScheme(url: "https://example.com/", scheme: "https").description
    #expect(text.contains("plain HTTP only"))
    #expect(text.contains("http://"))
  }

  @Test(arguments: [
    "", "example.com", "ftp://example.com/", "http://", "http://:80/", "http://user@host/", "http://host:0/",
    "http://host:65536/", "http://host:http/", "http://[2001:db8::1/", "http://[fe80::1%25eth0]/", "http://ho st/",
    "http://hôte/", "http://host/\u{7}", "http://[2001:db8::1]x/",
  ])
  func badURLsAreRefused(url: String) {
    #expect(throws: ConnectivityProbeError.self) { try ConnectivityProbe(url: url) }
  }

  @Test func settingsAreValidated() {
    #expect(throws: ConnectivityProbeError.self) { try ConnectivityProbe(url: "http://h/", timeout: .zero) }
    #expect(throws: ConnectivityProbeError.self) { try ConnectivityProbe(url: "http://h/", expecting: .status(42)) }
    #expect(throws: ConnectivityProbeError.self) { try ConnectivityProbe(url: "http://h/", expecting: .body("")) }
    #expect(throws: ConnectivityProbeError.self) {
      try ConnectivityProbe(url: "http://h/", initialBackoff: .seconds(10), maximumBackoff: .seconds(1))
    }
    #expect(throws: ConnectivityProbeError.self) {
      try ConnectivityProbe(url: "http://h/", recheckInterval: .zero)
    }
  }

  // MARK: Classifier

  @Test func theExpectedStatusIsFull() throws {
    #expect(try classify("HTTP/1.1 204 No Content\r\n\r\n") == (.full, "HTTP 204"))
  }

  @Test func aRedirectIsAPortalWithItsTarget() throws {
    let absolute = try classify("HTTP/1.1 302 Found\r\nLocation: http://portal.example/login\r\n\r\n")
    #expect(absolute.state == .portal(redirect: "http://portal.example/login"))
    #expect(absolute.detail == "HTTP 302 to http://portal.example/login")
    let relative = try classify("HTTP/1.1 307 Temporary Redirect\r\nLocation: /login?x\r\nContent-Length: 0\r\n\r\n")
    #expect(relative.state == .portal(redirect: "http://probe.test:8080/login?x"), "made absolute")
    let schemeRelative = try classify("HTTP/1.1 301 Moved\r\nLocation: //portal.example/\r\n\r\n")
    #expect(schemeRelative.state == .portal(redirect: "http://portal.example/"))
    let bare = try classify("HTTP/1.1 302 Found\r\n\r\n")
    #expect(bare.state == .portal(redirect: nil))
    #expect(bare.detail == "HTTP 302 without a Location")
  }

  @Test func anyOtherAnswerIsAPortal() throws {
    #expect(try classify("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nHTML").state == .portal(redirect: nil))
    #expect(try classify("HTTP/1.1 511 Network Authentication Required\r\n\r\n").detail == "HTTP 511, expected 204")
  }

  @Test func bodyExpectation() throws {
    let expectation = ConnectivityProbe.Expectation.body("NetworkManager is online")
    #expect(try classify("HTTP/1.1 200 OK\r\n\r\nNetworkManager is online\n", expectation).state == .full)
    let wrong = try classify("HTTP/1.1 200 OK\r\n\r\n<html>login</html>", expectation)
    #expect(wrong == (.portal(redirect: nil), "HTTP 200, the body is not the expected text"))
    let status = try classify("HTTP/1.1 404 Not Found\r\n\r\nNetworkManager is online", expectation)
    #expect(status.state == .portal(redirect: nil), "only a success counts")
  }

  @Test func headerExpectation() throws {
    let expectation = ConnectivityProbe.Expectation.header(name: "X-NetworkManager-Status", value: "online")
    #expect(
      try classify("HTTP/1.1 204 No Content\r\nx-networkmanager-status:  online \r\n\r\n", expectation).state == .full)
    let missing = try classify("HTTP/1.1 204 No Content\r\n\r\n", expectation)
    #expect(missing.detail == "HTTP 204, no X-NetworkManager-Status header")
    let other = try classify("HTTP/1.1 204 No Content\r\nX-NetworkManager-Status: offline\r\n\r\n", expectation)
    #expect(other.detail == "HTTP 204, X-NetworkManager-Status is 'offline', expected 'online'")
  }

  @Test(arguments: [
    (ProbeFailure.refused, ConnectivityState.limited),
    (.unreachable(errno: 101), .limited),
    (.unreachable(errno: 22), .limited),
    (.timedOut(.seconds(5)), .limited),
    (.closedWithoutAnswer(.byPeer), .limited),
    (.closedWithoutAnswer(.whileSending(errno: 32)), .limited),
    (.closedWithoutAnswer(.whileReceiving(errno: 104)), .limited),
    (.malformed("SSH"), .limited),
    (.nameResolution(host: "h", reason: "no such name"), .limited),
    (.resolverSilent(host: "h", asked: "the name server 192.0.2.53", detail: "within 5 seconds"), .limited),
    (.answerTooLong("the header did not end within 64 KiB"), .limited),
    (.answerUnfinished(within: .seconds(5), received: 10), .limited),
    (.local("EMFILE"), .unknown),
    (.cancelled, .unknown),
  ])
  func transportFailures(failure: ProbeFailure, state: ConnectivityState) throws {
    let probe = try ConnectivityProbe(url: "http://h/")
    #expect(ConnectivityClassifier.classify(.failed(failure), probe: probe).state == state)
  }

  /// The typed ways a connection closes still read as they did when they were text.
  /// (32 is EPIPE and 104 ECONNRESET on Linux; Errno describes any number the same way elsewhere.)
  @Test func aClosedConnectionSaysHowItClosed() throws {
    let probe = try ConnectivityProbe(url: "http://h/")
    let closed = ConnectivityClassifier.classify(.failed(.closedWithoutAnswer(.byPeer)), probe: probe)
    #expect(closed.state == .limited)
    #expect(closed.detail == "the connection closed without an answer")
    #expect(
      ProbeFailure.closedWithoutAnswer(.whileSending(errno: 32)).description
        == "the connection failed while sending: " + Errno.describe(32))
    #expect(
      ProbeFailure.closedWithoutAnswer(.whileReceiving(errno: 104)).description
        == "the connection failed before an answer: " + Errno.describe(104))
  }

  // MARK: State

  @Test func theJSONFormIsStableAndDecodes() throws {
    let cases: [(ConnectivityState, String)] = [
      (.unknown, #"{"state":"unknown"}"#),
      (.noPath, #"{"state":"none"}"#),
      (.limited, #"{"state":"limited"}"#),
      (.portal(redirect: nil), #"{"state":"portal"}"#),
      (
        .portal(redirect: "http://p.example/login?a=\"b\""),
        #"{"state":"portal","redirect":"http://p.example/login?a=\"b\""}"#
      ),
      (.full, #"{"state":"full"}"#),
    ]
    for (state, json) in cases {
      #expect(state.jsonRepresentation == json)
      #expect(try JSONDecoder().decode(ConnectivityState.self, from: Data(json.utf8)) == state)
      let encoded = try JSONEncoder().encode(state)
      #expect(try JSONDecoder().decode(ConnectivityState.self, from: encoded) == state)
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ConnectivityState.self, from: Data(#"{"state":"online"}"#.utf8))
    }
    #expect(ConnectivityState.portal(redirect: "http://x/").description == "portal (redirect to http://x/)")
    #expect(ConnectivityState.full.isFull && !ConnectivityState.limited.isFull)
  }
}
