import Foundation
import Testing

@testable import NetStatusCLI
@testable import NetStatusCore

@Suite("netstatus argument parsing")
struct CommandLineOptionsTests {
  @Test func defaultsToShow() throws {
    let options = try CommandLineOptions.parse([])
    #expect(options.command == .show)
    #expect(!options.json)
    #expect(options.networkNamespace == nil)
  }

  @Test func parsesWaitOptions() throws {
    let options = try CommandLineOptions.parse([
      "wait", "--timeout", "2.5", "--interface-type", "wifi", "--interface-type=cellular", "--ipv4", "--dns",
      "--json", "--netns", "blue",
    ])
    #expect(options.command == .wait)
    #expect(options.timeout == .milliseconds(2500))
    #expect(options.interfaceTypes == [.wifi, .cellular])
    #expect(options.requireIPv4 && options.requireDNS && !options.requireIPv6)
    #expect(options.json)
    #expect(options.networkNamespace == "blue")
  }

  @Test func parsesProbeOptionsOnEveryCommand() throws {
    #expect(try CommandLineOptions.parse([]).probe == nil, "no probe unless asked: no traffic")
    for command in ["show", "watch", "wait"] {
      let options = try CommandLineOptions.parse([command, "--probe", "http://203.0.113.80/generate_204"])
      #expect(options.probe == (try ConnectivityProbe(url: "http://203.0.113.80/generate_204")))
      #expect(options.probe?.expectation == .status(204))
    }
    let wait = try CommandLineOptions.parse(["wait", "--internet", "--probe=http://h/", "--expect=200"])
    #expect(wait.requireInternet)
    #expect(wait.probe?.expectation == .status(200))
    let text = try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "NetworkManager is online"])
    #expect(text.probe?.expectation == .body("NetworkManager is online"))
    for number in ["99", "600", "0204", "1000"] {
      #expect(throws: CommandLineOptions.UsageError.self, "a number outside 100-599 is no status: \(number)") {
        try CommandLineOptions.parse(["--probe", "http://h/", "--expect", number])
      }
    }
    #expect(
      try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "599"]).probe?.expectation == .status(599))
  }

  @Test func helpHelpIsTheOverviewAndNoWordIsItsOwnSuggestion() throws {
    let options = try CommandLineOptions.parse(["help", "help"])
    #expect(options.help && options.command == .show)
    #expect(Suggestion.closest(to: "help", among: ["help", "hlep"]) == "hlep")
    #expect(Suggestion.closest(to: "watch", among: ["watch"]) == nil)
  }

  @Test func waitDefaultsToThirtySecondsAndZeroMeansForever() throws {
    #expect(try CommandLineOptions.parse(["wait"]).timeout == .seconds(30))
    #expect(try CommandLineOptions.parse(["wait", "--timeout", "0"]).timeout == nil)
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["wait", "--timeout", "soon"], "--timeout takes a time span such as 500ms"),
    (["wait", "--timeout", "-1"], "--timeout takes a time span such as 500ms"),
    (["wait", "--timeout"], "option --timeout needs a value"),
    (["wait", "--interface-type", "etherent"], "unknown interface type 'etherent'; did you mean 'wiredEthernet'?"),
    (["wait", "--interface-type", "wfi"], "unknown interface type 'wfi'; did you mean 'wifi'?"),
    (["wait", "--interface-type", "radio"], "unknown interface type 'radio' Use one of other, wifi, cellular"),
    (["watch", "--ipv4"], "unknown option '--ipv4' for 'watch'"),
    (["fly"], "unknown command 'fly'"),
    (["show", "extra"], "unexpected argument 'extra'"),
    (["--json=yes"], "option --json takes no value"),
    (["--netns", ""], "--netns needs a namespace name or path"),
    (["wait", "--internet"], "wait --internet needs --probe URL or --networkmanager: netstatus sends no traffic"),
    (["--internet", "--probe", "http://h/"], "unknown option '--internet'"),
    (["--probe", "https://h/"], "speaks plain HTTP only"),
    (["--probe", "h/"], "does not start with http://"),
    (["--probe"], "option --probe needs a value"),
    (["--expect", "204"], "--expect needs --probe URL"),
    (["--probe", "http://h/", "--expect", ""], "--expect takes a status"),
    (["wait", "--internet=yes", "--probe", "http://h/"], "option --internet takes no value"),
  ])
  func rejectsBadArgumentsWithOneLineNamingTheProblem(arguments: [String], message: String) {
    #expect {
      try CommandLineOptions.parse(arguments)
    } throws: { error in
      let text = (error as? CommandLineOptions.UsageError)?.description ?? ""
      return text.contains(message) && !text.contains("\n")
    }
  }
}

