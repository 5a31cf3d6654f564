import Testing

@testable import NetStatus
@testable import NetStatusCLI

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
