import Foundation
import NetStatusTestSupport
import ProcFileSupport
import Testing

@testable import NetStatusCore

/// The built `netstatus` with NetworkManager: run inside a test namespace (`ip netns exec`, so that its own
/// namespace, the one it asks NetworkManager about, is one the test controls: veth `v0` with an address and a
/// default route, its peer in a second namespace), its system bus the test's private bus with dbusmock's
/// NetworkManager (DBUS_SYSTEM_BUS_ADDRESS).
@Suite(
  "netstatus with NetworkManager end to end", .serialized,
  .enabled(if: PrivateBus.testsEnabled, PrivateBus.skipReason))
struct NetstatusNetworkManagerEndToEndTests {
  final class Fixture: Sendable {
    let site: ProbeSite
    let bus: PrivateBus

    init(_ label: String) async throws {
      site = try ProbeSite(label)
      do {
        bus = try await PrivateBus()
        try await bus.startNetworkManager()
      } catch {
        site.delete()
        throw error
      }
    }

    /// `netstatus ARGUMENTS` inside the test namespace, on the private bus.
    func run(_ arguments: [String]) throws -> ChildProcess {
      var environment = bus.environment
      // As NetstatusProcess does: TSan's runtime would otherwise sleep a second at exit.
      environment["TSAN_OPTIONS"] = (environment["TSAN_OPTIONS"].map { $0 + " " } ?? "") + "atexit_sleep_ms=0"
      return try ChildProcess(
        executable: try #require(KernelTestSupport.ipPath),
        ["netns", "exec", site.target.name, NetstatusProcess.binaryPath] + arguments, environment: environment)
    }

    func stop() {
      bus.stop()
      site.delete()
    }
  }

  static func path(_ line: String) throws -> NetworkPath {
    let line = NetstatusProbeEndToEndTests.withoutTime(line) ?? line
    return try JSONDecoder().decode(NetworkPath.self, from: Data(line.utf8))
  }

  /// Waits until the latest line of `run` is a path satisfying `predicate`.
  static func awaitLine(
    _ run: ChildProcess, _ what: String, timeout: Duration = .seconds(10),
    _ predicate: @escaping @Sendable (NetworkPath) -> Bool
  ) async throws {
    try await run.lines.waitUntil(timeout: timeout, what) { lines in
      lines.last.flatMap { try? path($0) }.map(predicate) ?? false
    }
  }

  /// Waits until `run` follows the bus: its `netstatus-dbus` thread starts once NetworkManager has been read.
  static func awaitFollowing(_ run: ChildProcess) async throws {
    let pid = run.processIdentifier
    try await withTimeout(.seconds(10), "netstatus to follow NetworkManager (its netstatus-dbus thread)") {
      while true {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let names = threads.compactMap { readProcFile("/proc/\(pid)/task/\($0)/comm") }
        if names.contains(where: { $0.hasPrefix("netstatus-dbus") }) { return }
        try Task.checkCancellation()
        await Task.yield()
      }
    }
  }

