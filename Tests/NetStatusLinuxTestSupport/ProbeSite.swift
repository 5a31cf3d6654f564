import Foundation
import NetStatusCore
import Testing

// Shared by NetStatusKernelTests, NetStatusEndToEndTests and NetStatusAppleLogicTests: the Linux transport and the
// Apple one are tested against the same servers.

/// A namespace to probe from, with a veth link to a peer namespace that plays the internet: the peer holds
/// the probe server's address, 203.0.113.80 (TEST-NET-3), behind the gateway 198.51.100.1 (TEST-NET-2).
/// Nothing here can reach any address outside these two namespaces.
package final class ProbeSite: Sendable {
  package static let serverAddress = "203.0.113.80"
  package static let gateway = "198.51.100.1"
  /// The target's end of the veth link, as a path names it (the index is not known before the link exists, and no
  /// transport uses it).
  package static let interface = NetworkInterface(name: "v0", index: 0, type: .wiredEthernet)

  package let target: TestNamespace
  package let peer: TestNamespace

  package init(_ label: String, defaultRoute: Bool = true) throws {
    target = try TestNamespace(label)
    peer = try TestNamespace(label + "p")
    do {
      try target.ip("link add v0 type veth peer name v1 netns \(peer.name)")
      try target.ip("addr add 198.51.100.2/24 dev v0")
      try peer.ip("addr add \(Self.gateway)/24 dev v1")
      try peer.ip("addr add \(Self.serverAddress)/32 dev lo")
      try peer.ip("link set v1 up")
      try target.ip("link set v0 up")
      if defaultRoute { try addDefaultRoute() }
    } catch {
      delete()
      throw error
    }
  }

  /// The probe URL on the peer's server.
  package func url(_ path: String = "/generate_204") -> String { "http://\(Self.serverAddress)\(path)" }

  /// The server's IPv6 address, once ``addIPv6(naming:)`` gave the site IPv6 (documentation prefix, 2001:db8::/32).
  package static let serverIPv6Address = "2001:db8:80::80"
  package static let gatewayIPv6 = "2001:db8:1::1"

  /// Makes the site dual-stack (IPv6 addresses without duplicate address detection, and a default route), and names
  /// the server `name` in the target namespace's hosts file with both its addresses; the namespace's resolv.conf makes
  /// the probe resolve there as `ip netns exec` would (the hosts file answers first).
  package func addIPv6(naming name: String) throws {
    try target.ip("addr add 2001:db8:1::2/64 dev v0 nodad")
    try peer.ip("addr add \(Self.gatewayIPv6)/64 dev v1 nodad")
    try peer.ip("addr add \(Self.serverIPv6Address)/128 dev lo")
    try target.ip("route add default via \(Self.gatewayIPv6) dev v0")
    try target.writeEtcFile("resolv.conf", "# written by NetStatus's tests\nnameserver \(Self.gateway)\n")
    try target.writeEtcFile("hosts", "\(Self.serverAddress) \(name)\n\(Self.serverIPv6Address) \(name)\n")
  }

  /// The server's name on a dual-stack site (``dualStack(_:naming:)``), and the probe URL that names it.
  package static let dualStackHostName = "probe.nstest.test"
  package static let dualStackURL = "http://\(dualStackHostName)/generate_204"

  /// A dual-stack site (``addIPv6(naming:)``) whose server is `name` in the target namespace's hosts file.
  package static func dualStack(_ label: String, naming name: String = dualStackHostName) throws -> ProbeSite {
    let site = try ProbeSite(label)
    do {
      try site.addIPv6(naming: name)
    } catch {
      site.delete()
      throw error
    }
    return site
  }

  /// Starts the test HTTP server on the server's IPv6 address (after ``addIPv6(naming:)``).
  package func startIPv6Server(_ mode: String, _ extra: [String] = []) async throws -> ProbeServer {
    try await ProbeServer(namespace: peer, address: Self.serverIPv6Address, mode: mode, extra: extra)
  }

  package func addDefaultRoute() throws { try target.ip("route add default via \(Self.gateway) dev v0") }
  package func deleteDefaultRoute() throws { try target.ip("route del default") }
  /// Blackholes the server's address inside the target namespace.
  package func blackholeServer() throws { try target.ip("route add blackhole \(Self.serverAddress)/32") }

  /// Starts the test HTTP server in the peer namespace and waits until it listens.
  package func startServer(_ mode: String, _ extra: [String] = []) async throws -> ProbeServer {
    try await ProbeServer(namespace: peer, address: Self.serverAddress, mode: mode, extra: extra)
  }

  package func delete() {
    target.delete()
    peer.delete()
  }
}