@Suite("netstatus wait condition")
struct WaitConditionTests {
  @Test func waitsTimeoutCountsTheTimeTheCommandHasTakenAlready() {
    // The monitor's start (NetworkManager's start-up budget) comes out of the timeout, not on top of it.
    #expect(NetStatusCommand.remainingTimeout(.seconds(2), elapsed: .milliseconds(750)) == .milliseconds(1250))
    #expect(NetStatusCommand.remainingTimeout(.seconds(1), elapsed: .seconds(3)) == .zero)
    #expect(NetStatusCommand.remainingTimeout(nil, elapsed: .seconds(3)) == nil, "no timeout: none")
  }

  @Test func requiresASatisfiedPath() {
    #expect(WaitCondition().isMet(by: .connected(via: .wifi)))
    #expect(!WaitCondition().isMet(by: .offline))
    #expect(!WaitCondition().isMet(by: NetworkPath(status: .requiresConnection)))
  }

  @Test func interfaceTypesAndFamilies() {
    var path = NetworkPath.connected(via: .wifi)
    #expect(!WaitCondition(interfaceTypes: [.cellular]).isMet(by: path))
    #expect(WaitCondition(interfaceTypes: [.cellular, .wifi]).isMet(by: path))
    #expect(WaitCondition(requireIPv4: true, requireDNS: true).isMet(by: path))
    #expect(!WaitCondition(requireIPv6: true).isMet(by: path))
    path.supportsDNS = false
    #expect(!WaitCondition(requireDNS: true).isMet(by: path))
  }

  @Test func describesItself() {
    let condition = WaitCondition(interfaceTypes: [.cellular, .wifi], requireIPv4: true, requireDNS: true)
    #expect(condition.description == "a satisfied path over wifi or cellular with IPv4 and DNS")
  }
}

