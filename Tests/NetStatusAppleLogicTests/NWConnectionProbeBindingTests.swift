import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import NetStatusTesting
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusConnectivity
@testable import NetStatusCore

#if canImport(Glibc)
  import Glibc
#endif

/// Binding the Apple probe's connection to the path's interface itself (`NWParameters.requiredInterface`) when the
/// path source knows Network's `NWInterface` for it (``NWInterfaceDirectory``), and to its type otherwise, without
/// traffic: every host name resolves to nothing (the stand-in's `resolveName`), so each connection waits at once.
@Suite("NWConnection probe transport: binding to the path's interface")
struct NWConnectionProbeBindingTests {
  static let en0 = NWInterface(name: "en0", index: 4, type: .wifi)
  static let en5 = NWInterface(name: "en5", index: 9, type: .wiredEthernet)
  static let cellular = NWInterface(name: "pdp_ip0", index: 3, type: .cellular)

  /// Stands for the session whose path the interfaces are from.
  final class Owner {}

  /// One exchange over `interface`, and what its connection's parameters required: the interface itself, the type.
  func exchange(over interface: NetworkInterface, interfaces: NWInterfaceDirectory?) async throws -> (
    exchange: ProbeExchange, exactly: NWInterface?, type: NWInterface.InterfaceType?
  ) {
    let required = Recorder<(NWInterface?, NWInterface.InterfaceType?)>()
    let transport = NWConnectionProbeTransport(interfaces: interfaces) { host, port, parameters in
      required.append((parameters.requiredInterfaceWasSet, parameters.requiredInterfaceTypeWasSet))
      let connection = NWConnection(host: host, port: port, using: parameters)
      connection.resolveName = { _ in [] }
      return connection
    }
    let probe = try ConnectivityProbe(url: "http://probe.nstest.invalid/generate_204", timeout: .seconds(5))
    let exchange = try await withTimeout(.seconds(10), "the exchange") {
      await transport.exchange(probe, interface: interface)
    }
    let made = try #require(required.values.first, "one connection")
    #expect(required.values.count == 1)
    #expect(exchange.boundInterface == interface.name, "named after the path's interface either way")
    return (exchange, made.0, made.1)
  }

  @Test func theConnectionIsBoundToTheInterfaceItselfWhenItsNWInterfaceIsKnown() async throws {
    let owner = Owner()
    let interfaces = NWInterfaceDirectory()
    interfaces.record([Self.en0, Self.en5], from: ObjectIdentifier(owner))

    let known = try await exchange(
      over: NetworkInterface(name: "en5", index: 9, type: .wiredEthernet), interfaces: interfaces)
    #expect(known.exactly == Self.en5, "the path's interface itself")
    #expect(known.type == nil, "not by type as well")

    // The same name under another index is another interface (en0 went and came back): by type.
    let renumbered = try await exchange(
      over: NetworkInterface(name: "en0", index: 7, type: .wifi), interfaces: interfaces)
    #expect(renumbered.exactly == nil)
    #expect(renumbered.type == .wifi)

    let unknown = try await exchange(
      over: NetworkInterface(name: "en9", index: 11, type: .wiredEthernet), interfaces: interfaces)
    #expect(unknown.exactly == nil)
    #expect(unknown.type == .wiredEthernet)
  }

  @Test func withoutASourceThatKnowsTheInterfaceTheConnectionIsBoundByType() async throws {
    let scripted = NWConnectionProbeTransport(following: ScriptedPathSource(.connected(via: .wifi)))
    #expect(scripted.interfaces == nil, "a scripted source knows no NWInterface")
    let byType = try await exchange(over: NetworkInterface(name: "en0", index: 4, type: .wifi), interfaces: nil)
    #expect(byType.exactly == nil)
    #expect(byType.type == .wifi)
  }

