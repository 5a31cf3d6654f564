import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import NetStatusTesting
@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusConnectivity
@testable import NetStatusCore
@testable import NetStatusLinuxSource

#if canImport(Glibc)
  import Glibc
#endif

/// The connections an ``NWConnectionProbeTransport`` made, each created on the stand-in's own thread inside a test
/// namespace (``NWConnection/onSocketThread``), as a Mac's would be made on the path it was asked for.
///
/// `@unchecked Sendable`: the stand-in `NWConnection` is not `Sendable`; the log only touches its connections under
/// its lock, and reads of their test hooks, which are themselves locked.
final class ConnectionLog: @unchecked Sendable {
  private let lock = NSLock()
  private var made: [NWConnection] = []
  private var required: [NWInterface.InterfaceType?] = []
  private var exactly: [NWInterface?] = []
  private var versions: [NWProtocolIP.Options.Version?] = []
  /// Every Network call the transport made on its connections, and how many `OSAllocatedUnfairLock`s it held then.
  let calls = Recorder<String>()

  /// The interface types the connections were restricted to (`nil`: none), oldest first.
  var requiredInterfaceTypes: [NWInterface.InterfaceType?] { lock.withLock { required } }
  /// The interfaces the connections were bound to exactly (`nil`: none), oldest first.
  var requiredInterfaces: [NWInterface?] { lock.withLock { exactly } }
  /// The IP versions the connections were restricted to (`nil`: none), oldest first.
  var ipVersions: [NWProtocolIP.Options.Version?] { lock.withLock { versions } }
  /// The connections, oldest first.
  var connections: [NWConnection] { lock.withLock { made } }

  /// The transport under test: its connections are made inside `namespace`, and resolve the host names in `names` to
  /// those addresses (as the namespace's own hosts file says, which the stand-in's `getaddrinfo(3)` does not read), and
  /// bind exactly to the interfaces `interfaces` knows.
  func transport(
    in namespace: TestNamespace, limits: HTTPResponseParser.Limits = HTTPResponseParser.Limits(),
    names: [String: [NWEndpoint.Host]] = [:], interfaces: NWInterfaceDirectory? = nil
  ) throws -> NWConnectionProbeTransport {
    let target = try NetworkNamespace(namespace.name)
    return NWConnectionProbeTransport(limits: limits, interfaces: interfaces) { [self] host, port, parameters in
      let connection = NWConnection(host: host, port: port, using: parameters)
      connection.onCall = { [calls] name in
        calls.append(HeldLocks.count == 0 ? name : "\(name) with \(HeldLocks.count) lock(s) held")
      }
      if !names.isEmpty { connection.resolveName = { names[$0] ?? [] } }
      connection.onSocketThread = {
        let handle = try target.open()
        defer { close(handle.fd) }
        try NetworkNamespace.enter(handle, path: target.path)
      }
      lock.withLock {
        made.append(connection)
        required.append(parameters.requiredInterfaceTypeWasSet)
        exactly.append(parameters.requiredInterfaceWasSet)
        versions.append(parameters.ipVersionWasSet)
      }
      return connection
    }
  }