@Suite("netstatus human output")
struct PathFormatterTests {
  let path = NetworkPath(
    status: .satisfied,
    availableInterfaces: [
      NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet),
      NetworkInterface(name: "wlan0", index: 3, type: .wifi),
    ],
    supportsIPv4: true, supportsDNS: true, gateways: ["192.0.2.1"])

  @Test func plainTableHasNoEscapesAndMarksTheInterfaceInUse() {
    let table = PathFormatter(style: .plain).table(path)
    #expect(
      table == """
        Connected    yes
        Interfaces   eth0   wired Ethernet  (in use)
                     wlan0  Wi-Fi
        VPN          none
        Expensive    no
        Constrained  no
        Link         not measured
        IPv4         yes
        IPv6         no
        DNS          yes
        Gateways     192.0.2.1
        """)
  }

  @Test func linkQualityAndUltraConstrainedAreShown() {
    var measured = path
    measured.linkQuality = .moderate
    let plain = PathFormatter(style: .plain)
    #expect(plain.table(measured).contains("\nConstrained  no\nLink         moderate\n"))
    #expect(plain.line(measured, time: "T").contains("  link moderate"))
    #expect(!plain.line(path, time: "T").contains("link"), "not measured: nothing said")
    measured.isUltraConstrained = true
    #expect(plain.table(measured).contains("\nConstrained  ultra-constrained\n"))
    #expect(plain.line(measured, time: "T").contains("ultra-constrained"))
    #expect(plain.table(.offline).contains("\nLink         none\n"))
  }

  @Test func connectivityIsAppendedToTheTableTheLineAndTheJSON() {
    let check = ConnectivityCheck(state: .limited, detail: "connection refused", interface: "eth0", duration: .zero)
    let limited = ConnectivityReport(state: .limited, check: check)
    let plain = PathFormatter(style: .plain)
    #expect(
      plain.table(path, connectivity: limited).hasSuffix(
        "\nGateways     192.0.2.1\nInternet     limited (connection refused)"))
    let portal = ConnectivityReport(state: .portal(redirect: "http://p.test/login"))
    #expect(
      plain.line(path, connectivity: portal, time: "T").hasSuffix("  internet portal (redirect to http://p.test/login)")
    )
    #expect(PathFormatter(style: .terminal).internet(ConnectivityReport(state: .full)) == "\u{1B}[32m✓ full\u{1B}[0m")
    #expect(
      PathFormatter.json(path, connectivity: portal)
        == String(path.jsonRepresentation.dropLast())
        + #","connectivity":{"state":"portal","redirect":"http://p.test/login","ipv4":null,"ipv6":null}}"#)
    #expect(PathFormatter.json(path) == path.jsonRepresentation, "without a probe: the documented form only")
  }

  @Test func terminalTableUsesColourAndSymbols() {
    let table = PathFormatter(style: .terminal).table(path)
    #expect(table.contains("\u{1B}[32m✓ yes"))
    #expect(table.contains("▶"))
  }

  @Test func styleFollowsTheTerminalAndNoColor() {
    #expect(PathFormatter.Style.detect(isTerminal: false, environment: [:]) == .plain)
    #expect(PathFormatter.Style.detect(isTerminal: true, environment: [:]) == .terminal)
    #expect(
      PathFormatter.Style.detect(isTerminal: true, environment: ["NO_COLOR": "1"])
        == .init(color: false, symbols: true))
    #expect(
      PathFormatter.Style.detect(isTerminal: true, environment: ["TERM": "dumb"])
        == .init(color: false, symbols: true), "a dumb terminal shows no colour")
    #expect(PathFormatter.Style.detect(isTerminal: true, environment: ["TERM": "xterm-256color"]) == .terminal)
    #expect(PathFormatter.Style.detect(isTerminal: false, environment: ["TERM": "xterm-256color"]) == .plain)
  }

  @Test func everySymbolTheFormatterPrintsIsExplainedInTheHelpAndTheManualPage() throws {
    let manual = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("man/netstatus.1"), encoding: .utf8)
    // The manual page names them by code point (troff's \[uXXXX]), with a fallback for ASCII devices.
    let symbols: [(Character, String)] = [
      ("●", "\\[u25CF]"), ("○", "\\[u25CB]"), ("✓", "\\[u2713]"), ("✗", "\\[u2717]"), ("▶", "\\[u25B6]"), ("?", "?"),
    ]
    for (symbol, troff) in symbols {
      #expect(HelpText.overview.contains("\(symbol) "), "the help explains \(symbol)")
      #expect(manual.contains(troff), "the manual page explains \(symbol)")
    }
  }

  @Test func watchLineReadsAtAGlance() {
    let formatter = PathFormatter(style: .plain)
    #expect(
      formatter.line(path, time: "12:00:00.000")
        == "12:00:00.000  online   eth0 (wired Ethernet) +wlan0  IPv4 DNS  via 192.0.2.1")
    #expect(formatter.line(.offline, time: "12:00:01.000") == "12:00:01.000  offline  no network available")
  }

  @Test(
    "an offline line says what broke, in words, and shows no flag",
    arguments: [
      (UnsatisfiedCause.noCarrier("eth0"), "no carrier on eth0"),
      (.interfaceDown("eth0"), "eth0 is down"),
      (.noRoute, "no route"),
      (.noAddress, "no address"),
      (.noSourceAddress("eth0"), "no address on eth0"),
      (.unreachableRoute, "the route rejects traffic"),
      (.notAllowed("wwan0", .cellular), "wwan0 (cellular) is not allowed"),
      (.noCarrier("e\u{1B}[2Jth0"), #"no carrier on e\x1B[2Jth0"#),
    ])
  func offlineLineSaysWhy(cause: UnsatisfiedCause, words: String) {
    var path = NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: true)
    path.unsatisfiedCause = cause
    let formatter = PathFormatter(style: .plain)
    #expect(formatter.line(path, time: "T") == "T  offline  \(words)")
    let table = formatter.table(path)
    #expect(table.hasPrefix("Connected    no (\(words))\n"), "\(table)")
    #expect(table.contains("\nDNS          configured, no path to it\n"), "\(table)")
    #expect(path == NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable, supportsDNS: true))
  }

  @Test(
    "the usual words for interface types are accepted",
    arguments: [
      ("ethernet", InterfaceType.wiredEthernet), ("wired", .wiredEthernet), ("Ethernet", .wiredEthernet),
      ("WiredEthernet", .wiredEthernet), ("wlan", .wifi), ("Wi-Fi", .wifi), ("wifi", .wifi), ("mobile", .cellular),
      ("lo", .loopback), ("other", .other),
    ])
  func interfaceTypeWords(word: String, type: InterfaceType) throws {
    #expect(try CommandLineOptions.parse(["wait", "--interface-type", word]).interfaceTypes == [type])
  }
}

