import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// `watch --settle` and `wait --stable`, run as a user would, against namespaces the tests build. The route is what
/// changes: the kernel reports a route at once, whereas a veth's carrier may wait in its link-watch batch
/// (Tests/NetStatusKernelTests/SettledPathKernelTests.swift flaps carrier).
@Suite(
  "netstatus --settle and --stable end to end",
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct SettleEndToEndTests {
  typealias Site = NetstatusEndToEndTests.Site

  /// Far longer than a flap (two `ip` commands, milliseconds), so that none can last it.
  static let hold = Duration.seconds(5)

  @Test func watchSettlePrintsOnlyChangesThatHold() async throws {
    let site = try Site("e2esettle")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--json", "--settle", "5s", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path, at once")
    #expect(try run.path(at: 0).isConnected)

    for _ in 1...10 {
      try site.deleteDefaultRoute()
      try site.addDefaultRoute()
    }
    let clock = ContinuousClock()
    let lost = clock.now
    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the loss, once it has held")
    let waited = lost.duration(to: clock.now)
    #expect(try !run.path(at: 1).isConnected)
    #expect(waited >= Self.hold, "printed \(waited) after the loss, before it had held for \(Self.hold)")

    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    #expect(run.lines.count == 2, "no flap printed: \(run.lines.values)")
  }

  /// The namespace deleted under `--settle`: the watch ends with the failure (exit 2, on standard error), with no
  /// `offline` line that never held: before, the failure's path was printed at once, 0.5 s into a 2 s settle.
  @Test func watchSettleEndsWithoutAnUnsettledLineWhenTheNamespaceGoes() async throws {
    let site = try Site("e2esettled")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--json", "--settle", "5s", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path, at once")
    site.target.delete()
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2), "stderr: \(run.errorOutput)")
    #expect(run.errorOutput.contains("was deleted while it was watched"), "\(run.errorOutput)")
    #expect(run.lines.values.count == 1, "nothing printed that did not hold: \(run.lines.values)")
  }

  @Test func watchSettleHoldsTheConnectivityToo() async throws {
    let site = try ProbeSite("e2esettlep")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess([
      "watch", "--json", "--settle", "5s", "--netns", site.target.name, "--probe", site.url(),
    ])
    defer { run.terminate() }
    let connectivity = NetstatusProbeEndToEndTests.connectivity(of:)
    try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity full") {
      $0.last.flatMap(connectivity) == #"{"state":"full","ipv4":"full","ipv6":null}"#
    }
    let before = run.lines.count

    // The connectivity is not full from the first flap on (no path, then unknown while each new path waits for its
    // check, which the next flap cancels): its hold counts from there. The path's loss holds from the last delete.
    let clock = ContinuousClock()
    let flapped = clock.now
    for _ in 1...5 {
      try site.deleteDefaultRoute()
      try site.addDefaultRoute()
    }
    let lost = clock.now
    try site.deleteDefaultRoute()
    try await run.lines.waitUntil(timeout: .seconds(30), "connectivity none, once held") {
      $0.last.flatMap(connectivity) == #"{"state":"none","ipv4":null,"ipv6":null}"#
    }
    let noneAfter = flapped.duration(to: clock.now)
    let lines = try await run.lines.waitUntil(timeout: .seconds(30), "the path's loss, once held") {
      $0.last?.contains(#""status":"unsatisfied""#) == true
    }
    let lossAfter = lost.duration(to: clock.now)
    #expect(noneAfter >= Self.hold, "connectivity none \(noneAfter) after the first flap, before the hold")
    #expect(lossAfter >= Self.hold, "the loss printed \(lossAfter) after it, before the hold")
    // After the flaps: the held connectivity, and the held loss of the path (one line, or two), nothing else.
    let after = lines[before...]
    #expect((1...2).contains(after.count), "no flap printed: \(lines)")
    #expect(after.allSatisfy { connectivity($0) == #"{"state":"none","ipv4":null,"ipv6":null}"# }, "\(lines)")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
  }

  /// The metrics file follows the settled path: ten flaps are no change, the loss that holds is one.
  @Test func watchSettleKeepsTheMetricsFileSettled() async throws {
    let folder = try PrometheusTextfileTests.Folder("promsettle")
    defer { folder.delete() }
    let file = folder.path + "/netstatus.prom"
    let site = try Site("e2esettlem")
    defer { site.delete() }
    let run = try NetstatusProcess([
      "watch", "--json", "--settle", "5s", "--netns", site.target.name, "--textfile", file,
    ])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path, at once")
    let ns = "netns=\(site.target.name)"
    guard
      try await PrometheusTextfileTests.parseWhen(
        file, { $0.contains("gauge netstatus_path_satisfied{\(ns)} 1") }) != nil
    else {
      try #require(
        ProcessInfo.processInfo.environment["CI"] == nil, "prometheus-client is missing: .ci/run installs it")
      return
    }
    for _ in 1...10 {
      try site.deleteDefaultRoute()
      try site.addDefaultRoute()
    }
    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the loss, once it has held")
    let samples = try #require(
      try await PrometheusTextfileTests.parseWhen(file, { $0.contains("gauge netstatus_path_satisfied{\(ns)} 0") }))
    #expect(samples.contains("counter netstatus_path_changes_total{\(ns)} 1"), "one change, no flap: \(samples)")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
  }

  @Test func waitStableSucceedsOnlyOnceTheStateHasHeld() async throws {
    let site = try Site("e2estable", defaultRoute: false)
    defer { site.delete() }
    // The timeout bounds a failure only: far longer than a loaded sanitizer run stalls the test process between
    // netstatus's start and the route it waits for.
    let run = try NetstatusProcess(["wait", "--stable", "2s", "--timeout", "240", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.waitUntilStarted(namespace: site.target)
    let clock = ContinuousClock()
    let added = clock.now
    try site.addDefaultRoute()
    let exit = try await run.waitForExit(timeout: .seconds(240))
    let elapsed = added.duration(to: clock.now)
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    #expect(elapsed >= .seconds(2), "succeeded \(elapsed) after the route appeared, before it had held for 2s")
    #expect(run.lines.values.first?.contains("online") == true)
  }

  @Test func waitStableStillTimesOutWithExitCodeOne() async throws {
    let site = try Site("e2establet")
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "--stable", "60s", "--timeout", "0.5", "--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(1))
    #expect(run.errorOutput.contains("timed out after"), "\(run.errorOutput)")
    #expect(run.errorOutput.contains("held for"), "\(run.errorOutput)")
    #expect(run.lines.values.isEmpty, "nothing on stdout")
  }
}