  @Test func theSourceKeepsTheLatestPathsInterfacesUntilItStops() async throws {
    let log = MonitorLog()
    let source = log.source
    let sent = Recorder<NetworkPath>()
    // What a check started by the path would find: the interfaces are kept before the path is sent.
    let foundWhenSent = Recorder<NWInterface?>()
    let session = try source.start(
      filter: .unrestricted,
      sink: PathSink { event in
        guard case .path(let path) = event else { return }
        foundWhenSent.append(
          path.availableInterfaces.first.flatMap { source.interfaces.interface(named: $0.name, index: $0.index) })
        sent.append(path)
      })
    defer { session.stop() }
    let monitor = try #require(log.monitors.first)

    #expect(monitor.emit(NWPath(status: .satisfied, availableInterfaces: [Self.en0, Self.en5], supportsIPv4: true)))
    try await sent.waitFor(count: 1, "the first path")
    #expect(foundWhenSent.values == [Self.en0])
    #expect(source.interfaces.interface(named: "en0", index: 4) == Self.en0)
    #expect(source.interfaces.interface(named: "en5", index: 9) == Self.en5)
    #expect(source.interfaces.interface(named: "en0", index: 5) == nil, "the same name under another index")

    // The next path replaces them: an interface it no longer lists is forgotten.
    #expect(monitor.emit(NWPath(status: .satisfied, availableInterfaces: [Self.cellular], supportsIPv4: true)))
    try await sent.waitFor(count: 2, "the second path")
    #expect(foundWhenSent.values == [Self.en0, Self.cellular])
    #expect(source.interfaces.interface(named: "en0", index: 4) == nil)
    #expect(source.interfaces.interface(named: "pdp_ip0", index: 3) == Self.cellular)

    session.stop()
    #expect(source.interfaces.interface(named: "pdp_ip0", index: 3) == nil, "a stopped session keeps nothing")
  }

  @Test func anOlderSessionsStopDoesNotForgetANewerOnesInterfaces() async throws {
    let log = MonitorLog()
    let source = log.source
    let sent = Recorder<NetworkPath>()
    let sink = PathSink { if case .path(let path) = $0 { sent.append(path) } }
    let first = try source.start(filter: .unrestricted, sink: sink)
    let second = try source.start(filter: .unrestricted, sink: sink)
    defer { second.stop() }
    let monitors = log.monitors
    try #require(monitors.count == 2)

    #expect(monitors[0].emit(NWPath(status: .satisfied, availableInterfaces: [Self.en0], supportsIPv4: true)))
    try await sent.waitFor(count: 1, "the first session's path")
    #expect(monitors[1].emit(NWPath(status: .satisfied, availableInterfaces: [Self.en5], supportsIPv4: true)))
    try await sent.waitFor(count: 2, "the second session's path")
    first.stop()
    #expect(source.interfaces.interface(named: "en5", index: 9) == Self.en5, "the newer session's, kept")
  }

  @Test func theTransportFindsTheSourceBehindASettledMonitor() {
    let source = MonitorLog().source
    let paths = NetworkMonitor(source: source)
    #expect(NWConnectionProbeTransport(following: source).interfaces === source.interfaces)
    let settled = paths.settled(offlineAfter: .seconds(1), onlineAfter: .seconds(1))
    #expect(NWConnectionProbeTransport(following: settled.source).interfaces === source.interfaces)
    let settledTwice = settled.settled(offlineAfter: .seconds(1), onlineAfter: .seconds(1))
    #expect(NWConnectionProbeTransport(following: settledTwice.source).interfaces === source.interfaces)
    let scripted = NetworkMonitor(source: ScriptedPathSource(.connected(via: .wifi)))
    #expect(
      NWConnectionProbeTransport(following: scripted.settled(offlineAfter: .zero, onlineAfter: .zero).source).interfaces
        == nil)
  }

  @Test func anInterfaceThatIsGoneIsSaidAsSuch() {
    let host = "probe.nstest.invalid"
    #expect(NWConnectionProbe.failure(.posix(.ENODEV), host: host) == .unreachable(errno: ENODEV))
    #expect(NWConnectionProbe.failure(.posix(.ENXIO), host: host) == .unreachable(errno: ENXIO))
    #expect(ProbeFailure.unreachable(errno: ENODEV).description == "unreachable: the interface is gone (ENODEV)")
    #expect(ProbeFailure.unreachable(errno: ENETDOWN).description == "unreachable: the interface is down (ENETDOWN)")
  }
}