@Suite("time spans, as systemd writes them")
struct TimeSpanTests {
  @Test(arguments: [
    ("500ms", Duration.milliseconds(500)), ("5s", .seconds(5)), ("2min", .seconds(120)), ("1h", .seconds(3600)),
    ("1h 30min", .seconds(5400)), ("1h30min", .seconds(5400)), ("1.5h", .seconds(5400)), ("30", .seconds(30)),
    ("2.5", .milliseconds(2500)), ("0", .zero), ("250us", .microseconds(250)), ("1 w", .seconds(604_800)),
    (" 5s ", .seconds(5)), ("0.0000001s", .microseconds(1)), ("365d", .seconds(365 * 86_400)),
    // Past the 12 digits computed with, a non-zero digit still rounds up: a positive span is never 0 ("no limit").
    ("0.0000000000001s", .microseconds(1)), ("0.00000000000000000001us", .microseconds(1)),
    ("0.000000000000000s", .zero),
  ])
  func parses(_ text: String, _ expected: Duration) {
    #expect(TimeSpan.parse(text) == .finite(expected), "'\(text)'")
  }

  @Test func infinityIsNoLimit() {
    #expect(TimeSpan.parse("infinity") == .infinity)
  }

  @Test(arguments: [
    "", "-0", "-5s", "+5s", "0x10", "1e3", "inf", "nan", "5 seconds ago", "5x", "1.s", ".5s", "1M", "1y",
    "366d", "1 2", "10 5s", "99999999999999999999", "infinity 5s", "5s-",
  ])
  func rejects(_ text: String) {
    #expect(TimeSpan.parse(text) == nil, "'\(text)' is not a time span")
  }

  @Test func waitTimeoutTakesSpans() throws {
    #expect(try CommandLineOptions.parse(["wait", "--timeout", "2min"]).timeout == .seconds(120))
    #expect(try CommandLineOptions.parse(["wait", "--timeout=infinity"]).timeout == nil)
    #expect(try CommandLineOptions.parse(["wait", "-t", "0"]).timeout == nil, "0 waits forever, as before")
    #expect(try CommandLineOptions.parse(["wait", "-t", "0.0000000000001s"]).timeout == .microseconds(1))
    #expect(try CommandLineOptions.parse(["wait"]).timeout == .seconds(30))
    #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["wait", "--timeout", "-0"]) }
  }
}

