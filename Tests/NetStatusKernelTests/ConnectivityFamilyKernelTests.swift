import Foundation
import NetStatusLinuxTestSupport
import Testing

@testable import NetStatusCore

/// Internet per address family against real sockets: a dual-stack site whose probe host name resolves to an IPv4 and
/// an IPv6 address (the namespace's hosts file, read as `ip netns exec` would), with the probe server listening on one
/// family, the other, or both. Each family is checked on its own; the overall state is the best of the two.
@Suite(
  "Connectivity probe per address family in namespaces", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct ConnectivityFamilyKernelTests {
  /// Starts a server in the given mode on each family given one (on the server's address of that family).
  func servers(_ site: ProbeSite, ipv4: String?, ipv6: String?) async throws -> [ProbeServer] {
    var started: [ProbeServer] = []
    do {
      if let ipv4 { started.append(try await site.startServer(ipv4)) }
      if let ipv6 { started.append(try await site.startIPv6Server(ipv6)) }
    } catch {
      for server in started { server.stop() }
      throw error
    }
    return started
  }

  /// Checks the site once the path supports both families, and returns the states once the overall one satisfies
  /// `predicate`.
  func states(
    _ site: ProbeSite, _ what: String, _ predicate: @escaping @Sendable (ConnectivityState) -> Bool
  ) async throws -> (state: ConnectivityState, ipv4: ConnectivityState?, ipv6: ConnectivityState?, detail: String) {
    let paths = try NetworkMonitor(networkNamespace: site.target.name)
    let connectivity = ConnectivityMonitor(monitor: paths, probe: try ConnectivityProbe(url: ProbeSite.dualStackURL))
    defer { connectivity.stopMonitoring() }
    connectivity.startMonitoring()
    let path = try #require(paths.currentPath)
    try #require(path.supportsIPv4 && path.supportsIPv6, "a dual-stack path: \(path)")
    let state = try await connectivity.awaitState(what, predicate)
    return (state, connectivity.ipv4State, connectivity.ipv6State, connectivity.lastCheck?.detail ?? "no check")
  }

  @Test func aServerOnIPv4OnlyIsFullOverIPv4AndLimitedOverIPv6() async throws {
    let site = try ProbeSite.dualStack("fam4")
    defer { site.delete() }
    let servers = try await servers(site, ipv4: "204", ipv6: nil)
    defer { for server in servers { server.stop() } }
    let found = try await states(site, "full") { $0 == .full }
    #expect(found.ipv4 == .full, "\(found)")
    #expect(found.ipv6 == .limited, "nothing listens on the IPv6 address: \(found)")
    #expect(found.detail.hasPrefix("IPv4: HTTP 204; IPv6: "), "\(found)")
  }

  @Test func aServerOnIPv6OnlyIsFullOverIPv6AndLimitedOverIPv4() async throws {
    let site = try ProbeSite.dualStack("fam6")
    defer { site.delete() }
    let servers = try await servers(site, ipv4: nil, ipv6: "204")
    defer { for server in servers { server.stop() } }
    let found = try await states(site, "full") { $0 == .full }
    #expect(found.ipv4 == .limited, "nothing listens on the IPv4 address: \(found)")
    #expect(found.ipv6 == .full, "\(found)")
    #expect(try await servers[0].awaitRequests(1) == ["request GET /generate_204"])
  }

  @Test func aServerOnBothFamiliesIsFullOverEach() async throws {
    let site = try ProbeSite.dualStack("fam46")
    defer { site.delete() }
    let servers = try await servers(site, ipv4: "204", ipv6: "204")
    defer { for server in servers { server.stop() } }
    let found = try await states(site, "full") { $0 == .full }
    #expect(found.ipv4 == .full && found.ipv6 == .full, "\(found)")
    // One request each: each family was checked on its own.
    for server in servers { #expect(try await server.awaitRequests(1) == ["request GET /generate_204"]) }
  }

  @Test func aPortalOnIPv4OnlyIsThePortalOverIPv4AndTheOverallStateWhenIPv6GoesNowhere() async throws {
    let site = try ProbeSite.dualStack("famp")
    defer { site.delete() }
    let servers = try await servers(site, ipv4: "redirect", ipv6: nil)
    defer { for server in servers { server.stop() } }
    let found = try await states(site, "a portal") { $0.name == "portal" }
    #expect(found.ipv4 == .portal(redirect: "http://198.51.100.1/login"), "\(found)")
    #expect(found.ipv6 == .limited, "\(found)")
  }

  @Test func aPortalOnIPv6OnlyLeavesTheOverallStateFullThroughIPv4() async throws {
    let site = try ProbeSite.dualStack("famp6")
    defer { site.delete() }
    let servers = try await servers(site, ipv4: "204", ipv6: "redirect")
    defer { for server in servers { server.stop() } }
    let found = try await states(site, "full") { $0 == .full }
    #expect(found.ipv4 == .full, "\(found)")
    #expect(found.ipv6 == .portal(redirect: "http://198.51.100.1/login"), "\(found)")
  }
}
