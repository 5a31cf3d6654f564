import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// The built `netstatus` binary with `--probe`, against namespaces and a probe server the tests build.
@Suite(
  "netstatus --probe end to end", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NetstatusProbeEndToEndTests {
  /// Splits a `--json --probe` line into the path (whose keys must be exactly the documented ones, in
  /// order) and the connectivity object appended after them.
  func split(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (NetworkPath, String) {
    let line = try #require(
      NetstatusProcess.withoutTime(line), "a watch line ends with its time: \(line)", sourceLocation: sourceLocation)
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(line.utf8))
    let prefix = String(path.jsonRepresentation.dropLast()) + #","connectivity":"#
    try #require(
      line.hasPrefix(prefix), "the path's keys come first, unchanged: \(line)", sourceLocation: sourceLocation)
    try #require(line.hasSuffix("}"), sourceLocation: sourceLocation)
    let connectivity = String(line.dropFirst(prefix.count).dropLast())
    return (path, connectivity)
  }

  /// The connectivity object of a `--json --probe` line, or `nil` if the line is not one. Records nothing:
  /// it is checked on every line that arrives.
  static func connectivity(of line: String) -> String? {
    let line = NetstatusProcess.withoutTime(line) ?? line
    guard let path = try? JSONDecoder().decode(NetworkPath.self, from: Data(line.utf8)) else { return nil }
    let prefix = String(path.jsonRepresentation.dropLast()) + #","connectivity":"#
    guard line.hasPrefix(prefix), line.hasSuffix("}") else { return nil }
    return String(line.dropFirst(prefix.count).dropLast())
  }

  @Test func snapshotJSONAppendsConnectivity() async throws {
    let site = try ProbeSite("e2epfull")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess(["--json", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let lines = run.lines.values
    try #require(lines.count == 1, "\(lines)")
    let (path, connectivity) = try split(lines[0])
    #expect(path.isConnected)
    #expect(connectivity == #"{"state":"full","ipv4":"full","ipv6":null}"#)
    let decoded = try JSONDecoder().decode(ConnectivityState.self, from: Data(connectivity.utf8))
    #expect(decoded == .full)
    #expect(try await server.awaitRequests(1) == ["request GET /generate_204"], "one probe")
  }

  @Test func snapshotJSONReportsAPortalsRedirect() async throws {
    let site = try ProbeSite("e2epportal")
    defer { site.delete() }
    let server = try await site.startServer("redirect", ["--location", "http://198.51.100.1/login"])
    defer { server.stop() }
    let run = try NetstatusProcess(["--json", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let (_, connectivity) = try split(try #require(run.lines.values.first))
    #expect(
      connectivity == #"{"state":"portal","redirect":"http://198.51.100.1/login","ipv4":"portal","ipv6":null}"#)
  }

  /// An ordinary web server (200) under the default `--expect 204`: still the portal state, but the text says the
  /// answer was unexpected and either a portal intercepted it or `--expect` does not match the server.
  @Test func anOrdinaryServerIsAnUnexpectedAnswerNotSimplyAPortal() async throws {
    let site = try ProbeSite("e2epplain")
    defer { site.delete() }
    let server = try await site.startServer("body", ["--body", "<html>hello</html>"])
    defer { server.stop() }
    let run = try NetstatusProcess(["--netns", site.target.name, "--probe", site.url()])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let expected =
      "Internet     portal (unexpected answer: HTTP 200, expected 204; either a captive portal intercepted it, or "
      + "--expect does not match the server); IPv4 portal, IPv6 unsupported"
    #expect(run.lines.values.contains(expected), "\(run.lines.values)")
    let json = try NetstatusProcess(["--json", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await json.waitForExit() == .exited(0), "stderr: \(json.errorOutput)")
    #expect(
      json.lines.values.first?.hasSuffix(#""connectivity":{"state":"portal","ipv4":"portal","ipv6":null}}"#) == true,
      "the state is kept")
  }

  @Test func snapshotTableShowsTheInternetRow() async throws {
    let site = try ProbeSite("e2eptable")
    defer { site.delete() }
    let run = try NetstatusProcess(["--netns", site.target.name, "--probe", site.url(), "--expect", "online"])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    #expect(
      run.lines.values.contains("Internet     limited (connection refused); IPv4 limited, IPv6 unsupported"),
      "\(run.lines.values)")
  }

  @Test func snapshotWithoutProbeSendsNothingAndHasNoConnectivity() async throws {
    let site = try ProbeSite("e2epnone")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess(["--json", "--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(0))
    #expect(run.lines.values.first?.contains("connectivity") == false)
    // A run with --probe now: its request must be the first the server ever saw.
    let probed = try NetstatusProcess(["--netns", site.target.name, "--probe", site.url("/second")])
    #expect(try await probed.waitForExit() == .exited(0))
    #expect(try await server.awaitRequest(for: "/second") == ["request GET /second"], "no traffic without --probe")
  }

  @Test func waitInternetExitsZeroOnceFull() async throws {
    let site = try ProbeSite("e2epwait", defaultRoute: false)
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess(
      ["wait", "--internet", "--timeout", "240", "--json", "--netns", site.target.name, "--probe", site.url()])
    defer { run.terminate() }
    try await run.waitUntilStarted(namespace: site.target)
    #expect(server.requests.isEmpty, "no path, no probe")
    try site.addDefaultRoute()
    // Exit 0 is the reaction to the route (settle 250 ms, then one probe): its timeout, which only bounds a failure
    // (far past a stall of the test process), would exit 1. Not timed: the latency is a benchmark's job.
    #expect(try await run.waitForExit(timeout: .seconds(240)) == .exited(0), "stderr: \(run.errorOutput)")
    let (path, connectivity) = try split(try #require(run.lines.values.first))
    #expect(path.isConnected)
    #expect(connectivity == #"{"state":"full","ipv4":"full","ipv6":null}"#)
  }

  @Test func waitInternetTimesOutWithOneWhenThePathWorksButTheInternetDoesNot() async throws {
    let site = try ProbeSite("e2eptimeout")
    defer { site.delete() }
    let run = try NetstatusProcess(
      ["wait", "--internet", "--timeout", "2", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await run.waitForExit() == .exited(1))
    #expect(run.lines.values.isEmpty)
    #expect(run.errorOutput.contains("full internet access"), "\(run.errorOutput)")
    #expect(run.errorOutput.contains("internet: limited (connection refused)"), "\(run.errorOutput)")
  }

  @Test(arguments: [
    (["wait", "--internet"], "wait --internet needs --probe URL"),
    (["--probe", "https://example.com/"], "plain HTTP only"),
    (["--expect", "204"], "--expect needs --probe URL"),
  ])
  func probeUsageErrorsExitTwo(arguments: [String], message: String) async throws {
    let run = try NetstatusProcess(arguments)
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.lines.values.isEmpty)
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "\(run.errorOutput)")
    #expect(run.errorOutput.contains(message), "\(run.errorOutput)")
  }

  @Test func watchPrintsConnectivityChanges() async throws {
    let site = try ProbeSite("e2epwatch")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name, "--probe", site.url()])
    defer { run.terminate() }
    // The first line says unknown, unless the probe already finished when it was printed.
    let full = try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity full") {
      $0.last.flatMap(Self.connectivity(of:)) == #"{"state":"full","ipv4":"full","ipv6":null}"#
    }
    let first = try split(full[0]).1
    #expect(
      first == #"{"state":"unknown","ipv4":"unknown","ipv6":null}"#
        || first == #"{"state":"full","ipv4":"full","ipv6":null}"#)
    #expect(full.count <= 2, "\(full)")

    try site.deleteDefaultRoute()
    let none = try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity none") {
      $0.last.flatMap(Self.connectivity(of:)) == #"{"state":"none","ipv4":null,"ipv6":null}"#
    }
    #expect(try !split(none[none.count - 1]).0.isConnected)
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0))
    #expect(try await server.awaitRequests(1).count == 1, "one probe; none while full, none without a path")
  }

  @Test func watchWithAProbeIntervalNoticesAnUpstreamThatDied() async throws {
    let site = try ProbeSite("e2epinterval")
    defer { site.delete() }
    let server = try await site.startServer("204")
    defer { server.stop() }
    let run = try NetstatusProcess([
      "watch", "-j", "-n", site.target.name, "--probe", site.url(), "--probe-interval", "1s",
    ])
    defer { run.terminate() }
    _ = try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity full") {
      $0.last.flatMap(Self.connectivity(of:)) == #"{"state":"full","ipv4":"full","ipv6":null}"#
    }
    // The path stays as it is; only the server goes away. Without --probe-interval nothing would check again.
    server.stop()
    let limited = try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity limited") {
      $0.last.flatMap(Self.connectivity(of:)) == #"{"state":"limited","ipv4":"limited","ipv6":null}"#
    }
    #expect(try split(limited[limited.count - 1]).0.isConnected, "the path did not change")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0))
  }

  @Test func watchReportsAFloodingServerAsLimitedAndThenUsesNoCPU() async throws {
    let site = try ProbeSite("e2epflood")
    defer { site.delete() }
    let server = try await site.startServer("flood-continue", ["--flood-seconds", "40"])
    defer { server.stop() }
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name, "--probe", site.url()])
    defer { run.terminate() }
    // Before the limits, the first check read the flood for as long as it lasted: no verdict, a core pegged.
    try await run.lines.waitUntil(timeout: .seconds(30), "a line with connectivity limited") {
      $0.last.flatMap(Self.connectivity(of:)) == #"{"state":"limited","ipv4":"limited","ipv6":null}"#
    }
    try await server.process.lines.waitUntil(timeout: .seconds(5), "the server to see the probe close") {
      $0.contains("closed")
    }
    // A quiet window of one second (it measures; it synchronises nothing). Retries come after 1 s, 2 s, …
    // with backoff, each ended by the same limit: netstatus must use next to no CPU.
    let pid = run.processIdentifier
    let before = try #require(ProcessThreads.processCPUTime(pid))
    try await Task.sleep(for: .seconds(1))
    let after = try #require(ProcessThreads.processCPUTime(pid))
    #expect(
      after - before < ProcessThreads.cpuBound(.milliseconds(100)),
      "netstatus used \(after - before) of CPU in one second")
  }

  /// A portal's Location that would retitle the terminal (OSC 0, ended by BEL) and clear the screen (CSI 2J).
  static let hostileLocation = "http://198.51.100.1/login\u{1B}]0;pwned\u{07}\u{1B}[2J"
  /// How people see it: every control character escaped.
  static let escapedLocation = #"http://198.51.100.1/login\x1B]0;pwned\x07\x1B[2J"#

  /// Whether `text` holds a character a terminal acts on (ESC, BEL, any C0 or C1 control but the newline).
  static func hasRawControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
  }

  @Test func aHostileRedirectIsShownEscapedAndKeptExactInJSON() async throws {
    let site = try ProbeSite("e2epesc")
    defer { site.delete() }
    let server = try await site.startServer("redirect", ["--location", Self.hostileLocation])
    defer { server.stop() }

    // The table.
    let show = try NetstatusProcess(["--netns", site.target.name, "--probe", site.url()])
    #expect(try await show.waitForExit() == .exited(0), "stderr: \(show.errorOutput)")
    let table = show.lines.values.joined(separator: "\n")
    #expect(!Self.hasRawControls(table), "raw control characters in: \(table.debugDescription)")
    #expect(table.contains("Internet     portal (redirect to \(Self.escapedLocation))"), "\(table.debugDescription)")

    // A watch line.
    let watch = try NetstatusProcess(["watch", "--netns", site.target.name, "--probe", site.url()])
    defer { watch.terminate() }
    let lines = try await watch.lines.waitUntil(timeout: .seconds(30), "a watch line with the portal") {
      $0.contains { $0.contains("internet portal") }
    }
    #expect(!lines.contains(where: Self.hasRawControls), "\(lines.map(\.debugDescription))")
    #expect(lines.contains { $0.contains("redirect to \(Self.escapedLocation)") }, "\(lines)")
    watch.terminate()

    // The error text of a wait that times out.
    let wait = try NetstatusProcess(
      ["wait", "--internet", "--timeout", "2", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await wait.waitForExit() == .exited(1))
    #expect(!Self.hasRawControls(wait.errorOutput), "\(wait.errorOutput.debugDescription)")
    #expect(wait.errorOutput.contains("internet: portal (redirect to \(Self.escapedLocation))"), "\(wait.errorOutput)")

    // JSON keeps the exact value, escaped the JSON way, as before.
    let json = try NetstatusProcess(["--json", "--netns", site.target.name, "--probe", site.url()])
    #expect(try await json.waitForExit() == .exited(0))
    let line = try #require(json.lines.values.first)
    #expect(!Self.hasRawControls(line))
    let (_, connectivity) = try split(line)
    let state = try JSONDecoder().decode(ConnectivityState.self, from: Data(connectivity.utf8))
    #expect(state == .portal(redirect: Self.hostileLocation))
  }
}