@Suite("short options, --, and options given twice")
struct ShortOptionTests {
  @Test func shortOptionsStandForTheLongOnes() throws {
    let wait = try CommandLineOptions.parse(["wait", "-j", "-q", "-4", "-6", "-n", "blue", "-t", "5s"])
    #expect(wait.json && wait.quiet && wait.requireIPv4 && wait.requireIPv6)
    #expect(wait.networkNamespace == "blue")
    #expect(wait.timeout == .seconds(5))
    #expect(try CommandLineOptions.parse(["-h"]).help)
    #expect(try CommandLineOptions.parse(["-V"]).version)
  }

  @Test func groupedAndAttached() throws {
    let wait = try CommandLineOptions.parse(["wait", "-jq4t500ms", "-nred"])
    #expect(wait.json && wait.quiet && wait.requireIPv4)
    #expect(wait.timeout == .milliseconds(500))
    #expect(wait.networkNamespace == "red")
  }

  @Test func aValueIsNeverReadAsOptions() throws {
    // "-j" after --expect is the body text, not --json.
    let show = try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "-j"])
    #expect(show.probe?.expectation == .body("-j"))
    #expect(!show.json)
  }

  @Test func doubleDashEndsOptions() throws {
    #expect(try CommandLineOptions.parse(["watch", "-j", "--"]).json)
    #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["show", "--", "-j"]) }
  }

  @Test(arguments: [
    ["-x"], ["wait", "-jz"], ["show", "-q"], ["show", "-t", "5"], ["-n"],
  ])
  func unknownOrMisplacedShortOptionsAreUsageErrors(_ arguments: [String]) {
    #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
  }

  @Test(arguments: [
    ["--netns", "a", "--netns", "b"], ["-n", "a", "--netns=b"], ["wait", "-t", "1", "--timeout", "2"],
    ["--probe", "http://a/", "--probe", "http://b/"], ["--probe", "http://a/", "--expect", "200", "--expect", "204"],
  ])
  func aSingleValueOptionGivenTwiceIsAUsageError(_ arguments: [String]) {
    #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
  }

  @Test func repeatableOptionsStayRepeatable() throws {
    let wait = try CommandLineOptions.parse([
      "wait", "--interface-type", "wifi", "--interface-type", "cellular", "-j", "-j",
    ])
    #expect(wait.interfaceTypes == [.wifi, .cellular])
  }
}

@Suite("wait: interfaces by name")
struct WaitInterfaceTests {
  func path(_ names: [String], connected: Bool = true) -> NetworkPath {
    NetworkPath(
      status: connected ? .satisfied : .unsatisfied, unsatisfiedReason: connected ? nil : .notAvailable,
      availableInterfaces: names.enumerated().map { NetworkInterface(name: $1, index: $0 + 2, type: .wiredEthernet) },
      supportsIPv4: connected, supportsDNS: true)
  }

  @Test func everyNamedInterfaceMustCarryThePathUnlessAnyIsGiven() {
    // --via: the path's interfaces.
    let all = WaitCondition(interfaces: ["eth0", "wlan0"])
    #expect(all.isMet(by: path(["eth0", "wlan0"])))
    #expect(!all.isMet(by: path(["eth0"])), "wlan0 carries nothing")
    let any = WaitCondition(interfaces: ["eth0", "wlan0"], anyInterface: true)
    #expect(any.isMet(by: path(["wlan0"])))
    #expect(!any.isMet(by: path(["usb0"])))
    #expect(!all.isMet(by: path(["eth0", "wlan0"], connected: false)), "an unsatisfied path meets nothing")
  }

