import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// The built `netstatus` binary, internet per address family: a dual-stack site whose server listens on IPv4 only
/// (IPv6 broken upstream, as the CLI sees it).
@Suite(
  "netstatus internet per address family end to end", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct FamilyInternetEndToEndTests {
  @Test func theJSONAndTheTableShowEachFamily() async throws {
    let site = try ProbeSite.dualStack("e2efam")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let json = try NetstatusProcess(["--json", "--netns", site.target.name, "--probe", ProbeSite.dualStackURL])
    #expect(try await json.waitForExit() == .exited(0), "stderr: \(json.errorOutput)")
    let line = try #require(json.lines.values.first)
    #expect(line.hasSuffix(#","connectivity":{"state":"full","ipv4":"full","ipv6":"limited"}}"#), "\(line)")
    let table = try NetstatusProcess(["--netns", site.target.name, "--probe", ProbeSite.dualStackURL])
    #expect(try await table.waitForExit() == .exited(0), "stderr: \(table.errorOutput)")
    #expect(
      table.lines.values.contains("Internet     full; IPv4 full, IPv6 limited"), "\(table.lines.values)")
  }

  @Test func waitInternetWithAFamilyWaitsForThatFamily() async throws {
    let site = try ProbeSite.dualStack("e2efamw")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let common = [
      "wait", "--internet", "--timeout", "3", "--netns", site.target.name, "--probe", ProbeSite.dualStackURL, "-q",
    ]
    let ipv4 = try NetstatusProcess(common + ["-4"])
    #expect(try await ipv4.waitForExit() == .exited(0), "stderr: \(ipv4.errorOutput)")
    let either = try NetstatusProcess(common)
    #expect(try await either.waitForExit() == .exited(0), "stderr: \(either.errorOutput)")
    let ipv6 = try NetstatusProcess(common + ["-6"])
    #expect(try await ipv6.waitForExit() == .exited(1), "IPv6 never answers: \(ipv6.errorOutput)")
    #expect(ipv6.errorOutput.contains("full internet access over IPv6"), "\(ipv6.errorOutput)")
  }

  @Test func theMetricsFileHasAGaugePerFamily() async throws {
    let folder = try PrometheusTextfileTests.Folder("promfam")
    defer { folder.delete() }
    let file = folder.path + "/netstatus.prom"
    let site = try ProbeSite.dualStack("e2efamp")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess([
      "watch", "--json", "--netns", site.target.name, "--probe", ProbeSite.dualStackURL, "--textfile", file,
    ])
    defer { run.terminate() }
    let ns = "netns=\(site.target.name)"
    guard
      let samples = try await PrometheusTextfileTests.parseWhen(
        file, { $0.contains("gauge netstatus_connectivity_state{\(ns),state=full} 1") })
    else {
      try #require(
        ProcessInfo.processInfo.environment["CI"] == nil, "prometheus-client is missing: .ci/run installs it")
      return
    }
    let families = samples.filter { $0.contains("netstatus_connectivity_family_state") && $0.hasSuffix(" 1") }
    #expect(
      families == [
        "gauge netstatus_connectivity_family_state{family=ipv4,\(ns),state=full} 1",
        "gauge netstatus_connectivity_family_state{family=ipv6,\(ns),state=limited} 1",
      ], "\(samples)")
    #expect(samples.filter { $0.contains("netstatus_connectivity_family_state") }.count == 10, "\(samples)")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
  }
}
