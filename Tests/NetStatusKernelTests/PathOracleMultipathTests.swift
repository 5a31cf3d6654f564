#if os(Linux)
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore

  /// The oracle's multipath rule (PathOracle+Multipath.swift) on `ip`'s captured answers.
  @Suite("differential oracle: multipath")
  struct PathOracleMultipathTests {
    // Captured from `ip -n NS -j route get fibmatch …` (iproute2 6.1, Linux 6.18): a multipath default metric 20
    // via 192.0.2.1 dev v0 and 198.51.100.1 dev v1 (and 2001:db8::1, 2001:db8:1::1), v0's peer set down, then v1
    // set down.
    static let capturedIPv6 =
      #"[{"dst":"default","metric":20,"flags":[],"pref":"medium","nexthops":[{"gateway":"2001:db8:1::1","dev":"v1","weight":1,"flags":[]},{"gateway":"2001:db8::1","dev":"v0","weight":1,"flags":["linkdown"]}]}]"#
    static let capturedBothDown =
      #"[{"dst":"default","metric":20,"flags":[],"nexthops":[{"gateway":"192.0.2.1","dev":"v0","weight":1,"flags":["linkdown"]},{"gateway":"198.51.100.1","dev":"v1","weight":1,"flags":["dead","linkdown"]}]}]"#

    /// v0 without carrier, v1 up with carrier; 192.0.2.10 on v0, 2001:db8:1::10 on v1.
    static func snapshot() -> PathOracle.Snapshot {
      PathOracle.Snapshot(
        links: [
          .init(index: 2, name: "v0", flags: ["BROADCAST", "MULTICAST", "UP"]),
          .init(index: 3, name: "v1", flags: ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"]),
        ],
        addresses: [
          .init(
            interfaceIndex: 2, local: "192.0.2.10", family: .ipv4, scope: "global", isTentative: false,
            isDADFailed: false),
          .init(
            interfaceIndex: 3, local: "2001:db8:1::10", family: .ipv6, scope: "global", isTentative: false,
            isDADFailed: false),
        ],
        primary: [:], fibmatch: [:], bound: [:], transcript: "")
    }

    @Test("legs are read with their flags")
    func legs() throws {
      let route = try PathOracle.route(Self.capturedBothDown)
      #expect(route.legs.map(\.device) == ["v0", "v1"])
      #expect(route.legs.map(\.isAlive) == [false, false])
      #expect(try PathOracle.route(Self.capturedIPv6).legs.map(\.isAlive) == [true, false])
    }

    @Test("a primary through a leg without carrier: a usable leg carries the family, no usable leg leaves nothing")
    func deadLeg() throws {
      var snapshot = Self.snapshot()
      snapshot.primary[.ipv6] = try PathOracle.route(
        #"[{"dst":"2001:4860:4860::8888","gateway":"2001:db8::1","dev":"v0","prefsrc":"2001:db8:1::10","flags":["linkdown"]}]"#
      )
      snapshot.primaryMatch[.ipv6] = try PathOracle.route(Self.capturedIPv6)
      #expect(
        PathOracle.expectedPath(snapshot)
          == PathOracle.Expected(
            status: .satisfied, interfaces: ["v1"], gateways: ["2001:db8:1::1"], supportsIPv4: false,
            supportsIPv6: true))
      #expect(PathOracle.expectedPath(snapshot) { $0.name != "v1" } == .unsatisfied)
      snapshot.primary[.ipv4] = try PathOracle.route(
        #"[{"dst":"8.8.8.8","gateway":"192.0.2.1","dev":"v0","prefsrc":"192.0.2.10","flags":[]}]"#)
      snapshot.primaryMatch[.ipv4] = try PathOracle.route(Self.capturedBothDown)
      #expect(PathOracle.expectedPath(snapshot).supportsIPv4 == false)
    }
  }
#endif