  @Test func ignoredInterfacesNeverCount() {
    let condition = WaitCondition(ignoredInterfaces: ["docker0"])
    #expect(!condition.isMet(by: path(["docker0"])), "the only interface is ignored")
    #expect(condition.isMet(by: path(["docker0", "eth0"])), "another one carries the path")
    let typed = WaitCondition(interfaceTypes: [.wiredEthernet], ignoredInterfaces: ["eth0"])
    #expect(!typed.isMet(by: path(["eth0"])))
  }

  @Test func parsesInterfaceOptions() throws {
    let wait = try CommandLineOptions.parse([
      "wait", "--via", "eth0", "--via=wlan0", "--via", "eth0", "--any", "--ignore", "lo",
    ])
    #expect(wait.viaInterfaces == ["eth0", "wlan0"], "repeats collapse")
    #expect(wait.interfaces.isEmpty, "--via is not --interface")
    #expect(wait.anyInterface)
    #expect(wait.ignoredInterfaces == ["lo"])
    #expect(wait.waitCondition.description == "a satisfied path through eth0 or wlan0 (ignoring lo)")
    let networkd = try CommandLineOptions.parse(["wait", "-i", "eth0", "--interface=wlan0:routable", "-i", "eth0"])
    #expect(networkd.interfaces == ["eth0", "wlan0"], "repeats collapse")
    #expect(networkd.interfaceStates == ["wlan0": OperationalState.Range(minimum: .routable)])
  }

  @Test(arguments: ["", ".", "..", "a/b", "a b", "sixteen-chars-xx"])
  func rejectsWhatCannotNameAnInterface(_ name: String) {
    for option in ["--interface", "--via", "--ignore"] {
      #expect(throws: CommandLineOptions.UsageError.self, "\(option) '\(name)'") {
        try CommandLineOptions.parse(["wait", option, name])
      }
    }
  }
}

@Suite("--probe-interval")
struct ProbeIntervalTests {
  @Test func setsTheRecheckWhileFull() throws {
    let options = try CommandLineOptions.parse(["watch", "--probe", "http://h/", "--probe-interval", "5min"])
    #expect(options.probe?.recheckInterval == .seconds(300))
    #expect(try CommandLineOptions.parse(["--probe", "http://h/"]).probe?.recheckInterval == nil, "never, by default")
    #expect(
      try CommandLineOptions.parse(["--probe", "http://h/", "--probe-interval=infinity"]).probe?.recheckInterval == nil)
  }

  @Test(arguments: [
    ["--probe-interval", "5s"], ["--probe", "http://h/", "--probe-interval", "500ms"],
    ["--probe", "http://h/", "--probe-interval", "0"], ["--probe", "http://h/", "--probe-interval", "soon"],
  ])
  func rejects(_ arguments: [String]) {
    #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
  }
}

@Suite("conventions from ip, git and systemctl")
struct CommandLineConventionTests {
  @Test func globalOptionsMayComeBeforeTheCommand() throws {
    let watch = try CommandLineOptions.parse(["-n", "blue", "--json", "watch"])
    #expect(watch.command == .watch && watch.json && watch.networkNamespace == "blue")
    let attached = try CommandLineOptions.parse(["-jnblue", "wait", "-t", "5s"])
    #expect(attached.command == .wait && attached.json && attached.networkNamespace == "blue")
    let valueLikeACommand = try CommandLineOptions.parse(["--netns", "watch", "show"])
    #expect(valueLikeACommand.command == .show && valueLikeACommand.networkNamespace == "watch")
    let allNetns = try CommandLineOptions.parse(["--all-netns", "watch"])
    #expect(allNetns.command == .watch && allNetns.allNamespaces)
    #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["--all", "watch"]) }
  }

  @Test func helpIsACommandAndHTakesOne() throws {
    let overview = try CommandLineOptions.parse(["help"])
    #expect(overview.help && overview.command == .show)
    let wait = try CommandLineOptions.parse(["help", "wait"])
    #expect(wait.help && wait.command == .wait)
    let short = try CommandLineOptions.parse(["-h", "watch"])
    #expect(short.help && short.command == .watch)
    #expect(HelpText.text(for: short.command).hasPrefix("netstatus watch"))
    #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(["help", "wiat"]) }
  }