  /// Waits until every connection made has been cancelled and has closed its socket.
  func awaitAllEnded(timeout: Duration = .seconds(5)) async throws {
    try await withTimeout(timeout, "every connection to be cancelled and closed") {
      while !self.connections.allSatisfy({ $0.cancelCount >= 1 && $0.hasEnded }) {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
  }
}

/// The Apple probe transport (`NWConnection`) against the same test servers as the Linux transport
/// (Tests/Fixtures/probe_http_server.py in a peer namespace, ProbeSite.swift), over the stand-in `NWConnection`, which
/// runs on real sockets: every answer ends as on Linux, within the same limits and the one deadline.
@Suite(
  "NWConnection probe transport against the test servers", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NWConnectionProbeTransportTests {
  /// One exchange over the site's target namespace, bound to its veth end (a wired Ethernet interface), judged.
  func check(
    _ site: ProbeSite, _ probe: ConnectivityProbe, log: ConnectionLog = ConnectionLog(),
    limits: HTTPResponseParser.Limits = HTTPResponseParser.Limits(), within: Duration = .seconds(10)
  ) async throws -> ConnectivityCheck {
    let transport = try log.transport(in: site.target, limits: limits)
    let exchange = try await withTimeout(within, "the exchange, bounded by the probe's timeout or its limits") {
      await transport.exchange(probe, interface: ProbeSite.interface)
    }
    try await log.awaitAllEnded()
    #expect(!log.calls.values.contains { $0.contains("held") }, "Network called under a lock: \(log.calls.values)")
    return ConnectivityMonitor.check(exchange, probe: probe)
  }

  @Test func fullWhenTheServerAnswers204() async throws {
    let site = try ProbeSite("nwfull")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()

    let check = try await check(site, try ConnectivityProbe(url: site.url()), log: log)
    #expect(check.state == .full, "\(check)")
    #expect(check.detail == "HTTP 204")
    #expect(check.interface == "v0", "named after the path's interface: \(check)")
    #expect(log.requiredInterfaceTypes == [.wiredEthernet], "restricted to the interface's type")
    #expect(log.requiredInterfaces == [nil], "no source to know the interface itself: by type only")
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"])
    // What the no-call-under-a-lock check (in check(_:_:)) saw: every kind of call the transport makes.
    let calls = Set(log.calls.values)
    for call in [
      "stateUpdateHandler", "start(queue:)", "send(content:contentContext:isComplete:completion:)",
      "receive(minimumIncompleteLength:maximumLength:completion:)", "cancel()",
    ] {
      #expect(calls.contains(call), "\(call) among \(calls)")
    }
  }

  @Test func withoutAnInterfaceTheConnectionIsNotRestricted() async throws {
    let site = try ProbeSite("nwfree")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()
    let transport = try log.transport(in: site.target)
    let probe = try ConnectivityProbe(url: site.url())

    let exchange = try await withTimeout(.seconds(30), "the exchange") {
      await transport.exchange(probe, interface: nil)
    }
    #expect(ConnectivityMonitor.check(exchange, probe: probe).state == .full)
    #expect(exchange.boundInterface == nil)
    #expect(log.requiredInterfaceTypes == [nil])
    #expect(log.requiredInterfaces == [nil])
  }

  @Test func portalWithARedirectThatIsNotFollowed() async throws {
    let site = try ProbeSite("nwportal")
    defer { site.delete() }
    // The redirect points back at the same server: following it would show as a second request.
    let server = try await site.startServer("redirect", ["--location", site.url("/login?from=probe")])
    defer { server.stop() }

    let check = try await check(site, try ConnectivityProbe(url: site.url()))
    #expect(check.state == .portal(redirect: site.url("/login?from=probe")), "\(check)")
    #expect(check.detail == "HTTP 302 to \(site.url("/login?from=probe"))")
    #expect(server.requests == ["request GET /generate_204"], "one request: the redirect was not followed")
  }

  @Test func portalWhenTheBodyIsNotTheExpectedText() async throws {
    let site = try ProbeSite("nwbody")
    defer { site.delete() }
    let server = try await site.startServer("body", ["--body", "<html>Welcome to Hotel Wi-Fi</html>"])
    defer { server.stop() }
    let probe = try ConnectivityProbe(url: site.url("/check"), expecting: .body("NetworkManager is online"))

    let check = try await check(site, probe)
    #expect(check.state == .portal(redirect: nil), "\(check)")
    #expect(check.detail.contains("the body is not the expected text"), "\(check)")
  }

  @Test func limitedWhenNothingListens() async throws {
    let site = try ProbeSite("nwrefused")
    defer { site.delete() }

    // A deadline longer than the exchange is given: the reason, not the time taken, says the refusal ended it.
    let probe = try ConnectivityProbe(url: site.url(), timeout: .seconds(60))
    let check = try await check(site, probe, within: .seconds(90))
    #expect(check.state == .limited, "\(check)")
    #expect(check.detail == "connection refused", "refused, not the deadline: \(check)")
  }

  @Test func limitedWhenTheRouteIsBlackholed() async throws {
    let site = try ProbeSite("nwblackhole")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    try site.blackholeServer()

    let check = try await check(site, try ConnectivityProbe(url: site.url(), timeout: .seconds(2)))
    #expect(check.state == .limited, "\(check)")
    #expect(check.detail == "unreachable: the route is a blackhole (EINVAL)")
    #expect(server.requests.isEmpty, "nothing reached the server")
  }

  @Test func limitedWhenTheServerNeverAnswersEndsAtTheDeadline() async throws {
    let site = try ProbeSite("nwhang")
    defer { site.delete() }
    let server = try await site.startServer("hang")
    defer { server.stop() }

    let check = try await check(site, try ConnectivityProbe(url: site.url(), timeout: .milliseconds(800)))
    #expect(check.state == .limited, "\(check)")
    #expect(check.detail.hasPrefix("no answer within"), "\(check)")
    // The reason names the 0.8 s deadline, and the server never answers: the deadline ended it. How soon after it
    // the check ends depends on the machine's load, so only the lower bound is asserted.
    #expect(check.duration >= .milliseconds(800))
    try await server.waitForLines(3, "the server to see the probe's connection closed")
  }

  @Test(arguments: [
    ("flood-continue", [String](), "the server sent more than 64 KiB of interim (1xx) responses"),
    ("flood-header", [], "the header did not end within 64 KiB"),
    ("flood-chunked", ["--chunk-size", "1"], "the answer did not end within 256 KiB"),
    ("flood-trailer", [], "the trailer did not end within the 64 KiB allowed for headers"),
  ])
  func anEndlessAnswerIsLimitedWithWhatHappened(mode: String, extra: [String], reason: String) async throws {
    let site = try ProbeSite("nwflood")
    defer { site.delete() }
    let server = try await site.startServer(mode, extra)
    defer { server.stop() }

    // A deadline far past any flood (the server stops after 20 s): only a limit can end this check, and the reason
    // says which, however slowly a loaded machine parses.
    let probe = try ConnectivityProbe(url: site.url(), timeout: .seconds(60))
    let check = try await check(site, probe, within: .seconds(90))
    #expect(check.state == .limited, "\(check)")
    #expect(check.detail.hasPrefix(reason), "a limit ended it, not the flood's end nor the deadline: \(check)")
    if ProcessInfo.processInfo.environment["NETSTATUS_PRINT_FIGURES"] != nil {
      print("probe figure: NWConnection: \(mode) \(extra.joined(separator: " ")): wall \(check.duration)")
    }
    try await server.process.lines.waitUntil(timeout: .seconds(5), "the server to see the probe close") {
      $0.contains("closed")
    }
  }

  @Test func oneByteSegmentsCostABoundedNumberOfReads() async throws {
    let site = try ProbeSite("nwtrickle")
    defer { site.delete() }
    let server = try await site.startServer("flood-trickle")
    defer { server.stop() }

    let check = try await check(site, try ConnectivityProbe(url: site.url()))
    #expect(check.state == .limited, "\(check)")
    #expect(
      check.detail.hasPrefix("the answer did not end within 4096 reads")
        || check.detail == "the header did not end within 64 KiB", "\(check)")
  }

  @Test func aSlowDripIsLimitedAsUnfinishedAtTheDeadline() async throws {
    let site = try ProbeSite("nwdrip")
    defer { site.delete() }
    let server = try await site.startServer("drip")
    defer { server.stop() }

    let check = try await check(site, try ConnectivityProbe(url: site.url(), timeout: .milliseconds(600)))
    #expect(check.state == .limited, "\(check)")
    // The reason names the 0.6 s deadline (the drip goes on for 20 s); only the lower bound is asserted.
    #expect(check.detail.hasPrefix("the answer did not end within 0.6 seconds ("), "\(check)")
    #expect(check.duration >= .milliseconds(600), "\(check.duration)")
  }

  @Test func hugeHeadersEndAtTheHeaderLimit() async throws {
    let site = try ProbeSite("nwhuge")
    defer { site.delete() }
    let server = try await site.startServer("flood-header")
    defer { server.stop() }
    // A smaller header limit than the probe's: the limit given is the one applied.
    let limits = HTTPResponseParser.Limits(maximumHeaderBytes: 4096)

    let check = try await check(site, try ConnectivityProbe(url: site.url()), limits: limits)
    #expect(check.state == .limited, "\(check)")
    #expect(check.detail == "the header did not end within 4 KiB", "\(check)")
  }

  /// A portal's Location that would retitle the terminal (OSC 0, ended by BEL) and clear the screen (CSI 2J).
  @Test func aHostileRedirectIsKeptExactAndShownEscaped() async throws {
    let site = try ProbeSite("nwescape")
    defer { site.delete() }
    let hostile = "http://198.51.100.1/login\u{1B}]0;pwned\u{07}\u{1B}[2J"
    let server = try await site.startServer("redirect", ["--location", hostile])
    defer { server.stop() }

    let check = try await check(site, try ConnectivityProbe(url: site.url()))
    #expect(check.state == .portal(redirect: hostile), "the state keeps the exact value")
    #expect(check.detail == #"HTTP 302 to http://198.51.100.1/login\x1B]0;pwned\x07\x1B[2J"#, "\(check.detail)")
    #expect(!check.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
  }

  @Test func cancellingTheTaskCancelsTheConnectionAtOnce() async throws {
    let site = try ProbeSite("nwcancel")
    defer { site.delete() }
    let server = try await site.startServer("hang")
    defer { server.stop() }
    let log = ConnectionLog()
    let transport = try log.transport(in: site.target)
    let probe = try ConnectivityProbe(url: site.url(), timeout: .seconds(30))

    let task = Task { await transport.exchange(probe, interface: ProbeSite.interface) }
    try await server.waitForLines(2, "the probe's request to arrive")
    let clock = ContinuousClock()
    let cancelled = clock.now
    task.cancel()
    let exchange = try await withTimeout(.seconds(30), "the cancelled exchange to return") { await task.value }
    #expect(exchange.result == .failed(.cancelled))
    // The property: cancellation ends the exchange, not its 30 s timeout; the slack is for sanitizer runs under load.
    let returned = clock.now - cancelled
    #expect(returned < .seconds(10), "returned \(returned) after the cancellation")
    if ProcessInfo.processInfo.environment["NETSTATUS_PRINT_FIGURES"] != nil {
      print("probe figure: NWConnection: the cancelled exchange returned \(returned) after the cancellation")
    }
    try await log.awaitAllEnded()
    #expect(log.connections.map(\.cancelCount) == [1], "the connection was cancelled once")
    #expect(!log.calls.values.contains { $0.contains("held") }, "Network called under a lock: \(log.calls.values)")
    try await server.waitForLines(3, "the server to see the probe's connection closed")
  }
}

/// ``ConnectivityMonitor`` with the Apple transport, over a scripted path (a Mac's wired Ethernet, `en1`), reaching
/// each state against the test servers.
@Suite(
  "ConnectivityMonitor over NWConnection", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NWConnectionConnectivityMonitorTests {
  func monitor(_ site: ProbeSite, _ probe: ConnectivityProbe, log: ConnectionLog) throws -> ConnectivityMonitor {
    let paths = NetworkMonitor(source: ScriptedPathSource(.connected(via: .wiredEthernet)))
    return ConnectivityMonitor(monitor: paths, probe: probe, transport: try log.transport(in: site.target))
  }

  @Test func full() async throws {
    let site = try ProbeSite("nwmfull")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let log = ConnectionLog()
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()), log: log)
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("full") { $0 == .full }
    let check = try #require(connectivity.lastCheck)
    #expect(check.detail == "HTTP 204")
    #expect(check.interface == "en1", "the path's interface: \(check)")
    #expect(log.requiredInterfaceTypes == [.wiredEthernet])
    #expect(log.requiredInterfaces == [nil], "a scripted source knows no NWInterface: by type")
  }

  @Test func portal() async throws {
    let site = try ProbeSite("nwmportal")
    defer { site.delete() }
    let server = try await site.startServer("redirect", ["--location", "http://198.51.100.1/login"])
    defer { server.stop() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()), log: ConnectionLog())
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    let state = try await connectivity.awaitState("a portal") { $0.name == "portal" }
    #expect(state == .portal(redirect: "http://198.51.100.1/login"))
  }

