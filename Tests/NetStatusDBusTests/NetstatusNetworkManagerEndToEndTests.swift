import Foundation
import NetStatusLinuxTestSupport
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

    /// With dbusmock's NetworkManager on the bus unless `dbusmock` is false.
    init(_ label: String, dbusmock: Bool = true) async throws {
      site = try ProbeSite(label)
      do {
        bus = try await PrivateBus()
        if dbusmock { try await bus.startNetworkManager() }
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
    let line = NetstatusProcess.withoutTime(line) ?? line
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
  ///
  /// - Returns: `false` when the process ended first (without the thread being seen).
  @discardableResult
  static func awaitFollowing(_ run: ChildProcess) async throws -> Bool {
    let pid = run.processIdentifier
    return try await withTimeout(.seconds(30), "netstatus to follow NetworkManager (its netstatus-dbus thread)") {
      while true {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let names = threads.compactMap { readProcFile("/proc/\(pid)/task/\($0)/comm") }
        if names.contains(where: { $0.hasPrefix("netstatus-dbus") }) { return true }
        if run.hasExited { return false }
        try await Task.sleep(for: .milliseconds(1))  // paced: netstatus needs the CPU to start
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
    // rtnetlink first, then NetworkManager, ModemManager and iwd last; systemd-networkd in between where this process's
    // namespace is taken for the system's (SystemNamespace.swift: PID 1's namespace cannot always be read).
    #expect(
      allLine.contains(#""sources":[{"name":"rtnetlink","provides":"paths","active":true,"reason":null},"#),
      "\(allLine)")
    #expect(
      allLine.hasSuffix(
        #"{"name":"NetworkManager","provides":"metered devices, connectivity, Wi-Fi signal","active":true,"reason":null},"#
          + #"{"name":"ModemManager","provides":"cellular signal","active":false,"#
          + #""reason":"ModemManager is not running (not on the system bus)"},"#
          + #"{"name":"iwd","provides":"Wi-Fi signal","active":false,"#
          + #""reason":"iwd is not running (not on the system bus)"}]}"#
      ),
      "\(allLine)")
    let table = try fixture.run(["show", "--all"])
    #expect(try await table.waitForExit() == .exited(0))
    #expect(
      table.lines.values.contains("  NetworkManager (metered devices, connectivity, Wi-Fi signal): active"),
      "\(table.lines.values)")
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
    try fixture.bus.setConnectivity(4)
    // Exit 0 follows the signal: its 20 s timeout would exit 1.
    let exit = try await run.waitForExit(timeout: .seconds(30))
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    let line = try #require(run.lines.values.first)
    #expect(line.hasSuffix(#","connectivity":{"state":"full","ipv4":"full","ipv6":null}}"#), "\(line)")
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
    #expect(line.hasSuffix(#","connectivity":{"state":"unknown","ipv4":"unknown","ipv6":null}}"#), "\(line)")
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

  // MARK: Nothing stalls

  /// A failure bound, not the figure: what the start-up budget (750 ms) and a process's own start and exit may take
  /// on a loaded machine (the whole suite in parallel, under a sanitizer), far from the 20 s to 90 s these commands
  /// took before. The figures (0.75 s on a hung bus) are measured on a quiet machine and stated in the issue notes.
  static let commandLimit = Duration.seconds(10)
  /// SIGTERM to exit, at any moment: a failure bound far from what a stop that waits for the bus or a hung read
  /// takes (18 s to 90 s before), not the 1 s promise, which is a figure measured on a quiet machine (6.6 ms on a
  /// hung bus): in a loaded CI run the exit alone took 1.03 s (plain) and 1.16 s (AddressSanitizer's leak scan).
  static let stopLimit = Duration.seconds(5)

  /// Runs `arguments` to its end and returns the run and how long it took.
  static func timed(_ fixture: Fixture, _ arguments: [String]) async throws -> (ChildProcess, Duration) {
    let clock = ContinuousClock()
    let began = clock.now
    let run = try fixture.run(arguments)
    _ = try await run.waitForExit(timeout: .seconds(120))
    // When the exit was noticed, not when this task ran again: that waits for a thread of the test runner's pool.
    return (run, began.duration(to: run.exitTime ?? clock.now))
  }

  /// Sends SIGTERM and returns how long the process took to exit.
  static func timedTerm(_ run: ChildProcess) async throws -> (ChildProcess.Exit, Duration) {
    let clock = ContinuousClock()
    let began = clock.now
    run.signal(SIGTERM)
    let exit = try await run.waitForExit(timeout: .seconds(120))
    return (exit, began.duration(to: run.exitTime ?? clock.now))
  }

  @Test func aHungBusCostsShowWaitAndWatchOneStartUpBudget() async throws {
    let fixture = try await Fixture("e2ehungbus")
    defer { fixture.stop() }
    fixture.bus.pauseDaemon()

    let (show, showTime) = try await Self.timed(fixture, ["show", "--all"])
    #expect(show.exitTime != nil && showTime < Self.commandLimit, "90 s before: \(showTime)")
    #expect(
      show.lines.values.contains {
        $0.hasPrefix(
          "  NetworkManager (metered devices, connectivity, Wi-Fi signal): unavailable: NetworkManager did not answer")
      }, "\(show.lines.values)")

    // The timeout covers the start (the arithmetic: CommandLineTests.waitsTimeoutCountsTheTimeTheCommandHasTakenAlready).
    let (wait, waitTime) = try await Self.timed(fixture, ["wait", "--internet", "--networkmanager", "-t", "1s"])
    #expect(try await wait.waitForExit() == .exited(1), "\(wait.errorOutput)")
    #expect(wait.errorOutput.contains("timed out after 1.0 seconds"), "\(wait.errorOutput)")
    #expect(waitTime < .seconds(1) + Self.commandLimit, "\(waitTime)")

    let watch = try fixture.run(["watch", "--json"])
    defer { watch.terminate() }
    try await watch.lines.waitFor(count: 1, timeout: Self.commandLimit, "the first line within the budget")
    let (exit, stopTime) = try await Self.timedTerm(watch)
    #expect(exit == .exited(0) && stopTime < Self.stopLimit, "\(exit) after \(stopTime): \(watch.errorOutput)")
  }

  /// A timeout shorter than NetworkManager's start-up budget ends the wait for NetworkManager with it, and a
  /// condition met when the monitor has started is met, even if the start took the whole timeout.
  @Test func aTimeoutShorterThanTheStartUpBudgetGivesNetworkManagerUpAtTheTimeout() async throws {
    let fixture = try await Fixture("e2ehungshort")
    defer { fixture.stop() }
    fixture.bus.pauseDaemon()
    let internet = try fixture.run(["wait", "--internet", "--networkmanager", "-t", "0.2s"])
    #expect(try await internet.waitForExit() == .exited(1), "\(internet.errorOutput)")
    #expect(internet.errorOutput.contains("not waited for: the timeout came first"), "\(internet.errorOutput)")
    #expect(internet.errorOutput.contains("timed out after 0.2 seconds"), "\(internet.errorOutput)")
    // The path alone: satisfied when the start returns, at the timeout.
    let path = try fixture.run(["wait", "-t", "0.1s"])
    #expect(try await path.waitForExit() == .exited(0), "\(path.errorOutput)")
  }

  @Test(arguments: [["show", "--all"], ["wait", "--internet", "--networkmanager", "-t", "30s"], ["watch"]])
  func sigtermWhileStartingOnAHungBusEndsWithinASecond(_ arguments: [String]) async throws {
    let fixture = try await Fixture("e2ehungterm", dbusmock: false)
    defer { fixture.stop() }
    fixture.bus.pauseDaemon()
    for _ in 1...10 {
      let run = try fixture.run(arguments)
      defer { run.terminate() }
      // Its D-Bus thread exists: it is within its start-up budget, waiting for the bus. `show` ends on its own
      // once the budget (750 ms) is spent: on a loaded machine this test may first look after that, and then
      // starts it again.
      guard try await Self.awaitFollowing(run) else {
        #expect(arguments[0] == "show", "only show ends on its own: \(run.errorOutput)")
        continue
      }
      let (exit, stopTime) = try await Self.timedTerm(run)
      // Not even the rest of the start-up budget (NetworkManagerStartUp.abandon): milliseconds when idle.
      #expect(stopTime < Self.stopLimit, "90 s before: \(exit) after \(stopTime)")
      return
    }
    Issue.record("netstatus \(arguments.joined(separator: " ")) ended before its D-Bus thread was seen, 10 times")
  }

  @Test func showWithTenDevicesThatNeverAnswerTakesOneBudget() async throws {
    let fixture = try await Fixture("e2ehangdev", dbusmock: false)
    defer { fixture.stop() }
    try await fixture.bus.startHangingNetworkManager(devices: 10, hang: "devices")
    let (show, showTime) = try await Self.timed(fixture, ["show", "--all", "--json"])
    #expect(try await show.waitForExit() == .exited(0), "\(show.errorOutput)")
    #expect(showTime < Self.commandLimit, "2 s per read, 30 reads in a row before: \(showTime)")
    let line = try #require(show.lines.values.first)
    #expect(
      line.contains(
        #"{"name":"NetworkManager","provides":"metered devices, connectivity, Wi-Fi signal","active":false,"#
          + #""reason":"NetworkManager did not answer within 750 ms (reading 10 devices)"#), "\(line)")
    #expect(try Self.path(line).isExpensive == false)
  }

  @Test func sigtermWhileNetworkManagerHangsMidWatchEndsWithinASecond() async throws {
    let fixture = try await Fixture("e2ehangmid", dbusmock: false)
    defer { fixture.stop() }
    let networkManager = try await fixture.bus.startHangingNetworkManager(devices: 1, metered: 1, hang: "none")
    let run = try fixture.run(["watch", "--json"])
    defer { run.terminate() }
    try await Self.awaitLine(run, "expensive at first") { $0.isExpensive }
    try await Self.awaitFollowing(run)
    // It stops answering, then says Metered changed without its value: netstatus reads it, and waits.
    try fixture.bus.send("/org/freedesktop/NetworkManager", "org.netstatus.Test.SetHang", ["string:all"])
    let answered = networkManager.lines.values.count
    let device = "/org/freedesktop/NetworkManager/Devices/0"
    try fixture.bus.send(
      "/org/freedesktop/NetworkManager", "org.netstatus.Test.Invalidate", ["objpath:\(device)", "string:Metered"])
    try await networkManager.lines.waitUntil(timeout: .seconds(10), "netstatus to read again") {
      $0.count > answered
    }
    let (exit, stopTime) = try await Self.timedTerm(run)
    #expect(exit == .exited(0) && stopTime < Self.stopLimit, "18 s before: \(exit) after \(stopTime)")
    #expect(networkManager.lines.values.dropFirst(answered) == ["get \(device) Metered"], "only the property named")
  }
}
