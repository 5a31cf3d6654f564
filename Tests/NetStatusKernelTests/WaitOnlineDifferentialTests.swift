#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// One situation a real systemd-networkd is put in, and the `wait` arguments both tools are asked about in it.
  struct WaitOnlineScenario: Sendable, CustomTestStringConvertible {
    var name: String
    /// `.network` and `.netdev` files, by file name.
    var files: [String: String]
    /// `ip` commands run in the namespace before networkd starts.
    var setup: [String] = []
    /// What networkd's files must say (by link name) before the tools are asked (and again after ``change``).
    var ready: @Sendable ([String: NetworkdLinkState]) -> Bool
    /// `ip` commands run once ready, then waited for with ``settled``.
    var change: [String] = []
    var settled: (@Sendable ([String: NetworkdLinkState]) -> Bool)? = nil
    /// `ip` commands run right after the tools start: a link that appears while they wait. Both tools are then given
    /// 30 s rather than 3: how long networkd takes to configure the new link on a loaded machine is no part of the
    /// comparison, and a run cannot be asked again (the link is there by then).
    var late: [String] = []
    var arguments: [[String]]

    var testDescription: String { name }

    /// A `.network` file for `name` with `lines` in its `[Network]` section and `link` in `[Link]`.
    static func network(_ name: String, _ lines: [String], link: [String] = []) -> String {
      "[Match]\nName=\(name)\n\n[Link]\n" + link.map { $0 + "\n" }.joined() + "\n[Network]\n"
        + (lines + ["IPv6AcceptRA=no"]).map { $0 + "\n" }.joined()
    }

    /// `name`'s file says `admin` and `operational`.
    static func state(_ name: String, _ admin: String, _ operational: String)
      -> @Sendable (
        [String: NetworkdLinkState]
      ) -> Bool
    {
      { $0[name]?.administrativeState == admin && $0[name]?.operationalState == operational }
    }
  }

  /// `netstatus wait` against the real `systemd-networkd-wait-online` (systemd 252), each scenario under a real
  /// systemd-networkd in namespaces of its own: both tools run in networkd's network and mount namespaces (nsenter)
  /// with the same arguments and a 3 s timeout, and must agree (both exit 0, or both not).
  ///
  /// By design, and so not compared (the man page says so): with no argument, or `-4` / `-6` alone, `netstatus wait`
  /// waits for a usable path, as nm-online does, where wait-online waits for every link networkd manages.
  @Suite("wait -i as systemd-networkd-wait-online decides it, against the real one", .serialized)
  struct WaitOnlineDifferentialTests {
    static let waitOnline = "/lib/systemd/systemd-networkd-wait-online"
    static let nsenter = ["/usr/bin/nsenter", "/bin/nsenter"].first(
      where: FileManager.default.isExecutableFile(atPath:))

    static let staticAddress = WaitOnlineScenario.network("veth0", ["Address=192.0.2.10/24", "LinkLocalAddressing=no"])

    static let scenarios: [WaitOnlineScenario] = [
      WaitOnlineScenario(
        name: "a static address: configured, routable; an unmanaged peer", files: ["10-veth0.network": staticAddress],
        ready: WaitOnlineScenario.state("veth0", "configured", "routable"),
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:routable"], ["-i", "veth0:degraded:degraded"],
          ["-i", "veth0:carrier:degraded"],
          ["-i", "veth0:no-carrier"], ["-i", "veth0", "-4"], ["-i", "veth0", "-6"], ["-i", "veth0", "-4", "-6"],
          ["-i", "veth1"], ["-i", "veth1:carrier"], ["-i", "nope"], ["-i", "nope:missing"],
          ["--any", "-i", "nope", "-i", "veth0"], ["-i", "veth0", "-i", "nope"], ["--any"], ["-o", "routable"],
          ["-o", "degraded:degraded"], ["--ignore=veth0"], ["--ignore=veth*"], ["--ignore=nope"], ["--any", "-6"],
          ["-4", "--ignore=nope"], ["-o", "routable", "-i", "veth0:carrier:degraded"],
          ["-o", "carrier:degraded", "-i", "veth0"],
        ]),
      WaitOnlineScenario(
        name: "DHCP with no server: still configuring",
        files: ["10-veth0.network": WaitOnlineScenario.network("veth0", ["DHCP=ipv4", "LinkLocalAddressing=no"])],
        ready: WaitOnlineScenario.state("veth0", "configuring", "carrier"),
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:routable"], ["-i", "veth0:no-carrier"], ["-i", "veth0:off"], ["--any"],
          ["-o", "carrier"], ["-i", "veth1:carrier"],
        ]),
      WaitOnlineScenario(
        name: "no carrier from the start", files: ["10-veth0.network": staticAddress],
        setup: ["link set veth1 down"],
        ready: { $0["veth0"]?.operationalState == "no-carrier" && $0["veth0"]?.administrativeState != "pending" },
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:no-carrier"], ["-i", "veth0:off"], ["-i", "veth0:missing"], ["--any"],
          ["-o", "no-carrier"],
        ]),
      WaitOnlineScenario(
        name: "ActivationPolicy=down",
        files: [
          "10-veth0.network": WaitOnlineScenario.network(
            "veth0", ["Address=192.0.2.10/24", "LinkLocalAddressing=no"], link: ["ActivationPolicy=down"])
        ],
        ready: WaitOnlineScenario.state("veth0", "configuring", "off"),
        arguments: [["-i", "veth0"], ["-i", "veth0:off"], ["-i", "veth0:off:off"], ["--any"], ["-o", "off"]]),
      WaitOnlineScenario(
        name: "RequiredForOnline=routable on a link-local-only link",
        files: [
          "10-veth0.network": WaitOnlineScenario.network(
            "veth0", ["Address=fe80::5/64", "LinkLocalAddressing=no"], link: ["RequiredForOnline=routable"])
        ],
        ready: WaitOnlineScenario.state("veth0", "configured", "degraded"),
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:degraded"], ["--any"], ["-o", "degraded"], ["-i", "veth0", "-6"],
          ["-i", "veth0:degraded", "-6"], ["-i", "veth0:degraded", "-4"],
        ]),
      WaitOnlineScenario(
        name: "RequiredFamilyForOnline=ipv6 on an IPv4-only link",
        files: [
          "10-veth0.network": WaitOnlineScenario.network(
            "veth0", ["Address=192.0.2.10/24", "LinkLocalAddressing=no"], link: ["RequiredFamilyForOnline=ipv6"])
        ],
        ready: WaitOnlineScenario.state("veth0", "configured", "routable"),
        arguments: [["-i", "veth0"], ["-i", "veth0", "-4"], ["--any"], ["-o", "routable"], ["-i", "veth0:carrier"]]),
      WaitOnlineScenario(
        name: "a site-scope address",
        files: [
          "10-veth0.network": WaitOnlineScenario.network("veth0", ["Address=fec0::5/64", "LinkLocalAddressing=no"])
        ],
        ready: WaitOnlineScenario.state("veth0", "configured", "degraded"),
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:routable"], ["-i", "veth0", "-6"], ["-i", "veth0:routable", "-6"], ["--any"],
          ["-o", "routable"],
        ]),
      WaitOnlineScenario(
        name: "a bridge and its port",
        files: [
          "05-br0.netdev": "[NetDev]\nName=br0\nKind=bridge\n",
          "10-veth0.network": WaitOnlineScenario.network("veth0", ["Bridge=br0"]),
          "20-br0.network": WaitOnlineScenario.network("br0", ["Address=192.0.2.10/24", "LinkLocalAddressing=no"]),
        ],
        ready: {
          WaitOnlineScenario.state("veth0", "configured", "enslaved")($0)
            && WaitOnlineScenario.state("br0", "configured", "routable")($0)
        },
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:enslaved"], ["-i", "veth0:routable"], ["-i", "br0"], ["--any"],
          ["-o", "enslaved"], ["-o", "routable"], ["-i", "veth0", "-4"],
        ]),
      WaitOnlineScenario(
        name: "a link that appears while they wait",
        files: [
          "10-veth5.network": WaitOnlineScenario.network("veth5", ["Address=192.0.2.10/24", "LinkLocalAddressing=no"])
        ],
        ready: { $0["lo"]?.administrativeState == "unmanaged" },
        late: ["link add veth5 type veth peer veth6", "link set veth6 up"],
        arguments: [["-i", "veth5"], ["-i", "veth5:routable"], ["--any", "-i", "veth5", "-i", "veth9"]]),
      WaitOnlineScenario(
        name: "carrier lost after configuring", files: ["10-veth0.network": staticAddress],
        ready: WaitOnlineScenario.state("veth0", "configured", "routable"), change: ["link set veth1 down"],
        settled: { $0["veth0"]?.operationalState == "no-carrier" },
        arguments: [["-i", "veth0"], ["-i", "veth0:no-carrier"], ["--any"], ["-o", "no-carrier"]]),
      WaitOnlineScenario(
        name: "a link set down by hand", files: ["10-veth0.network": staticAddress],
        ready: WaitOnlineScenario.state("veth0", "configured", "routable"), change: ["link set veth0 down"],
        settled: { $0["veth0"]?.operationalState == "off" },
        arguments: [["-i", "veth0"], ["-i", "veth0:off"], ["--any"], ["-o", "off"]]),
      WaitOnlineScenario(
        name: "a link-local-only link (LinkLocalAddressing=ipv6)",
        files: ["10-veth0.network": WaitOnlineScenario.network("veth0", ["LinkLocalAddressing=ipv6"])],
        ready: WaitOnlineScenario.state("veth0", "configured", "degraded"),
        arguments: [
          ["-i", "veth0"], ["-i", "veth0:routable"], ["--any"], ["-o", "routable"], ["-i", "veth0", "-6"],
          ["-i", "veth0", "-4"],
        ]),
      WaitOnlineScenario(
        name: "an unmanaged link with an address set by hand", files: [:],
        setup: ["address add 192.0.2.10/24 dev veth0", "link set veth0 up"],
        ready: WaitOnlineScenario.state("veth0", "unmanaged", "routable"),
        arguments: [["-i", "veth0"], ["-i", "veth0:routable"], ["--any"], ["-o", "routable"], ["--ignore=veth1"]]),
    ]

    @Test("both tools agree", arguments: scenarios)
    func agree(_ scenario: WaitOnlineScenario) async throws {
      guard FileManager.default.isExecutableFile(atPath: RealNetworkd.binary),
        FileManager.default.isExecutableFile(atPath: Self.waitOnline), let nsenter = Self.nsenter,
        let ip = KernelTestSupport.ipPath, let user = getpwnam("systemd-network")
      else {
        try #require(
          ProcessInfo.processInfo.environment["CI"] == nil,
          "systemd-networkd, its wait-online or nsenter is missing: .ci/run installs systemd and util-linux")
        return
      }
      let namespace = try TestNamespace("wo")
      defer { namespace.delete() }
      try namespace.ip("link add veth0 type veth peer veth1")
      try namespace.ip("link set veth1 up")
      for command in scenario.setup { try namespace.ip(command) }

      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-wo-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let netif = folder.appendingPathComponent("netif").path
      let config = folder.appendingPathComponent("network").path
      for path in [netif, config] {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      }
      #expect(chown(netif, user.pointee.pw_uid, user.pointee.pw_gid) == 0)
      for (name, text) in scenario.files {
        try text.write(toFile: config + "/" + name, atomically: true, encoding: .utf8)
      }

      // networkd's state as the test reads it, by link name.
      let seen = Recorder<[String: NetworkdLinkState]>()
      var options = NetlinkPathSource.Options()
      options.networkdObserver = { status in
        let names = (try? LinkInventory.read(networkNamespace: namespace.name).links) ?? []
        var byName: [String: NetworkdLinkState] = [:]
        for link in names { byName[link.name] = status.links[link.index] }
        seen.append(byName)
      }
      let source = try NetlinkPathSource(networkNamespace: namespace.name, networkdRoot: netif, options: options)
      let session = try source.start(filter: .unrestricted, sink: PathRecorder().sink)
      defer { session.stop() }

      let networkd = try RealNetworkd.start(ip: ip, namespace: namespace.name, netif: netif, config: config)
      defer { networkd.terminate() }
      let pid = networkd.processIdentifier

      try await seen.waitUntil(timeout: .seconds(30), "\(scenario.name): networkd ready") {
        $0.last.map(scenario.ready) == true
      }
      if !scenario.change.isEmpty, let settled = scenario.settled {
        for command in scenario.change { try namespace.ip(command) }
        try await seen.waitUntil(timeout: .seconds(30), "\(scenario.name): settled") { $0.last.map(settled) == true }
      }

      // Both tools in networkd's network and mount namespaces, each argument list at once.
      func run(_ arguments: [String], timeout: String) -> [ChildProcess] {
        let options = ["--timeout=\(timeout)", "-q"]
        let enter = [nsenter, "--target", String(pid), "--net", "--mount", "--"]
        return [
          (try? ChildProcess(executable: nsenter, Array(enter.dropFirst()) + [Self.waitOnline] + arguments + options)),
          (try? ChildProcess(
            executable: nsenter,
            Array(enter.dropFirst()) + [NetstatusProcess.binaryPath, "wait"] + arguments + options)),
        ].compactMap { $0 }
      }
      func outcome(_ children: [ChildProcess]) async throws -> [Bool] {
        var results: [Bool] = []
        for child in children { results.append(try await child.waitForExit(timeout: .seconds(30)) == .exited(0)) }
        return results
      }

      let running = scenario.arguments.map { run($0, timeout: scenario.late.isEmpty ? "3" : "30") }
      for command in scenario.late { try namespace.ip(command) }
      var agreed = 0
      for (arguments, children) in zip(scenario.arguments, running) {
        try #require(children.count == 2, "both tools started for \(arguments)")
        var results = try await outcome(children)
        if results[0] != results[1], scenario.late.isEmpty {
          // A tool that met the condition may have started late on a loaded machine: asked again with more time, a
          // real difference stays.
          results = try await outcome(run(arguments, timeout: "15"))
        }
        let said = results.map { $0 ? "exit 0" : "no success" }
        let command = arguments.joined(separator: " ")
        let netstatusSaid = children[1].errorOutput
        #expect(
          results[0] == results[1],
          "\(scenario.name): \(command): wait-online \(said[0]), netstatus \(said[1]); \(netstatusSaid)")
        if results[0] == results[1] { agreed += 1 }
      }
      print("wait-online differential: \(scenario.name): \(agreed) of \(scenario.arguments.count) agree")
      networkd.signal(SIGTERM)
      _ = try await networkd.waitForExit(timeout: .seconds(20))
    }
  }
#endif