  @Test(arguments: [
    (["--jsno"], "did you mean '--json'?"), (["wacth"], "did you mean 'watch'?"),
    (["wait", "--timout", "5"], "did you mean '--timeout'?"), (["hlep"], "did you mean 'help'?"),
    (["--netnz", "blue", "watch"], "did you mean '--netns'?"),
    (["watch", "--timeout", "5"], "it is an option of 'wait'"), (["-x"], "unknown option '-x'"),
    (["frobnicate"], "commands are show, watch, wait, completions and help"),
  ])
  func unknownWordsSuggestTheClosestValidOne(_ arguments: [String], _ expected: String) {
    do {
      _ = try CommandLineOptions.parse(arguments)
      Issue.record("\(arguments) parsed")
    } catch {
      #expect(error.description.contains(expected), "\(error.description)")
    }
  }

  @Test func suggestionsAreOnlyForTypos() {
    #expect(Suggestion.closest(to: "--jsno", among: ["--json", "--netns"]) == "--json")
    #expect(Suggestion.closest(to: "--xyzzy", among: ["--json", "--netns"]) == nil)
    #expect(Suggestion.closest(to: "ab", among: ["show"]) == nil)
    #expect(Suggestion.editDistance(Array("wacth"), Array("watch")) == 1, "a swap is one edit")
  }
}

@Suite("netstatus messages in the CLI's words")
struct CommandMessagesTests {
  @Test func aPermissionHintNamesWhatIsMissing() {
    let refused = NetworkMonitorError.namespaceNotEnterable(path: "/run/netns/blue", errno: .notPermitted)
    let root = CommandMessages.text(refused, credentials: .init(isRoot: true, hasSysAdmin: false))
    #expect(!root.contains("run as root") && root.contains("lacks") && root.contains("CAP_SYS_ADMIN"), "\(root)")
    let capable = CommandMessages.text(refused, credentials: .init(isRoot: true, hasSysAdmin: true))
    #expect(!capable.contains("run as root") && capable.contains("/proc/1/ns/net"), "\(capable)")
    let user = CommandMessages.text(refused, credentials: .init(isRoot: false, hasSysAdmin: false))
    #expect(user.contains("run netstatus as root"), "\(user)")
    #expect(user.hasPrefix("cannot enter network namespace /run/netns/blue: EPERM"), "\(user)")
  }

  @Test func aDeletedNamespaceIsNotTheLibrarySpeaking() {
    let text = CommandMessages.text(
      .namespaceDeleted(path: "/run/netns/blue"), credentials: .init(isRoot: true, hasSysAdmin: true))
    #expect(!text.contains("Start the monitor"), "\(text)")
    #expect(text.contains("Run netstatus again"), "\(text)")
    let credentials = CommandMessages.Credentials(isRoot: true, hasSysAdmin: true)
    for error in [
      NetworkMonitorError.timedOut(.seconds(10)), .sourceFailed("no dump"), .unsupportedPlatform("Windows"),
    ] {
      let line = CommandMessages.text(error, credentials: credentials)
      #expect(!line.contains("monitor") && !line.contains("PathSource"), "\(line)")
    }
  }

  @Test func anUnexpectedAnswerIsNotSimplyAPortal() {
    let report = ConnectivityReport(
      state: .portal(redirect: nil),
      check: ConnectivityCheck(
        state: .portal(redirect: nil), detail: "HTTP 200, expected 204", interface: "eth0", duration: .milliseconds(3)))
    let text = PathFormatter(style: .plain).internet(report)
    #expect(text.hasPrefix("portal (unexpected answer: HTTP 200, expected 204;"), "\(text)")
    #expect(text.contains("--expect does not match the server"), "\(text)")
  }
}