/// `Tests/Fixtures/probe_http_server.py`, run inside a test namespace: one line per event on its output
/// ("ready", "request GET /path", "closed").
package final class ProbeServer: Sendable {
  package static let scriptPath: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/probe_http_server.py").path

  package static let python: String =
    ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    ?? "python3"

  package let process: ChildProcess

  package init(namespace: TestNamespace, address: String, mode: String, extra: [String] = []) async throws {
    guard let ip = KernelTestSupport.ipPath else {
      throw KernelTestSupport.CommandFailed(arguments: [], status: -1, output: "no ip")
    }
    // `ip netns exec` execs python in place: the process id is python's, and terminate() kills it.
    process = try ChildProcess(
      executable: ip,
      ["netns", "exec", namespace.name, Self.python, Self.scriptPath, "--address", address, "--mode", mode] + extra)
    do {
      try await process.lines.waitFor(count: 1, timeout: .seconds(30), "the probe server to listen")
    } catch {
      process.terminate()
      throw ServerFailed(output: process.lines.values, errors: process.errorOutput, underlying: "\(error)")
    }
    guard process.lines.values.first == "ready" else {
      process.terminate()
      throw ServerFailed(output: process.lines.values, errors: process.errorOutput, underlying: "no 'ready' line")
    }
  }

  /// The request lines received so far.
  package var requests: [String] { Self.requests(in: process.lines.values) }

  package static func requests(in lines: [String]) -> [String] { lines.filter { $0.hasPrefix("request ") } }

  /// Waits until the server has reported `count` requests (its output arrives asynchronously), then returns
  /// them all.
  package func awaitRequests(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [String] {
    let lines = try await process.lines.waitUntil(timeout: timeout, "\(count) request(s) at the probe server") {
      Self.requests(in: $0).count >= count
    }
    return Self.requests(in: lines)
  }

  /// Waits for a request for `target`, then returns every request received before and including it. The
  /// server reports requests in the order it reads them, so an earlier unexpected request shows here.
  package func awaitRequest(for target: String, timeout: Duration = .seconds(30)) async throws -> [String] {
    let line = "request GET \(target)"
    let lines = try await process.lines.waitUntil(timeout: timeout, "a request for \(target) at the probe server") {
      $0.contains(line)
    }
    return Array(Self.requests(in: lines).prefix { $0 != line }) + [line]
  }

  /// Waits until the server has printed `count` lines (counting "ready").
  package func waitForLines(_ count: Int, _ what: String, timeout: Duration = .seconds(30)) async throws {
    try await process.lines.waitFor(count: count, timeout: timeout, what)
  }

  /// Kills the server (by its process id).
  package func stop() {
    process.terminate()
  }

  package struct ServerFailed: Error, CustomStringConvertible {
    package var output: [String]
    package var errors: String
    package var underlying: String
    package var description: String {
      "the probe server did not start (\(underlying)); output: \(output), errors: \(errors)"
    }
  }
}

/// `Tests/Fixtures/dns_server.py`, run inside a test namespace: one line per event on its output ("ready",
/// "query NAME TYPE").
package final class DNSServer: Sendable {
  package static let scriptPath: String = URL(fileURLWithPath: ProbeServer.scriptPath)
    .deletingLastPathComponent().appendingPathComponent("dns_server.py").path

  package let process: ChildProcess

  /// Starts the server on `address`, port 53, in `namespace`, and waits until it listens.
  package init(namespace: TestNamespace, address: String, mode: String = "answer", records: [String: String] = [:])
    async throws
  {
    guard let ip = KernelTestSupport.ipPath else {
      throw KernelTestSupport.CommandFailed(arguments: [], status: -1, output: "no ip")
    }
    let recordArguments = records.sorted { $0.key < $1.key }.flatMap { ["--record", "\($0.key)=\($0.value)"] }
    process = try ChildProcess(
      executable: ip,
      ["netns", "exec", namespace.name, ProbeServer.python, Self.scriptPath, "--address", address, "--mode", mode]
        + recordArguments)
    do {
      try await process.lines.waitFor(count: 1, timeout: .seconds(30), "the DNS server to listen")
    } catch {
      process.terminate()
      throw ProbeServer.ServerFailed(output: process.lines.values, errors: process.errorOutput, underlying: "\(error)")
    }
  }

  /// The queries received so far (`NAME TYPE`).
  package var queries: [String] {
    process.lines.values.filter { $0.hasPrefix("query ") }.map { String($0.dropFirst(6)) }
  }

  /// Kills the server (by its process id).
  package func stop() {
    process.terminate()
  }
}