/// A probe site whose target namespace has two wired interfaces: `v0`, to the server's namespace (ProbeSite.swift),
/// and `w0`, to a namespace `other` that holds the server's address too, with nothing listening. The default route
/// prefers `w0` (metric 100, `v0`'s 200): a connection not bound to `v0` itself is refused in `other`, and only one
/// bound to `v0` reaches the server. Both are wired Ethernet to the path, so binding by type cannot tell them apart.
final class TwoWiredSite: Sendable {
  let site: ProbeSite
  let other: TestNamespace
  /// The two interfaces as Network lists them (the indexes are the path's own; binding goes by name).
  static let v0 = NWInterface(name: "v0", index: 2, type: .wiredEthernet)
  static let w0 = NWInterface(name: "w0", index: 3, type: .wiredEthernet)

  init(_ label: String) throws {
    site = try ProbeSite(label)
    do {
      other = try TestNamespace(label + "o")
    } catch {
      site.delete()
      throw error
    }
    do {
      let target = site.target
      try target.ip("link add w0 type veth peer name w1 netns \(other.name)")
      try target.ip("addr add 192.0.2.2/24 dev w0")
      try other.ip("addr add 192.0.2.1/24 dev w1")
      try other.ip("addr add \(ProbeSite.serverAddress)/32 dev lo")
      try other.ip("link set w1 up")
      try target.ip("link set w0 up")
      // The server's answers come back on v0, whose reverse route is w0's: no strict reverse-path filter.
      try target.exec(["sysctl", "-q", "-w", "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.v0.rp_filter=0"])
      try site.deleteDefaultRoute()
      try target.ip("route add default via 192.0.2.1 dev w0 metric 100")
      try target.ip("route add default via \(ProbeSite.gateway) dev v0 metric 200")
    } catch {
      delete()
      throw error
    }
  }

  /// A path source whose first path lists `interfaces`, most preferred first, as `NWPathMonitor` would.
  static func source(_ interfaces: [NWInterface]) -> NWPathMonitorSource {
    MonitorLog {
      $0.pathOnStart = NWPath(
        status: .satisfied, availableInterfaces: interfaces, supportsIPv4: true, supportsDNS: true)
    }.source
  }

  func delete() {
    other.delete()
    site.delete()
  }
}

