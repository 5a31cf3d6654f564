import NetStatusLinuxTestSupport
import NetStatusTestSupport
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusConnectivity
@testable import NetStatusCore

/// Internet per address family with the Apple transport: each family checked on its own, over a connection restricted
/// to that IP version (`NWProtocolIP.Options.version`), against a dual-stack site whose probe host name has an IPv4 and
/// an IPv6 address (ProbeSite.swift), with the server listening on one family only. The stand-in `NWConnection`
/// connects only to the addresses of the version asked, as Apple documents the version to do.
@Suite(
  "NWConnection probe transport per address family", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NWConnectionProbeFamilyTests {
  /// The probe host's two addresses, as the site's hosts file names them.
  static let names: [String: [NWEndpoint.Host]] = [
    ProbeSite.dualStackHostName: [
      NWEndpoint.Host(ProbeSite.serverAddress), NWEndpoint.Host(ProbeSite.serverIPv6Address),
    ]
  ]

  /// One check of a dual-stack path (a Mac's wired Ethernet, `en1`) over the site, as a ``ConnectivityMonitor`` makes
  /// it.
  func check(_ site: ProbeSite, log: ConnectionLog) async throws -> ConnectivityCheck {
    var dualStack = NetworkPath.connected(via: .wiredEthernet)
    dualStack.supportsIPv6 = true
    let path = dualStack
    let transport = try log.transport(in: site.target, names: Self.names)
    #expect(transport.separatesFamilies, "the monitor checks each family on its own only when the transport can")
    let probe = try ConnectivityProbe(url: ProbeSite.dualStackURL, timeout: .seconds(5))
    let check = try await withTimeout(.seconds(15), "the check of both families") {
      await ConnectivityMonitor.check(
        over: path, interface: path.availableInterfaces.first, probe: probe, transport: transport)
    }
    try await log.awaitAllEnded()
    #expect(Set(log.ipVersions) == [.v4, .v6], "one connection per family, each restricted to it: \(log.ipVersions)")
    return check
  }

  @Test func aServerOnIPv4OnlyIsFullOverIPv4AndNotOverIPv6() async throws {
    let site = try ProbeSite.dualStack("nwfam4")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }

    let check = try await check(site, log: ConnectionLog())
    let families = try #require(check.families, "each family checked on its own: \(check)")
    #expect(families.ipv4 == .full, "\(check)")
    #expect(families.ipv6 == .limited, "nothing listens on the IPv6 address: \(check)")
    #expect(check.state == .full, "the best of the two: \(check)")
    #expect(check.detail.hasPrefix("IPv4: HTTP 204; IPv6: "), "\(check)")
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"], "one request, over IPv4 only")
  }

  @Test func aServerOnIPv6OnlyIsFullOverIPv6AndNotOverIPv4() async throws {
    let site = try ProbeSite.dualStack("nwfam6")
    defer { site.delete() }
    let server = try await site.startIPv6Server("204")
    defer { server.stop() }

    let check = try await check(site, log: ConnectionLog())
    let families = try #require(check.families, "each family checked on its own: \(check)")
    #expect(families.ipv4 == .limited, "nothing listens on the IPv4 address: \(check)")
    #expect(families.ipv6 == .full, "\(check)")
    #expect(check.state == .full, "the best of the two: \(check)")
    #expect(check.detail.hasSuffix("; IPv6: HTTP 204"), "\(check)")
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"], "one request, over IPv6 only")
  }
}

/// The IP version each exchange asks of Network, without traffic: the host name resolves to nothing (the stand-in's
/// `resolveName`), so every connection waits at once with the DNS error a name without an address of the kind asked
/// gives.
@Suite("NWConnection probe transport: the IP version asked")
struct NWConnectionProbeVersionTests {
  /// The IP version a connection asked for, as recorded across threads: Apple's `NWProtocolIP.Options.Version` is
  /// not `Sendable`, and so neither is the stand-in's.
  enum AskedVersion: Sendable, Equatable {
    case any, v4, v6, other

    init(_ version: NWProtocolIP.Options.Version) {
      switch version {
      case .any: self = .any
      case .v4: self = .v4
      case .v6: self = .v6
      @unknown default: self = .other
      }
    }
  }

  /// One exchange, over `family` or either, and the version its connection's parameters were restricted to.
  func exchange(_ family: IPFamily?) async throws -> (ProbeExchange, AskedVersion?) {
    let versions = Recorder<AskedVersion?>()
    let transport = NWConnectionProbeTransport { host, port, parameters in
      versions.append(parameters.ipVersionWasSet.map(AskedVersion.init))
      let connection = NWConnection(host: host, port: port, using: parameters)
      connection.resolveName = { _ in [] }
      return connection
    }
    let probe = try ConnectivityProbe(url: "http://probe.nstest.invalid/generate_204", timeout: .seconds(5))
    let exchange = try await withTimeout(.seconds(10), "the exchange") {
      if let family { return await transport.exchange(probe, interface: nil, family: family) }
      return await transport.exchange(probe, interface: nil)
    }
    #expect(versions.values.count == 1, "one connection: \(versions.values)")
    return (exchange, versions.values.first ?? nil)
  }

  @Test func eachFamilyAsksItsOwnVersion() async throws {
    #expect(NWConnectionProbeTransport().separatesFamilies)
    let (ipv4, v4) = try await exchange(.ipv4)
    #expect(v4 == .v4)
    #expect(ipv4.result == .failed(.nameResolution(host: "probe.nstest.invalid", reason: "it has no IPv4 address")))
    let (ipv6, v6) = try await exchange(.ipv6)
    #expect(v6 == .v6)
    #expect(ipv6.result == .failed(.nameResolution(host: "probe.nstest.invalid", reason: "it has no IPv6 address")))
  }

  @Test func theFamilyBlindExchangeLeavesTheVersionToNetwork() async throws {
    let (either, version) = try await exchange(nil)
    #expect(version == nil, "no version set")
    #expect(either.result == .failed(.nameResolution(host: "probe.nstest.invalid", reason: "it has no address")))
  }

  @Test func tcpParametersCarryIPOptionsWhoseVersionIsAny() throws {
    let options = try #require(NWParameters.tcp.defaultProtocolStack.internetProtocol as? NWProtocolIP.Options)
    #expect(options.version == .any)
    #expect(NWParameters.tcp.ipVersionWasSet == nil)
  }

  @Test func noSuchRecordOverOneFamilySaysWhichAsLinuxDoes() {
    let host = "probe.nstest.invalid"
    #expect(
      NWConnectionProbe.failure(.dns(-65554), host: host, family: .ipv6)
        == .nameResolution(host: host, reason: "it has no IPv6 address"))
    #expect(
      NWConnectionProbe.failure(.dns(-65554), host: host, family: .ipv4)
        == .nameResolution(host: host, reason: "it has no IPv4 address"))
    #expect(
      NWConnectionProbe.failure(.dns(-65538), host: host, family: .ipv6)
        == .nameResolution(host: host, reason: "the name does not exist"))
  }
}
