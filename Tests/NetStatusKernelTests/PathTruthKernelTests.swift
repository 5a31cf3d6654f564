#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore

  /// One kernel test per class of wrong path a mirrored routing table gives: stale online, false offline,
  /// shadowing, split defaults, online without a usable address, nexthop objects without compatibility
  /// routes, and carrier loss. Each is checked through the library (a `NetlinkPathSource` on the namespace),
  /// most also through the `netstatus` binary, and every expected path is cross-checked with the oracle of
  /// KernelDifferentialTests.swift, which reads nothing but `ip`'s own lookups.
  @Suite(
    "path truth: the kernel's own route lookup decides", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct PathTruthKernelTests {
    typealias Expected = PathOracle.Expected

    static func ipv4(_ interfaces: [String], _ gateways: [String]) -> Expected {
      Expected(status: .satisfied, interfaces: interfaces, gateways: gateways, supportsIPv4: true, supportsIPv6: false)
    }

    static func ipv6(_ interfaces: [String], _ gateways: [String]) -> Expected {
      Expected(status: .satisfied, interfaces: interfaces, gateways: gateways, supportsIPv4: false, supportsIPv6: true)
    }

    // MARK: Stale online

    @Test("stale online: a multipath default over two links whose links go down and up again")
    func staleOnlineMultipathLinksDownAndUp() async throws {
      let lab = try PathLab("mpdown")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("addr add 198.51.100.10/24 dev v1")
      try lab.watched.ip("route add default metric 20 nexthop via 192.0.2.1 dev v0 nexthop via 198.51.100.1 dev v1")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      // The kernel's hash picks the hop unbound traffic takes: that one first, then the other link.
      let first = try #require(try lab.snapshot().primary[.ipv4]?.device)
      let gateways = ["v0": "192.0.2.1", "v1": "198.51.100.1"]
      let order = first == "v0" ? ["v0", "v1"] : ["v1", "v0"]
      try await lab.expect(recorder, Self.ipv4(order, order.map { gateways[$0]! }), "both hops")

      try lab.watched.ip("link set v0 down")
      try await lab.expect(recorder, Self.ipv4(["v1"], ["198.51.100.1"]), "v0's hop is dead")
      try lab.watched.ip("link set v1 down")  // every hop dead: the kernel deletes the route, without a message
      try await lab.expect(recorder, .unsatisfied, "both links down")
      try lab.watched.ip("link set v0 up")
      try lab.watched.ip("link set v1 up")
      #expect(try lab.watched.ip("route show default").isEmpty, "the kernel does not bring the route back")
      try await lab.expect(recorder, .unsatisfied, "both links up again, but no route")
      #expect(try await lab.netstatusWait() == .exited(1))
      #expect(try await lab.netstatusPath().status == .unsatisfied)
    }

    @Test(
      "multipath truth: the leg the kernel hashes the lookup to loses carrier, the other leg carries the path",
      arguments: [PathOracle.Family.ipv4, .ipv6])
    func multipathDeadLeg(family: PathOracle.Family) async throws {
      let lab = try PathLab("mpdead\(family.rawValue)")
      defer { lab.delete() }
      let ipv4 = family == .ipv4
      let gateways = ipv4 ? ["v0": "192.0.2.1", "v1": "198.51.100.1"] : ["v0": "2001:db8::1", "v1": "2001:db8:1::1"]
      try lab.watched.ip(ipv4 ? "addr add 192.0.2.10/24 dev v0" : "addr add 2001:db8::10/64 dev v0 nodad")
      try lab.watched.ip(ipv4 ? "addr add 198.51.100.10/24 dev v1" : "addr add 2001:db8:1::10/64 dev v1 nodad")
      try lab.watched.ip(
        "\(ipv4 ? "" : "-6 ")route add default metric 20 nexthop via \(gateways["v0"]!) dev v0 nexthop via "
          + "\(gateways["v1"]!) dev v1")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      let picked = try #require(try lab.snapshot().primary[family]?.device)
      let other = picked == "v0" ? "v1" : "v0"
      let both = family == .ipv4 ? Self.ipv4 : Self.ipv6
      try await lab.expect(recorder, both([picked, other], [gateways[picked]!, gateways[other]!]), "both legs")

      // The kernel keeps hashing the lookup destination to the leg without carrier (ignore_routes_with_linkdown=0).
      try lab.peer.ip("link set p\(picked.dropFirst()) down")
      try await lab.expect(recorder, both([other], [gateways[other]!]), "\(picked) lost carrier")
      #expect(try lab.snapshot().primary[family]?.device == picked, "the kernel still picks the leg without carrier")
      #expect(try await lab.netstatusPath().availableInterfaces.map(\.name) == [other])
      try lab.peer.ip("link set p\(other.dropFirst()) down")
      try await lab.expect(recorder, .unsatisfied, "both legs lost carrier")
      try lab.peer.ip("link set p\(picked.dropFirst()) up")
      try await lab.expect(recorder, both([picked], [gateways[picked]!]), "\(picked) has carrier again")
    }

    @Test("stale online: an IPv6 multipath default whose hops are deleted one by one")
    func staleOnlineIPv6MultipathHopsDeleted() async throws {
      let lab = try PathLab("mp6del")
      defer { lab.delete() }
      try lab.watched.ip("addr add 2001:db8::10/64 dev v0 nodad")
      try lab.watched.ip("addr add 2001:db8:1::10/64 dev v1 nodad")
      try lab.watched.ip(
        "-6 route add default metric 10 nexthop via 2001:db8::1 dev v0 nexthop via 2001:db8:1::1 dev v1")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      let first = try #require(try lab.snapshot().primary[.ipv6]?.device)
      let gateways = ["v0": "2001:db8::1", "v1": "2001:db8:1::1"]
      let order = first == "v0" ? ["v0", "v1"] : ["v1", "v0"]
      try await lab.expect(recorder, Self.ipv6(order, order.map { gateways[$0]! }), "both hops")

      try lab.watched.ip("-6 route del default via 2001:db8::1 dev v0 metric 10")
      try await lab.expect(recorder, Self.ipv6(["v1"], ["2001:db8:1::1"]), "v0's hop deleted")
      #expect(try await lab.netstatusPath().gateways == ["2001:db8:1::1"])
      try lab.watched.ip("-6 route del default via 2001:db8:1::1 dev v1 metric 10")
      try await lab.expect(recorder, .unsatisfied, "both hops deleted")
      #expect(try await lab.netstatusWait() == .exited(1))
    }

    @Test("stale online: a default through a nexthop object, and the nexthop deleted")
    func staleOnlineNexthopDeleted() async throws {
      let lab = try PathLab("nhdel")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("nexthop add id 1 via 192.0.2.1 dev v0")
      try lab.watched.ip("route add default nhid 1")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the default through nexthop 1")

      try lab.watched.ip("nexthop del id 1")  // the kernel deletes the routes that use it
      #expect(try lab.watched.ip("route show default").isEmpty)
      try await lab.expect(recorder, .unsatisfied, "nexthop 1 deleted")
      #expect(try await lab.netstatusWait() == .exited(1))
    }

    // MARK: False offline

    @Test("false offline: two defaults on one link (ip route append), one deleted, the other still reported")
    func falseOfflineAppendedDefaultRemains() async throws {
      let lab = try PathLab("append")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0")
      try lab.watched.ip("route append default via 192.0.2.2 dev v0")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      // Same table, prefix and metric: the kernel uses the first one; the second is a spare on the same link.
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the first default is used")

      try lab.watched.ip("route del default via 192.0.2.1 dev v0")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.2"]), "the appended default remains")
      #expect(try await lab.netstatusWait() == .exited(0))
      #expect(try await lab.netstatusPath().gateways == ["192.0.2.2"])
    }

    // MARK: Shadowing

    @Test(
      "shadowing: a lower-metric reject default in front of a unicast one",
      arguments: ["unreachable", "blackhole", "prohibit"])
    func shadowingRejectDefault(type: String) async throws {
      let lab = try PathLab("reject")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("addr add 2001:db8::10/64 dev v0 nodad")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0 metric 100")
      try lab.watched.ip("-6 route add default via 2001:db8::1 dev v0 metric 100")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      let both = Expected(
        status: .satisfied, interfaces: ["v0"], gateways: ["192.0.2.1", "2001:db8::1"], supportsIPv4: true,
        supportsIPv6: true)
      try await lab.expect(recorder, both, "both families")

      try lab.watched.ip("route add \(type) default metric 10")
      try await lab.expect(recorder, Self.ipv6(["v0"], ["2001:db8::1"]), "IPv4 \(type) in front")
      try lab.watched.ip("-6 route add \(type) default metric 10")
      try await lab.expect(recorder, .unsatisfied, "IPv6 \(type) in front too")
      #expect(try await lab.netstatusWait() == .exited(1))

      try lab.watched.ip("route del \(type) default metric 10")
      try lab.watched.ip("-6 route del \(type) default metric 10")
      try await lab.expect(recorder, both, "the reject routes are gone")
    }

    @Test("shadowing: an unreachable policy rule in front of the main table")
    func shadowingUnreachableRule() async throws {
      let lab = try PathLab("rule")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the main table's default")

      try lab.watched.ip("rule add pref 100 unreachable")
      try await lab.expect(recorder, .unsatisfied, "the rule answers unreachable first")
      #expect(try await lab.netstatusWait() == .exited(1))
      try lab.watched.ip("rule del pref 100")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the rule is gone")
    }

    @Test("shadowing: a default route only in a table no rule consults")
    func shadowingUnconsultedTable() async throws {
      let lab = try PathLab("table")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0 table 100")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, .unsatisfied, "table 100 is never looked up")
      #expect(try await lab.netstatusWait() == .exited(1))

      try lab.watched.ip("rule add pref 1000 lookup 100")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "a rule consults table 100")
      #expect(try await lab.netstatusWait() == .exited(0))
    }

    // MARK: Split default

    @Test("split default: 0.0.0.0/1 and 128.0.0.0/1 through another link (redirect-gateway def1) come first")
    func splitDefaultComesFirst() async throws {
      let lab = try PathLab("split")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("addr add 198.51.100.10/24 dev v1")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0 metric 100")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the plain default")

      // As OpenVPN's redirect-gateway def1 does, through the tunnel (here v1).
      try lab.watched.ip("route add 0.0.0.0/1 via 198.51.100.1 dev v1")
      try lab.watched.ip("route add 128.0.0.0/1 via 198.51.100.1 dev v1")
      let split = Self.ipv4(["v1", "v0"], ["198.51.100.1", "192.0.2.1"])
      try await lab.expect(recorder, split, "the split default wins")
      let path = try await lab.netstatusPath()
      #expect(path.availableInterfaces.map(\.name) == ["v1", "v0"])
      #expect(path.gateways == ["198.51.100.1", "192.0.2.1"])

      try lab.watched.ip("route del 0.0.0.0/1 via 198.51.100.1 dev v1")
      try lab.watched.ip("route del 128.0.0.0/1 via 198.51.100.1 dev v1")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "the tunnel's routes are gone")
    }

    // MARK: Online without a usable address

    @Test("online without a usable address: only a tentative global IPv6 address and a link-local gateway")
    func onlineWithoutUsableAddressTentative() async throws {
      // DAD on v0 with a day between probes: its addresses stay tentative for the whole test.
      let lab = try PathLab("tent", tentativeLink: 0)
      defer { lab.delete() }
      try lab.watched.ip("addr add 2001:db8::10/64 dev v0")
      try lab.watched.ip("-6 route add default via fe80::1 dev v0")
      let addresses = try lab.snapshot().addresses.filter { $0.family == .ipv6 && $0.interfaceIndex != 1 }
      try #require(addresses.contains { $0.local == "2001:db8::10" && $0.isTentative }, "\(addresses)")
      try #require(!addresses.contains { $0.isUsable }, "\(addresses)")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, .unsatisfied, "no usable IPv6 source")

      let clock = ContinuousClock()
      let started = clock.now
      #expect(try await lab.netstatusWait(timeout: "1") == .exited(1), "netstatus wait must not say online")
      #expect(clock.now - started >= .seconds(1), "it waited for its timeout")

      // The same route with a usable address: online.
      try lab.watched.ip("addr add 2001:db8::11/64 dev v0 nodad")
      try await lab.expect(recorder, Self.ipv6(["v0"], ["fe80::1"]), "a usable address")
      #expect(try await lab.netstatusWait() == .exited(0))
    }

    @Test("online without a usable address: default dev X with no address, then one on another interface")
    func onlineWithoutUsableAddressDeviceRoute() async throws {
      let lab = try PathLab("devroute")
      defer { lab.delete() }
      try lab.watched.ip("route add default dev v0")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, .unsatisfied, "no IPv4 address anywhere")
      #expect(try await lab.netstatusWait() == .exited(1))

      // The kernel takes the source from another interface's address: traffic through v0 works.
      try lab.watched.ip("addr add 198.51.100.10/24 dev v1")
      try await lab.expect(recorder, Self.ipv4(["v0"], []), "v1's address is the source")
      #expect(try await lab.netstatusWait() == .exited(0))
      let path = try await lab.netstatusPath()
      #expect(path.supportsIPv4 && path.availableInterfaces.map(\.name) == ["v0"])
    }

    // MARK: nexthop_compat_mode=0

    @Test("nexthop_compat_mode=0: a working default through nexthop objects")
    func nexthopCompatModeOff() async throws {
      let lab = try PathLab("compat")
      defer { lab.delete() }
      // Per namespace. Routes through nexthop objects are then announced with the nexthop id only.
      try lab.watched.exec(["sysctl", "-q", "-w", "net.ipv4.nexthop_compat_mode=0"])
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("addr add 2001:db8::10/64 dev v0 nodad")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try lab.watched.ip("nexthop add id 1 via 192.0.2.1 dev v0")
      try lab.watched.ip("route add default nhid 1")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "IPv4 through nexthop 1")
      #expect(try await lab.netstatusWait() == .exited(0))
      #expect(try await lab.netstatusPath().gateways == ["192.0.2.1"])

      try lab.watched.ip("nexthop add id 2 via 2001:db8::1 dev v0")
      try lab.watched.ip("-6 route add default nhid 2")
      let both = Expected(
        status: .satisfied, interfaces: ["v0"], gateways: ["192.0.2.1", "2001:db8::1"], supportsIPv4: true,
        supportsIPv6: true)
      try await lab.expect(recorder, both, "IPv6 through nexthop 2")
    }

    // MARK: Carrier

    /// Promptness is proved by the snapshot: `netstatus` started right after `ip link` shows NO-CARRIER says
    /// unsatisfied (the operational state, which lags by up to a second, is not consulted). The watch's report comes
    /// when the kernel announces the change; its wait is generous, since a loaded machine (CI runs the sanitizers
    /// with every suite in parallel) can delay that announcement past a second.
    @Test("carrier: unsatisfied when the peer drops carrier (IFF_LOWER_UP, no operstate lag)")
    func carrierLossIsPrompt() async throws {
      let lab = try PathLab("carrier")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev v0")
      try lab.watched.ip("route add default via 192.0.2.1 dev v0")
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "carrier")

      try lab.peer.ip("link set p0 down")  // v0 stays up, loses carrier; the kernel keeps the route
      try await lab.expect(recorder, .unsatisfied, "no carrier", timeout: .seconds(10))
      #expect(try await lab.netstatusPath().status == .unsatisfied)
      #expect(try await lab.netstatusWait() == .exited(1))
      try lab.peer.ip("link set p0 up")
      try await lab.expect(recorder, Self.ipv4(["v0"], ["192.0.2.1"]), "carrier is back", timeout: .seconds(10))
    }
  }

  extension PathLab {
    /// Checks that the oracle (what `ip` says) gives `expected`, then waits until the monitor's latest path
    /// is `expected`, failing after `timeout`.
    func expect(
      _ recorder: PathRecorder, _ expected: PathOracle.Expected, _ what: String, timeout: Duration = .seconds(30),
      sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
      let snapshot = try snapshot()
      let oracle = PathOracle.expectedPath(snapshot)
      #expect(
        oracle == expected, "the oracle disagrees (\(what)): \(oracle)\n\(snapshot.transcript)",
        sourceLocation: sourceLocation)
      let matched = await recorder.waitForLatest(timeout: timeout) { PathOracle.Expected($0) == expected }
      if !matched {
        let latest = recorder.latest.map { "\(PathOracle.Expected($0)) (\($0))" } ?? "none"
        Issue.record(
          "timed out after \(timeout) waiting for \(what): expected \(expected); the monitor's latest: \(latest)",
          sourceLocation: sourceLocation)
      }
    }

    /// `netstatus --json --netns WATCHED`: the path the binary prints.
    func netstatusPath() async throws -> NetworkPath {
      let run = try NetstatusProcess(["--json", "--netns", watched.name])
      let exit = try await run.waitForExit()
      try #require(exit == .exited(0), "stderr: \(run.errorOutput)")
      return try run.path(at: 0)
    }

    /// `netstatus wait --netns WATCHED --timeout SECONDS --quiet`: 0 online, 1 timed out.
    func netstatusWait(timeout: String = "0.5") async throws -> ChildProcess.Exit {
      let run = try NetstatusProcess(["wait", "--timeout", timeout, "--quiet", "--netns", watched.name])
      return try await run.waitForExit()
    }
  }
#endif