  @Test func limited() async throws {
    let site = try ProbeSite("nwmlimited")
    defer { site.delete() }
    let connectivity = try monitor(site, try ConnectivityProbe(url: site.url()), log: ConnectionLog())
    defer { connectivity.stopMonitoring() }

    connectivity.startMonitoring()
    try await connectivity.awaitState("limited") { $0 == .limited }
    #expect(connectivity.lastCheck?.detail == "connection refused")
  }
}

/// What Network's errors mean for a check, without a connection.
@Suite("NWConnection probe transport: Network's errors")
struct NWConnectionProbeErrorTests {
  @Test func aConnectionThatCannotBeMadeIsSaidAsOnLinux() {
    let host = "probe.nstest.invalid"
    #expect(NWConnectionProbe.failure(.posix(.ECONNREFUSED), host: host) == .refused)
    #expect(NWConnectionProbe.failure(.posix(.EINVAL), host: host) == .unreachable(errno: EINVAL))
    #expect(NWConnectionProbe.failure(.posix(.ENETUNREACH), host: host) == .unreachable(errno: ENETUNREACH))
    #expect(NWConnectionProbe.failure(.posix(.ENETDOWN), host: host) == .unreachable(errno: ENETDOWN))
    #expect(NWConnectionProbe.failure(.posix(.ECANCELED), host: host) == .cancelled)
    #expect(
      NWConnectionProbe.failure(.dns(-65554), host: host) == .nameResolution(host: host, reason: "it has no address"))
    #expect(
      NWConnectionProbe.failure(.dns(-65538), host: host)
        == .nameResolution(host: host, reason: "the name does not exist"))
    #expect(
      NWConnectionProbe.failure(.dns(-65568), host: host)
        == .resolverSilent(host: host, asked: "the system resolver", detail: "(it timed out)"))
    // A local failure says nothing about the network: the check is unknown, not limited.
    let local = NWConnectionProbe.failure(.posix(.EMFILE), host: host)
    #expect(local == .local("the connection failed: \(Errno.describe(EMFILE))"))
    #expect(ConnectivityClassifier.classify(.failed(local), probe: Self.probe).state == .unknown)
  }

  static let probe = try! ConnectivityProbe(url: "http://probe.nstest.invalid/generate_204")

  @Test func theRequestIsTheLinuxTransportsByteForByte() {
    let text = String(decoding: ProbeAnswerReader.request(for: Self.probe.endpoint), as: UTF8.self)
    #expect(
      text
        == "GET /generate_204 HTTP/1.1\r\nHost: probe.nstest.invalid\r\nUser-Agent: NetStatus connectivity probe\r\n"
        + "Accept: */*\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
  }
}

/// A host name that does not resolve, asked from inside a test namespace without a default route: a name server
/// outside is unreachable at once (on loopback, nothing listens), so no packet leaves the namespace and the lookup
/// fails without waiting.
@Suite(
  "NWConnection probe transport: names",
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NWConnectionProbeNameTests {
  @Test func aNameThatDoesNotResolveIsLimited() async throws {
    let site = try ProbeSite("nwname", defaultRoute: false)
    defer { site.delete() }
    let log = ConnectionLog()
    let probe = try ConnectivityProbe(url: "http://probe.nstest.invalid/generate_204", timeout: .seconds(5))
    let transport = try log.transport(in: site.target)
    let exchange = try await withTimeout(.seconds(30), "the exchange") {
      await transport.exchange(probe, interface: nil)
    }
    #expect(
      exchange.result == .failed(.nameResolution(host: "probe.nstest.invalid", reason: "it has no address")),
      "\(exchange.result)")
    #expect(ConnectivityMonitor.check(exchange, probe: probe).state == .limited)
  }
}