  @Test func showJSONSaysExpensiveOverAMeteredDeviceAndNothingNew() async throws {
    let fixture = try await Fixture("e2enmshow")
    defer { fixture.stop() }
    try fixture.bus.addDevice("v0", metered: 1)
    let run = try fixture.run(["--json"])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let line = try #require(run.lines.values.first)
    let path = try Self.path(line)
    #expect(path.isExpensive, "\(line)")
    #expect(line == path.jsonRepresentation, "the documented keys only: \(line)")

    let all = try fixture.run(["show", "--all", "--json"])
    #expect(try await all.waitForExit() == .exited(0), "stderr: \(all.errorOutput)")
    let allLine = try #require(all.lines.values.first)
    // rtnetlink first, NetworkManager last; systemd-networkd in between where this process's namespace is taken for
    // the system's (SystemNamespace.swift: PID 1's namespace cannot always be read).
    #expect(
      allLine.contains(#""sources":[{"name":"rtnetlink","provides":"paths","active":true,"reason":null},"#),
      "\(allLine)")
    #expect(
      allLine.hasSuffix(
        #"{"name":"NetworkManager","provides":"metered devices, connectivity","active":true,"reason":null}]}"#),
      "\(allLine)")
    let table = try fixture.run(["show", "--all"])
    #expect(try await table.waitForExit() == .exited(0))
    #expect(
      table.lines.values.contains("  NetworkManager (metered devices, connectivity): active"), "\(table.lines.values)")
  }

  @Test func watchFollowsMeteredChangesAndTheServiceLeaving() async throws {
    let fixture = try await Fixture("e2enmwatch")
    defer { fixture.stop() }
    try fixture.bus.addDevice("v0", metered: 1)
    let run = try fixture.run(["watch", "--json"])
    defer { run.terminate() }
    try await Self.awaitLine(run, "expensive at first") { $0.isExpensive }
    try await Self.awaitFollowing(run)
    try fixture.bus.setMetered("v0", 2)
    try await Self.awaitLine(run, "not expensive (metered no)") { !$0.isExpensive }
    try fixture.bus.setMetered("v0", 3)
    try await Self.awaitLine(run, "expensive (guess-yes)") { $0.isExpensive }
    fixture.bus.killNetworkManager()
    try await Self.awaitLine(run, "the fallback once NetworkManager left") { !$0.isExpensive }
    #expect(run.lines.values.count == 4, "one line per change: \(run.lines.values)")
  }

  @Test func watchFallsBackWhenTheBusDies() async throws {
    let fixture = try await Fixture("e2enmbus")
    defer { fixture.stop() }
    try fixture.bus.addDevice("v0", metered: 1)
    let run = try fixture.run(["watch", "--json"])
    defer { run.terminate() }
    try await Self.awaitLine(run, "expensive at first") { $0.isExpensive }
    try await Self.awaitFollowing(run)
    fixture.bus.killDaemon()
    try await Self.awaitLine(run, "the fallback once the bus died") { !$0.isExpensive && $0.isConnected }
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
  }

  @Test func waitInternetWithNetworkManagerExitsOnceItSaysFull() async throws {
    let fixture = try await Fixture("e2enmwait")
    defer { fixture.stop() }
    try fixture.bus.setConnectivity(1)
    let run = try fixture.run(["wait", "--internet", "--networkmanager", "--timeout", "20", "--json"])
    defer { run.terminate() }
    try await Self.awaitFollowing(run)
    #expect(run.lines.values.isEmpty, "NetworkManager says none: still waiting")
    let clock = ContinuousClock()
    let changed = clock.now
    try fixture.bus.setConnectivity(4)
    let exit = try await run.waitForExit(timeout: .seconds(10))
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    #expect(clock.now - changed < .seconds(5), "it followed the signal, not its 20 s timeout")
    let line = try #require(run.lines.values.first)
    #expect(line.hasSuffix(#","connectivity":{"state":"full"}}"#), "\(line)")
  }

  @Test func waitInternetWithNetworkManagerTimesOutWhileItSaysLimited() async throws {
    let fixture = try await Fixture("e2enmlimited")
    defer { fixture.stop() }
    try fixture.bus.setConnectivity(3)
    let run = try fixture.run(["wait", "--internet", "--networkmanager", "--timeout", "1"])
    #expect(try await run.waitForExit() == .exited(1))
    #expect(run.errorOutput.contains("internet: limited"), "\(run.errorOutput)")
  }

  @Test func withoutABusConnectivityIsUnknownAndSaysWhyOnce() async throws {
    let site = try ProbeSite("e2enmnobus")
    defer { site.delete() }
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/tmp/nstest-no-such-bus-\(getpid())"
    environment["TSAN_OPTIONS"] = (environment["TSAN_OPTIONS"].map { $0 + " " } ?? "") + "atexit_sleep_ms=0"
    let run = try ChildProcess(
      executable: try #require(KernelTestSupport.ipPath),
      ["netns", "exec", site.target.name, NetstatusProcess.binaryPath, "--json", "--networkmanager"],
      environment: environment)
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let line = try #require(run.lines.values.first)
    #expect(line.hasSuffix(#","connectivity":{"state":"unknown"}}"#), "\(line)")
    #expect(try Self.path(line).isConnected, "the path is the kernel's as ever")
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "\(run.errorOutput)")
    #expect(
      errors.first?.hasPrefix("netstatus: --networkmanager: connectivity stays unknown: cannot connect") == true,
      "\(run.errorOutput)")
  }

  @Test func networkManagerIsForTheOwnNamespaceOnly() async throws {
    let run = try NetstatusProcess(["--networkmanager", "--netns", "nstest-none"])
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.errorOutput.contains("--networkmanager is for this machine's own namespace"), "\(run.errorOutput)")
  }
}
