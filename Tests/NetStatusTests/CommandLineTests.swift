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
    #expect(try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "99"]).probe?.expectation == .body("99"))
    #expect(
      try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "600"]).probe?.expectation == .body("600"))
    #expect(
      try CommandLineOptions.parse(["--probe", "http://h/", "--expect", "599"]).probe?.expectation == .status(599))
  }

  @Test func waitDefaultsToThirtySecondsAndZeroMeansForever() throws {
    #expect(try CommandLineOptions.parse(["wait"]).timeout == .seconds(30))
    #expect(try CommandLineOptions.parse(["wait", "--timeout", "0"]).timeout == nil)
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["wait", "--timeout", "soon"], "--timeout takes a number of seconds"),
    (["wait", "--timeout", "-1"], "--timeout takes a number of seconds"),
    (["wait", "--timeout"], "option --timeout needs a value"),
    (["wait", "--interface-type", "ethernet"], "unknown interface type 'ethernet'"),
    (["watch", "--ipv4"], "unknown option '--ipv4' for 'watch'"),
    (["fly"], "unknown command 'fly'"),
    (["show", "extra"], "unexpected argument 'extra'"),
    (["--json=yes"], "option --json takes no value"),
    (["--netns", ""], "--netns needs a namespace name or path"),
    (["wait", "--internet"], "wait --internet needs --probe URL: netstatus sends no traffic unless"),
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
        Interfaces   eth0   wiredEthernet  (in use)
                     wlan0  wifi
        Expensive    no
        Constrained  no
        IPv4         yes
        IPv6         no
        DNS          yes
        Gateways     192.0.2.1
        """)
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
        + #","connectivity":{"state":"portal","redirect":"http://p.test/login"}}"#)
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
  }

  @Test func watchLineReadsAtAGlance() {
    let formatter = PathFormatter(style: .plain)
    #expect(
      formatter.line(path, time: "12:00:00.000")
        == "12:00:00.000  online   eth0 (wiredEthernet) +wlan0  IPv4 DNS  via 192.0.2.1")
    #expect(formatter.line(.offline, time: "12:00:01.000") == "12:00:01.000  offline  notAvailable")
  }
}