/// Only binding to the exact interface reaches the server when two interfaces of one type are up (``TwoWiredSite``),
/// over the stand-in `NWConnection`, which binds its socket to the required interface by name (`SO_BINDTODEVICE`).
@Suite(
  "NWConnection probe transport: the exact interface among two of one type", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NWConnectionProbeExactInterfaceTests {
  /// One exchange over the first interface of the path `source` reports, with a transport made for its monitor.
  func exchange(_ two: TwoWiredSite, source: NWPathMonitorSource, log: ConnectionLog) async throws -> ProbeExchange {
    let paths = NetworkMonitor(source: source)
    defer { paths.stop() }
    let path = try await paths.waitForPath(timeout: .seconds(5))
    let transport = try log.transport(
      in: two.site.target, interfaces: NWConnectionProbeTransport.interfaces(of: source))
    let probe = try ConnectivityProbe(url: two.site.url())
    let exchange = try await withTimeout(.seconds(10), "the exchange") {
      await transport.exchange(probe, interface: path.availableInterfaces.first)
    }
    try await log.awaitAllEnded()
    return exchange
  }

  @Test func theConnectivityMonitorReachesTheServerOverThePathsInterfaceOnly() async throws {
    let two = try TwoWiredSite("nwexact")
    defer { two.delete() }
    let server = try await two.site.startServer("204")
    defer { server.stop() }
    let source = TwoWiredSite.source([TwoWiredSite.v0, TwoWiredSite.w0])
    let log = ConnectionLog()
    let connectivity = ConnectivityMonitor(
      monitor: NetworkMonitor(source: source), probe: try ConnectivityProbe(url: two.site.url()),
      transport: try log.transport(in: two.site.target, interfaces: NWConnectionProbeTransport.interfaces(of: source)))
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("full") { $0 == .full }
    let check = try #require(connectivity.lastCheck)
    #expect(check.interface == "v0", "\(check)")
    #expect(log.requiredInterfaces.first == TwoWiredSite.v0, "bound to v0 itself: \(log.requiredInterfaces)")
    #expect(log.requiredInterfaceTypes.first == .some(nil), "not by type")
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"])
  }

  @Test func theOtherInterfaceOfTheSameTypeDoesNotReachIt() async throws {
    let two = try TwoWiredSite("nwother")
    defer { two.delete() }
    let server = try await two.site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()

    let exchange = try await exchange(two, source: TwoWiredSite.source([TwoWiredSite.w0, TwoWiredSite.v0]), log: log)
    #expect(exchange.result == .failed(.refused), "w0 leads to the namespace where nothing listens: \(exchange)")
    #expect(exchange.boundInterface == "w0")
    #expect(log.requiredInterfaces == [TwoWiredSite.w0])
    #expect(server.requests.isEmpty)
  }

  @Test func byTypeTheSystemChoosesAndHereItChoosesTheOther() async throws {
    let two = try TwoWiredSite("nwbytype")
    defer { two.delete() }
    let server = try await two.site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()
    let transport = try log.transport(in: two.site.target)
    let probe = try ConnectivityProbe(url: two.site.url())

    // v0 as a scripted path names it: no NWInterface known, so only its type is required.
    let exchange = try await withTimeout(.seconds(10), "the exchange") {
      await transport.exchange(probe, interface: NetworkInterface(name: "v0", index: 2, type: .wiredEthernet))
    }
    try await log.awaitAllEnded()
    #expect(log.requiredInterfaceTypes == [.wiredEthernet])
    #expect(log.requiredInterfaces == [nil])
    #expect(exchange.result == .failed(.refused), "the preferred route, over w0: \(exchange)")
    #expect(server.requests.isEmpty)
  }

  @Test func aStaleInterfaceIsSaidToBeGone() async throws {
    let two = try TwoWiredSite("nwstale")
    defer { two.delete() }
    let server = try await two.site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()
    let source = TwoWiredSite.source([TwoWiredSite.w0, TwoWiredSite.v0])
    let paths = NetworkMonitor(source: source)
    defer { paths.stop() }
    let path = try await paths.waitForPath(timeout: .seconds(5))
    // w0 goes after the path listed it, before the next path says so.
    try two.site.target.ip("link del w0")
    let transport = try log.transport(
      in: two.site.target, interfaces: NWConnectionProbeTransport.interfaces(of: source))
    let probe = try ConnectivityProbe(url: two.site.url())

    let exchange = try await withTimeout(.seconds(10), "the exchange") {
      await transport.exchange(probe, interface: path.availableInterfaces.first)
    }
    try await log.awaitAllEnded()
    #expect(log.requiredInterfaces == [TwoWiredSite.w0], "the NWInterface the latest path listed")
    #expect(exchange.result == .failed(.unreachable(errno: ENODEV)), "\(exchange)")
    let check = ConnectivityMonitor.check(exchange, probe: probe)
    #expect(check.state == .limited)
    #expect(check.detail == "unreachable: the interface is gone (ENODEV)", "\(check)")
    #expect(check.interface == "w0")
    #expect(server.requests.isEmpty)
  }
}
