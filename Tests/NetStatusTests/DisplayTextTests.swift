import Foundation
import NetlinkTestSupport
import Testing

@testable import NetStatusCLI
@testable import NetStatusConnectivity
@testable import NetStatusCore

/// Text from the network shown to people: control characters escaped, everything else kept.
@Suite("Escaping control characters for display")
struct DisplayTextTests {
  static let hostile = "http://portal.example/login\u{1B}]0;pwned\u{07}\u{1B}[2J"

  /// Whether `text` holds any character the escaping must remove.
  static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      let value = scalar.value
      guard value >= 0x20, !(0x7F...0x9F).contains(value) else { return false }
      switch scalar.properties.generalCategory {
      case .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned, .control: return false
      default: return true
      }
    }
  }

  @Test func terminalEscapeSequencesAreShownNotActedOn() {
    #expect(
      Self.hostile.escapingControlCharacters() == #"http://portal.example/login\x1B]0;pwned\x07\x1B[2J"#)
  }

  @Test func everyC0AndC1ControlAndDelIsEscaped() {
    let controls = (0..<0x20).map { $0 } + [0x7F] + (0x80...0x9F).map { $0 }
    for value in controls {
      let scalar = Unicode.Scalar(UInt32(value))!
      let escaped = String(Character(scalar)).escapingControlCharacters()
      #expect(escaped == String(format: "\\x%02X", value), "U+\(String(value, radix: 16))")
    }
    #expect("a\tb\nc\rd\u{8}e".escapingControlCharacters() == #"a\x09b\x0Ac\x0Dd\x08e"#)
    #expect("\u{9B}31m".escapingControlCharacters() == #"\x9B31m"#, "the one-byte CSI")
  }

  @Test(arguments: [
    ("\u{202E}", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("\u{202A}", "LRE"), ("\u{202D}", "LRO"),
    ("\u{2066}", "LRI"), ("\u{2067}", "RLI"), ("\u{2068}", "FSI"), ("\u{2069}", "PDI"),
    ("\u{200E}", "LRM"), ("\u{200F}", "RLM"), ("\u{061C}", "ALM"), ("\u{200B}", "zero-width space"),
    ("\u{200D}", "zero-width joiner"), ("\u{2060}", "word joiner"), ("\u{FEFF}", "byte order mark"),
    ("\u{00AD}", "soft hyphen"), ("\u{E0041}", "tag letter A"), ("\u{2028}", "line separator"),
    ("\u{2029}", "paragraph separator"), ("\u{E000}", "private use"), ("\u{10FFFF}", "unassigned"),
  ])
  func invisibleAndReorderingCharactersAreEscaped(text: String, name: String) {
    let value = text.unicodeScalars.first!.value
    let expected = "x\\u{" + String(format: "%04X", value) + "}y"
    #expect(("x" + text + "y").escapingControlCharacters() == expected, "\(name)")
  }

  @Test func printableTextOfAnyScriptIsKept() {
    for text in [
      "http://portal.example/login?next=%2F&x=1", "Hôtel Wi‑Fi – connexion", "日本語のポータル", "Привет", "שלום",
      "مرحبا", "😀👍🏽", "e\u{301}", "a\u{A0}b", "",
    ] {
      #expect(text.escapingControlCharacters() == text, "\(text.debugDescription)")
    }
  }

  @Test func escapingTwiceChangesNothing() {
    var generator = SplitMix64(seed: 11)
    for _ in 0..<500 {
      let scalars = (0..<Int(generator.next() % 24)).compactMap { _ -> Unicode.Scalar? in
        let pick = generator.next() % 4
        let value: UInt64 =
          switch pick {
          case 0: generator.next() % 0x100
          case 1: 0x2000 + generator.next() % 0x80
          case 2: generator.next() % 0x11_0000
          default: 0x20 + generator.next() % 0x5F
          }
        return Unicode.Scalar(UInt32(value))
      }
      let text = String(String.UnicodeScalarView(scalars))
      let once = text.escapingControlCharacters()
      #expect(Self.isSafe(once), "\(text.debugDescription) → \(once.debugDescription)")
      #expect(once.escapingControlCharacters() == once)
    }
  }

  // MARK: Where it is applied

  @Test func aPortalsRedirectIsEscapedInItsDescriptionAndExactInItsValueAndJSON() throws {
    let state = ConnectivityState.portal(redirect: Self.hostile)
    #expect(state.description == #"portal (redirect to http://portal.example/login\x1B]0;pwned\x07\x1B[2J)"#)
    #expect(state.redirect == Self.hostile)
    #expect(Self.isSafe(state.jsonRepresentation))
    #expect(try JSONDecoder().decode(ConnectivityState.self, from: Data(state.jsonRepresentation.utf8)) == state)
  }

  @Test func aChecksDetailEscapesWhatTheServerSent() throws {
    let probe = try ConnectivityProbe(url: "http://probe.test/", expecting: .header(name: "X-Status", value: "online"))
    let redirect = HTTPResponse(
      version: "HTTP/1.1", status: 302, reason: "Found", headers: [.init(name: "Location", value: Self.hostile)],
      body: [], isBodyComplete: true)
    let redirected = ConnectivityMonitor.check(
      ProbeExchange(result: .response(redirect), duration: .milliseconds(1)), probe: probe)
    #expect(redirected.state == .portal(redirect: Self.hostile))
    #expect(redirected.detail == #"HTTP 302 to http://portal.example/login\x1B]0;pwned\x07\x1B[2J"#)

    let header = HTTPResponse(
      version: "HTTP/1.1", status: 200, reason: "OK", headers: [.init(name: "X-Status", value: "off\u{202E}enil")],
      body: [], isBodyComplete: true)
    let mismatched = ConnectivityMonitor.check(
      ProbeExchange(result: .response(header), boundInterface: "wlan\u{1B}[1m0", duration: .milliseconds(1)),
      probe: probe)
    #expect(mismatched.detail == #"HTTP 200, X-Status is 'off\u{202E}enil', expected 'online'"#)
    #expect(Self.isSafe(mismatched.description), "\(mismatched.description.debugDescription)")

    guard case .malformed(let reason) = HTTPResponseParser.parse(Array("\u{1B}[2J\u{9B}0m\r\n\r\n".utf8)) else {
      Issue.record("malformed")
      return
    }
    #expect(reason == #"the status line is not HTTP: "\x1B[2J\x9B0m""#)
  }

  @Test func theTableAndWatchLinesShowNoControlCharacterButTheirOwnColours() {
    var path = NetworkPath.connected(via: .wifi)
    path.availableInterfaces = [
      NetworkInterface(name: "wl\u{1B}[2Jan0", index: 3, type: .wifi),
      NetworkInterface(name: "e\u{7}th0", index: 4, type: .wiredEthernet),
    ]
    let portal = ConnectivityReport(
      state: .portal(redirect: Self.hostile),
      check: ConnectivityCheck(
        state: .portal(redirect: Self.hostile), detail: "HTTP 302 to \(Self.hostile)", interface: nil,
        duration: .zero))
    let limited = ConnectivityReport(
      state: .limited,
      check: ConnectivityCheck(state: .limited, detail: "raw \u{1B}]8;;x\u{7}", interface: nil, duration: .zero))
    let plain = PathFormatter(style: .plain)
    for text in [
      plain.table(path, connectivity: portal), plain.line(path, connectivity: portal, time: "t"),
      plain.line(path, connectivity: limited, time: "t"), plain.internet(limited),
    ] {
      #expect(
        !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
        "\(text.debugDescription)")
    }
    #expect(plain.table(path, connectivity: portal).contains(#"wl\x1B[2Jan0  Wi-Fi  (in use)"#))
    #expect(plain.internet(limited) == #"limited (raw \x1B]8;;x\x07)"#)
    // On a terminal, the only escape sequences are the formatter's colours.
    let painted = PathFormatter(style: .terminal).internet(portal)
    #expect(painted == "\u{1B}[31m✗ portal (redirect to \(Self.hostile.escapingControlCharacters()))\u{1B}[0m")
  }
}
