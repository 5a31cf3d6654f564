import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import ProcFileSupport
import Synchronization
import Testing

@testable import NetStatusCLI
@testable import NetStatusCore

/// The built `netstatus` binary, run as a user would: against namespaces the tests build.
@Suite(
  "netstatus end to end", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NetstatusEndToEndTests {
  /// A namespace with a veth link to a peer namespace, addressed, and (optionally) a default route.
  final class Site: Sendable {
    let target: TestNamespace
    let peer: TestNamespace

    init(_ label: String, defaultRoute: Bool = true) throws {
      target = try TestNamespace(label)
      peer = try TestNamespace(label + "p")
      try target.ip("link add v0 type veth peer name v1 netns \(peer.name)")
      try target.ip("addr add 198.51.100.2/24 dev v0")
      try peer.ip("addr add 198.51.100.1/24 dev v1")
      try peer.ip("link set v1 up")
      try target.ip("link set v0 up")
      if defaultRoute { try addDefaultRoute() }
    }

    func addDefaultRoute() throws { try target.ip("route add default via 198.51.100.1 dev v0") }
    func deleteDefaultRoute() throws { try target.ip("route del default") }

    func delete() {
      target.delete()
      peer.delete()
    }
  }

  @Test func snapshotPrintsTheDocumentedJSON() async throws {
    let site = try Site("e2ejson")
    defer { site.delete() }
    let run = try NetstatusProcess(["--json", "--netns", site.target.name])
    let exit = try await run.waitForExit()
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    let lines = run.lines.values
    try #require(lines.count == 1, "one JSON object: \(lines)")
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(lines[0].utf8))
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces.map(\.name) == ["v0"])
    #expect(path.interfaceType == .other, "a veth is virtual")
    #expect(path.gateways == ["198.51.100.1"])
    #expect(path.supportsIPv4)
    #expect(!path.supportsIPv6)
    #expect(lines[0] == path.jsonRepresentation, "the documented key order")
  }

  @Test func watchJSONLinesCarryTheTimeOfTheChangeAfterTheDocumentedKeys() async throws {
    let site = try Site("e2etime")
    defer { site.delete() }
    let before = JSONTimestamp.now().seconds
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name])
    defer { run.terminate() }
    let lines = try await run.lines.waitUntil(timeout: .seconds(30), "the first line") { !$0.isEmpty }
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(lines[0].utf8))
    let documented = String(path.jsonRepresentation.dropLast())
    #expect(
      lines[0].hasPrefix(documented + #","time":""#), "the documented keys, unchanged, then the time: \(lines[0])")
    let stamp = String(lines[0].dropFirst(documented.count + 9).dropLast(2))
    // 2026-11-30T22:19:01.123456Z: RFC 3339, UTC, microseconds; within the test's own window.
    #expect(stamp.count == 27 && stamp.hasSuffix("Z") && stamp.dropFirst(10).hasPrefix("T"), "\(stamp)")
    let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(object?["time"] as? String == stamp)
    let fields = stamp.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int32($0) }
    try #require(fields.count == 7, "\(stamp)")
    var parts = tm()
    (parts.tm_year, parts.tm_mon, parts.tm_mday) = (fields[0] - 1900, fields[1] - 1, fields[2])
    (parts.tm_hour, parts.tm_min, parts.tm_sec) = (fields[3], fields[4], fields[5])
    let seconds = Int64(timegm(&parts))
    #expect(seconds >= before && seconds <= JSONTimestamp.now().seconds, "\(stamp) is not now")
  }

  @Test func showAllJSONAppendsLinksAndNameservers() async throws {
    let site = try Site("e2ealljson")
    defer { site.delete() }
    let run = try NetstatusProcess(["show", "--all", "--json", "-n", site.target.name])
    #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    let line = try #require(run.lines.values.first)
    #expect(run.lines.values.count == 1, "one JSON object")
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(line.utf8))
    #expect(line.hasPrefix(String(path.jsonRepresentation.dropLast()) + #","links":["#), "\(line)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let links = try #require(object["links"] as? [[String: Any]])
    let v0 = try #require(links.first { $0["name"] as? String == "v0" }, "\(links)")
    #expect(v0["type"] as? String == "other" && v0["kind"] as? String == "veth")
    #expect(v0["up"] as? Bool == true && v0["carrier"] as? Bool == true)
    let addresses = try #require(v0["addresses"] as? [[String: Any]])
    #expect(
      addresses.contains {
        $0["address"] as? String == "198.51.100.2/24" && ($0["flags"] as? [String])?.isEmpty == true
      })
    #expect(object["nameservers"] is [String])
  }

  /// The speed each link negotiated, read from sysfs: a veth reports 10,000 Mb/s through ethtool, which sysfs
  /// shows. `ip netns exec` mounts the namespace's own sysfs for the command; from outside (`-n`), sysfs shows this
  /// machine's interfaces, and the namespace's are never given another's speed.
  @Test func showAllReadsTheSpeedEachLinkNegotiated() async throws {
    let site = try Site("e2espeed")
    defer { site.delete() }
    func links(_ run: NetstatusProcess) async throws -> [[String: Any]] {
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
      let line = try #require(run.lines.values.first)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return try #require(object["links"] as? [[String: Any]])
    }
    let inside = try await links(
      NetstatusProcess(
        executable: "/usr/sbin/ip",
        ["netns", "exec", site.target.name, NetstatusProcess.binaryPath, "show", "--all", "--json"]))
    let v0 = try #require(inside.first { $0["name"] as? String == "v0" }, "\(inside)")
    #expect(v0["speed"] as? Int == 10_000, "\(v0)")
    let lo = try #require(inside.first { $0["name"] as? String == "lo" })
    #expect(lo["speed"] is NSNull, "loopback has no speed")
    let outside = try await links(NetstatusProcess(["show", "--all", "--json", "-n", site.target.name]))
    let v0Outside = try #require(outside.first { $0["name"] as? String == "v0" })
    #expect(v0Outside["speed"] is NSNull, "this machine's sysfs does not show the namespace's v0")
  }

  /// On a terminal (a pseudo-terminal made by Python's `pty`): symbols always; colour unless NO_COLOR is set or TERM
  /// is dumb; and neither when the output is a pipe.
  @Test(arguments: [
    (["TERM": "xterm-256color"], true, true), (["TERM": "dumb"], false, true),
    (["TERM": "xterm-256color", "NO_COLOR": "1"], false, true),
  ])
  func colourFollowsTheTerminalNoColorAndTerm(environment: [String: String], colour: Bool, symbols: Bool)
    async throws
  {
    let site = try Site("e2ecolour")
    defer { site.delete() }
    // Runs netstatus on a pseudo-terminal and prints what it wrote there, as hex (the escapes stay visible).
    let script = """
      import os, pty, sys
      pid, fd = pty.fork()
      if pid == 0:
          os.execv(sys.argv[1], sys.argv[1:])
      out = b""
      while True:
          try:
              chunk = os.read(fd, 65536)
          except OSError:
              break
          if not chunk:
              break
          out += chunk
      os.waitpid(pid, 0)
      print(out.hex())
      """
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    let child = try ChildProcess(
      executable: "/usr/bin/env",
      ["python3", "-c", script, NetstatusProcess.binaryPath, "show", "-n", site.target.name], environment: env)
    #expect(try await child.waitForExit() == .exited(0), "\(child.errorOutput)")
    let hex = try #require(child.lines.values.last)
    let bytes = stride(from: 0, to: hex.count, by: 2).compactMap {
      UInt8(hex.dropFirst($0).prefix(2), radix: 16)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\u{1B}[") == colour, "colour \(colour) under \(environment): \(text.debugDescription)")
    #expect(text.contains("✓") == symbols, "symbols under \(environment): \(text)")
    // Through a pipe: plain.
    let piped = try NetstatusProcess(["show", "-n", site.target.name])
    #expect(try await piped.waitForExit() == .exited(0))
    let plain = piped.lines.values.joined(separator: "\n")
    #expect(!plain.contains("\u{1B}[") && !plain.contains("✓"), "\(plain)")
  }

  @Test func showAllListsEveryLinkWithItsStateAndAddresses() async throws {
    let site = try Site("e2eall")
    defer { site.delete() }
    try site.target.ip("link add d0 type veth peer name d1")
    try site.target.ip("addr add 203.0.113.9/24 dev d0")
    let run = try NetstatusProcess(["show", "--all", "-n", site.target.name])
    #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    let lines = run.lines.values
    let links = try #require(lines.firstIndex(of: "Links"), "\(lines)")
    let dns = try #require(lines.firstIndex { $0.hasPrefix("DNS servers  ") }, "\(lines)")
    let rows = lines[(links + 1)..<dns].filter { $0.hasPrefix("  ") }
    #expect(rows.count == 4, "lo, v0, d0, d1: \(rows)")
    let v0 = try #require(rows.first { $0.contains(" v0 ") }, "\(rows)")
    #expect(v0.contains("other") && v0.contains(" up ") && v0.contains(" carrier ") && v0.contains("198.51.100.2/24"))
    #expect(v0.contains("[veth]"), "\(v0)")
    let d0 = try #require(rows.first { $0.contains(" d0 ") }, "\(rows)")
    #expect(d0.contains(" down ") && d0.contains("no carrier") && d0.contains("203.0.113.9/24"), "\(d0)")
    let lo = try #require(rows.first { $0.contains(" lo ") }, "\(rows)")
    #expect(lo.contains("127.0.0.1/8 (host)"), "\(lo)")
    // Then the monitor's sources: of another namespace, the kernel's alone.
    #expect(Array(lines[(dns + 1)...]) == ["Sources", "  rtnetlink (paths): active"], "\(lines)")
  }

  @Test func snapshotPrintsAPlainTableWhenNotOnATerminal() async throws {
    let site = try Site("e2etable")
    defer { site.delete() }
    let run = try NetstatusProcess(["--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let text = run.lines.values.joined(separator: "\n")
    #expect(text.contains("Connected    yes"))
    #expect(text.contains("v0  other  (in use)"))
    #expect(text.contains("Gateways     198.51.100.1"))
    #expect(!text.contains("\u{1B}["), "no colour codes outside a terminal")
    #expect(run.errorOutput.isEmpty)
  }

  @Test func watchPrintsOneJSONLinePerChange() async throws {
    let site = try Site("e2ewatch")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path")
    #expect(try run.path(at: 0).isConnected)

    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the removed route")
    #expect(try !run.path(at: 1).isConnected)

    try site.addDefaultRoute()
    try await run.lines.waitFor(count: 3, timeout: .seconds(30), "the line for the restored route")
    #expect(try run.path(at: 2).isConnected)
    #expect(try run.path(at: 2).gateways == ["198.51.100.1"])

    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "SIGTERM ends watch cleanly")
    #expect(run.lines.count == 3, "one line per change, no repeats: \(run.lines.values)")
  }

  /// `netstatus watch --json > FILE`: standard output a regular file, which watch writes without asking `poll(2)`
  /// first (Sources/NetStatusCLI/StandardOutput.swift): every change is a whole line in the file.
  @Test func watchWritesOneJSONLinePerChangeToARegularFile() async throws {
    let site = try Site("e2efile")
    defer { site.delete() }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-watch-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let run = try NetstatusSignalAndOutputTests.runRedirected(
      "> '\(file)'", ["watch", "--json", "--netns", site.target.name])
    defer { run.terminate() }
    // Read with readProcFile, not String(contentsOfFile:), whose buffer FoundationEssentials leaks when the file
    // changes under the read (LeakSanitizer reported it in CI: netstatus appends to this file meanwhile).
    @Sendable func lines() -> [Substring] {
      (readProcFile(file) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
    }
    // Whole lines only: the text ends with a newline, so the last element is empty.
    @Sendable func waitForLines(_ count: Int, _ what: String) async throws -> [Substring] {
      try await withTimeout(.seconds(30), what) {
        while lines().count < count + 1 {
          try await Task.sleep(for: .milliseconds(1))  // paced: netstatus needs the CPU to write them
        }
        return lines()
      }
    }
    _ = try await waitForLines(1, "the first path")
    try site.deleteDefaultRoute()
    _ = try await waitForLines(2, "the line for the removed route")
    try site.addDefaultRoute()
    let written = try await waitForLines(3, "the line for the restored route")
    let paths = try written.dropLast().map { try JSONDecoder().decode(NetworkPath.self, from: Data($0.utf8)) }
    #expect(paths.map(\.isConnected) == [true, false, true])
    #expect(written.last == "", "whole lines: \(written)")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "SIGTERM ends watch cleanly")
    #expect(run.errorOutput.isEmpty, "\(run.errorOutput)")
  }

  /// An idle `watch` must not wake up: it runs no task on Swift's global executor, because the first one
  /// starts libdispatch's thread-pool monitor, a timer that fires every second for the rest of the process.
  /// That executor's workers are named after their root queue (`com.apple.root.default-qos`, shown as its
  /// last 15 bytes) and linger 5 s after their last job, so one that ran shows here.
  @Test func plainWatchRunsNoTaskOnTheGlobalExecutor() async throws {
    let site = try Site("e2eidle")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path")
    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the removed route")
    let names = run.threadNames()
    #expect(names.contains("netstatus-rtnl"), "\(names)")
    #expect(!names.contains { $0.hasSuffix("-qos") }, "a global-executor worker ran: \(names)")
    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0))
  }

  @Test func watchStopsOnSIGINTWithTimestampedLines() async throws {
    let site = try Site("e2eint")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first line")
    let line = run.lines.values[0]
    #expect(
      line.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}  online "#, options: .regularExpression) != nil, "\(line)"
    )
    run.signal(SIGINT)
    #expect(try await run.waitForExit() == .exited(0))
  }

  @Test func waitReturnsOnceTheRouteAppears() async throws {
    let site = try Site("e2ewait", defaultRoute: false)
    defer { site.delete() }
    // Its timeout only bounds a failure: far past a stall of the test process between this start and the route.
    let run = try NetstatusProcess(["wait", "--timeout", "240", "--netns", site.target.name])
    defer { run.terminate() }
    // The process must be waiting (not exited) before the route appears.
    try await run.waitUntilStarted(namespace: site.target)
    try site.addDefaultRoute()
    // Exit 0 is the reaction to the route (6-60 ms in a debug build on an idle machine): its timeout would exit 1.
    // Not timed: the latency is a benchmark's job.
    #expect(try await run.waitForExit(timeout: .seconds(240)) == .exited(0), "stderr: \(run.errorOutput)")
    #expect(run.lines.values.first?.contains("online") == true)
  }

  @Test func waitTimesOutWithExitCodeOne() async throws {
    let site = try Site("e2etimeout", defaultRoute: false)
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "--timeout", "0.3", "--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(1))
    #expect(run.errorOutput.contains("timed out after"), "\(run.errorOutput)")
    #expect(run.lines.values.isEmpty, "nothing on stdout")
  }

  @Test func waitTakesShortOptionsAndSystemdTimeSpans() async throws {
    let site = try Site("e2eshort")
    defer { site.delete() }
    let ipv6 = try NetstatusProcess(["wait", "-6t", "300ms", "-n", site.target.name])
    #expect(try await ipv6.waitForExit() == .exited(1), "the site has no IPv6: \(ipv6.errorOutput)")
    #expect(ipv6.errorOutput.contains("timed out after 0.3 seconds"), "\(ipv6.errorOutput)")
    let ipv4 = try NetstatusProcess(["wait", "-4qj", "--timeout", "1min", "-n\(site.target.name)"])
    #expect(try await ipv4.waitForExit() == .exited(0), "\(ipv4.errorOutput)")
    #expect(ipv4.lines.values.isEmpty, "-q prints nothing")
  }

  /// `--via NAME`: the default path must go through NAME.
  @Test func waitSelectsThePathsInterfacesByName() async throws {
    let site = try Site("e2eiface")
    defer { site.delete() }
    let ns = site.target.name
    let named = try NetstatusProcess(["wait", "--via", "v0", "-t", "5s", "-q", "-n", ns])
    #expect(try await named.waitForExit() == .exited(0), "\(named.errorOutput)")
    #expect(named.errorOutput.isEmpty, "v0 exists: \(named.errorOutput)")

    let both = try NetstatusProcess(["wait", "--via", "v0", "--via", "w9", "-t", "300ms", "-n", ns])
    #expect(try await both.waitForExit() == .exited(1), "w9 carries nothing: \(both.errorOutput)")
    let notes = both.errorOutput.split(separator: "\n").filter { $0.contains("no interface named w9") }
    #expect(notes == ["netstatus: no interface named w9 yet; waiting for it to appear"], "once: \(both.errorOutput)")
    #expect(both.errorOutput.contains("through v0 and w9"), "\(both.errorOutput)")

    let any = try NetstatusProcess(["wait", "--via", "w9", "--via", "v0", "--any", "-t", "5s", "-q", "-n", ns])
    #expect(try await any.waitForExit() == .exited(0), "\(any.errorOutput)")

    let ignored = try NetstatusProcess(["wait", "--ignore", "v0", "-t", "300ms", "-n", ns])
    #expect(try await ignored.waitForExit() == .exited(1), "only v0 carries the path: \(ignored.errorOutput)")
    #expect(ignored.errorOutput.contains("(ignoring v0)"), "\(ignored.errorOutput)")
  }

  /// `-i NAME` means what `systemd-networkd-wait-online -i NAME` means: carrier and an address (networkd's
  /// operational state, `degraded` or better by default), with no default route needed, as on a storage or
  /// management NIC. `--via NAME` keeps the other meaning: the default path goes through NAME.
  @Test func waitInterfaceIsNetworkdsOperationalStateAndViaIsThePath() async throws {
    let site = try Site("e2enwd", defaultRoute: false)
    defer { site.delete() }
    let ns = site.target.name
    let state = try NetstatusProcess(["wait", "-i", "v0", "-t", "20s", "-n", ns])
    // Exit 0, not its timeout's 1.
    #expect(try await state.waitForExit() == .exited(0), "an address and carrier are enough: \(state.errorOutput)")
    #expect(state.lines.values.first?.contains("offline") == true, "the path printed as it is: \(state.lines.values)")
    for form in [
      ["-i", "v0:routable"], ["--interface=v0:degraded:routable"], ["--operational-state=routable", "-i", "v0"],
    ] {
      let run = try NetstatusProcess(["wait", "-q", "-t", "20s", "-n", ns] + form)
      #expect(try await run.waitForExit() == .exited(0), "\(form): \(run.errorOutput)")
    }

    let below = try NetstatusProcess(["wait", "-i", "v0:carrier:degraded", "-t", "300ms", "-n", ns])
    #expect(try await below.waitForExit() == .exited(1), "v0 is routable, above the range")
    #expect(below.errorOutput.contains("now v0 routable"), "\(below.errorOutput)")

    let path = try NetstatusProcess(["wait", "--via", "v0", "-t", "300ms", "-n", ns])
    #expect(try await path.waitForExit() == .exited(1), "no default route: \(path.errorOutput)")
    #expect(path.errorOutput.contains("a satisfied path through v0"), "\(path.errorOutput)")

    // Down, then up: the wait follows the link's state as it changes, without a route ever changing.
    try site.target.ip("link set v0 down")
    let off = try NetstatusProcess(["wait", "-i", "v0", "-t", "300ms", "-n", ns])
    #expect(try await off.waitForExit() == .exited(1), "v0 is off")
    #expect(off.errorOutput.contains("now v0 off"), "\(off.errorOutput)")
    let run = try NetstatusProcess(["wait", "-i", "v0:routable", "-t", "20s", "-n", ns])
    defer { run.terminate() }
    try await run.waitUntilStarted(namespace: site.target)
    try site.target.ip("link set v0 up")
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(0), "\(run.errorOutput)")
  }

  /// wait-online's options alone (`--any`, `-o`, `--ignore`) wait for the links networkd manages: in a namespace it
  /// does not manage there are none, so they time out, and say why, while `-i` is judged from the kernel.
  @Test func waitOnlineOptionsAloneNeedNetworkd() async throws {
    let site = try Site("e2eany")
    defer { site.delete() }
    let ns = site.target.name
    for form in [["--any"], ["-o", "routable"], ["--ignore=v*"]] {
      let run = try NetstatusProcess(["wait", "-t", "300ms", "-n", ns] + form)
      #expect(try await run.waitForExit() == .exited(1), "\(form): \(run.errorOutput)")
      #expect(
        run.errorOutput.contains("now no link is managed by systemd-networkd (the kernel's operational state: "),
        "\(form): \(run.errorOutput)")
    }
    let named = try NetstatusProcess(["wait", "-q", "-t", "20s", "-n", ns, "-i", "v0", "--any", "-i", "v9"])
    #expect(try await named.waitForExit() == .exited(0), "v0 from the kernel: \(named.errorOutput)")
  }

  @Test func waitForAnInterfaceThatAppearsLater() async throws {
    let site = try Site("e2elater")
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "-i", "v2", "-t", "20s", "-n", site.target.name])
    defer { run.terminate() }
    // Once it has said so: it reads the links for that note after its monitor started, and an interface added
    // before that read would rightly not be reported as missing.
    try await run.waitForErrorOutput(containing: "no interface named v2 yet; waiting for it to appear")
    try site.target.ip("link add v2 type veth peer name v3 netns \(site.peer.name)")
    try site.target.ip("addr add 203.0.113.2/24 dev v2")
    try site.peer.ip("link set v3 up")
    try site.target.ip("link set v2 up")
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(0), "\(run.errorOutput)")
    #expect(run.errorOutput.contains("no interface named v2 yet; waiting for it to appear"), "\(run.errorOutput)")
  }

  /// Options before the command, as `ip -n NS monitor` takes them.
  @Test func globalOptionsBeforeTheCommand() async throws {
    let site = try Site("e2eglob")
    defer { site.delete() }
    let run = try NetstatusProcess(["-n", site.target.name, "--json", "watch"])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path")
    let line = try #require(run.lines.values.first)
    #expect(line.hasPrefix(#"{"status":"satisfied""#) && line.contains(#""time":""#), "\(line)")
    run.signal(SIGINT)
    #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")

    let wait = try NetstatusProcess(["-qn", site.target.name, "wait", "-t", "5s"])
    #expect(try await wait.waitForExit() == .exited(0), "\(wait.errorOutput)")
    #expect(wait.lines.values.isEmpty, "-q before the command still counts")
  }

  /// A mistyped option or command gets the closest valid one, in one line, exit 2; `help` and `-h COMMAND` work.
  @Test(arguments: [
    (["--jsno"], "unknown option '--jsno' for 'netstatus'; did you mean '--json'?"),
    (["wacth"], "unknown command 'wacth'; did you mean 'watch'?"),
    (["wait", "--intreface", "eth0"], "did you mean '--interface'?"),
  ])
  func suggestionsForTypos(_ arguments: [String], _ expected: String) async throws {
    let run = try NetstatusProcess(arguments)
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.lines.values.isEmpty)
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1 && errors[0].contains(expected), "\(run.errorOutput)")
  }

  @Test func helpCommandAndHelpBeforeACommand() async throws {
    let wait = try NetstatusProcess(["help", "wait"])
    #expect(try await wait.waitForExit() == .exited(0))
    #expect(wait.lines.values.first?.hasPrefix("netstatus wait") == true, "\(wait.lines.values)")
    let watch = try NetstatusProcess(["-h", "watch"])
    #expect(try await watch.waitForExit() == .exited(0))
    #expect(watch.lines.values.first?.hasPrefix("netstatus watch") == true, "\(watch.lines.values)")
    let overview = try NetstatusProcess(["help"])
    #expect(try await overview.waitForExit() == .exited(0))
    #expect(overview.lines.values.joined(separator: "\n").contains("help [COMMAND]"))
  }

  @Test func waitHonoursItsConditions() async throws {
    let site = try Site("e2econd")
    defer { site.delete() }
    let ipv6 = try NetstatusProcess(["wait", "--ipv6", "--timeout", "0.3", "--netns", site.target.name])
    #expect(try await ipv6.waitForExit() == .exited(1), "the site has no IPv6")
    let ipv4 = try NetstatusProcess(
      ["wait", "--ipv4", "--interface-type", "other", "--quiet", "--netns", site.target.name])
    #expect(try await ipv4.waitForExit() == .exited(0))
    #expect(ipv4.lines.values.isEmpty, "--quiet prints nothing")
  }

  @Test(arguments: [
    ["wait", "--timeout", "soon"], ["--bogus"], ["wait", "--interface-type", "radio"], ["watch", "--dns"],
    ["wait", "-t", "0x10"], ["wait", "-t", "366d"], ["-n", "a", "-n", "b"], ["--probe", "http://h/", "--expect", "99"],
    ["show", "--", "extra"], ["wait", "-o", "routable", "--via", "v0"], ["wait", "-i", "a/b"],
    ["wait", "--via", "v0", "--ignore", "v0"],
    ["wait", "-i", "v0:up"],
    ["show", "-i", "v0"],
  ])
  func badFlagsExitTwoWithOneLine(arguments: [String]) async throws {
    let run = try NetstatusProcess(arguments)
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.lines.values.isEmpty, "errors go to stderr")
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "\(run.errorOutput)")
    #expect(errors.first?.hasPrefix("netstatus: ") == true)
  }

  @Test func missingNamespaceIsAClearErrorWithExitTwo() async throws {
    let run = try NetstatusProcess(["--netns", "nstest-does-not-exist"])
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.errorOutput.contains("nstest-does-not-exist"))
    #expect(run.errorOutput.contains("ip netns list"))
  }

  /// `watch` ends with the same failure, exit 2, whether the namespace's name is deleted or the process whose
  /// `/proc/PID/ns/net` it watches exits.
  @Test(arguments: [false, true])
  func watchEndsWithExitTwoWhenTheNamespaceGoes(byProcessExit: Bool) async throws {
    let site = try Site(byProcessExit ? "e2eproc" : "e2egone")
    defer { site.delete() }
    let process = byProcessExit ? try await site.target.startProcess() : nil
    defer { process?.terminate() }
    let namespace = process.map { "/proc/\($0.processIdentifier)/ns/net" } ?? site.target.name
    let run = try NetstatusProcess(["watch", "--json", "--netns", namespace])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first path")
    #expect(try run.path(at: 0).gateways == ["198.51.100.1"])

    if let process {
      process.signal(SIGKILL)  // by its PID
    } else {
      site.target.delete()
    }
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2), "stderr: \(run.errorOutput)")
    let expected =
      process.map { "process \($0.processIdentifier) exited while its network namespace \(namespace) was watched" }
      ?? "network namespace /run/netns/\(namespace) was deleted while it was watched"
    #expect(run.errorOutput.contains(expected), "\(run.errorOutput)")
    #expect(!run.errorOutput.contains("the monitor"), "the CLI's words, not the library's: \(run.errorOutput)")
    #expect(run.lines.values.count == 1, "no offline line: the network did not go down: \(run.lines.values)")
  }

  /// Opening a FIFO blocks until a writer comes: netstatus must not open it that way, and must say what is wrong.
  @Test(arguments: [["show"], ["watch"], ["wait", "--timeout", "30"]])
  func fifoAsNamespaceIsAClearErrorWithExitTwo(command: [String]) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("netns").path
    try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)")
    let run = try NetstatusProcess(command + ["--netns", fifo])
    defer { run.terminate() }
    // Killed (and the test failed) if it has not exited by then.
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2))
    #expect(run.lines.values.isEmpty, "errors go to stderr")
    #expect(run.errorOutput.contains("cannot enter network namespace \(fifo)"), "\(run.errorOutput)")
    #expect(run.errorOutput.contains("not a namespace file"), "\(run.errorOutput)")
  }

  @Test func helpAndVersion() async throws {
    let help = try NetstatusProcess(["wait", "--help"])
    #expect(try await help.waitForExit() == .exited(0))
    #expect(help.lines.values.joined(separator: "\n").contains("--interface-type TYPE"))
    let version = try NetstatusProcess(["--version"])
    #expect(try await version.waitForExit() == .exited(0))
    #expect(version.lines.values.first?.hasPrefix("netstatus ") == true)
    let short = try NetstatusProcess(["-V"])
    #expect(try await short.waitForExit() == .exited(0))
    #expect(short.lines.values == version.lines.values)
    let shortHelp = try NetstatusProcess(["watch", "-h"])
    #expect(try await shortHelp.waitForExit() == .exited(0))
    #expect(shortHelp.lines.values.joined(separator: "\n").contains("--textfile PATH"))
  }

  @Test(arguments: Completions.Shell.allCases)
  func printsItsCompletionScripts(_ shell: Completions.Shell) async throws {
    let run = try NetstatusProcess(["completions", shell.rawValue])
    #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    #expect(run.lines.values.joined(separator: "\n") == Completions.script(for: shell))
    let missing = try NetstatusProcess(["completions"])
    #expect(try await missing.waitForExit() == .exited(2))
    #expect(missing.errorOutput.contains("completions needs a shell: bash, zsh or fish"), "\(missing.errorOutput)")
  }

  @Test func watchExitsCleanlyWhenItsOutputIsClosed() async throws {
    let site = try Site("e2epipe")
    defer { site.delete() }
    // `netstatus watch | head -n 1`: after head exits, watch has nothing to print (the network is idle)
    // and must still notice the closed pipe and exit 0, not hang and not die of SIGPIPE.
    let script = "\"$0\" watch --netns \(site.target.name) | head -n 1; echo \"watch=${PIPESTATUS[0]}\" >&2"
    let run = try NetstatusProcess(
      executable: "/bin/bash", ["-c", script, NetstatusProcess.binaryPath])
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(0))
    #expect(run.lines.values.count == 1)
    #expect(run.errorOutput.contains("watch=0"), "\(run.errorOutput)")
  }
}

/// `netstatus` under stop signals and output it cannot write: a stop ends it within milliseconds whatever standard
/// output is doing, quietly; a write error is exit 2 with one line on standard error.
@Suite(
  "netstatus under signals and bad output", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NetstatusSignalAndOutputTests {
  typealias Site = NetstatusEndToEndTests.Site

  /// A pipe nobody reads (`netstatus watch | sleep 1000`): the test holds its read end and never reads it. It
  /// holds 16 KiB (four pages) instead of the usual 64 KiB, so that it fills with fewer changes (a slow, coalescing
  /// watcher under a sanitizer needs hundreds of rounds to fill 64 KiB); a writer blocks on it all the same.
  final class StalledPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
      (readEnd, writeEnd) = try ChildProcess.closeOnExecPipe()
      _ = fcntl(writeEnd, 1024 + 7, 16 * 1024)  // F_SETPIPE_SZ
    }

    /// The bytes waiting in the pipe.
    var queued: Int {
      var count: Int32 = 0
      _ = ioctl(readEnd, UInt(FIONREAD), &count)
      return Int(count)
    }

    /// What the pipe holds at most (`fcntl(F_GETPIPE_SZ)`; F_LINUX_SPECIFIC_BASE + 8).
    var capacity: Int { Int(fcntl(readEnd, 1024 + 8)) }

    /// Closes the test's copy of the write end, once the child has its own.
    func closeWriteEnd() { Glibc.close(writeEnd) }

    func close() { Glibc.close(readEnd) }
  }

  /// Flips the site's default route in rounds of 201 changes (`ip -batch`) until two rounds in a row add nothing
  /// to an almost full pipe: the writer is then blocked on it, with a line it cannot write. Each round leaves the
  /// route the other way round, so that it changes the path however much a slow watcher coalesces.
  static func fillUntilTheWriterBlocks(_ pipe: StalledPipe, site: Site) throws -> (rounds: Int, queued: Int) {
    let remove = "route del default"
    let add = "route add default via 198.51.100.1 dev v0"
    // When the writer blocks, each used page of the pipe has less than a line (a few hundred bytes) unused, and
    // at most one page is free (poll(2) stops reporting a pipe writable when its last page is all that is left).
    let full = pipe.capacity - pipe.capacity / 4096 * 512 - 4096
    var last = -1
    var unchanged = 0
    for round in 1...400 {
      let (first, second) = round % 2 == 1 ? (remove, add) : (add, remove)
      try site.target.batch(Array(repeating: [first, second], count: 100).flatMap { $0 } + [first])
      let queued = pipe.queued
      unchanged = queued == last ? unchanged + 1 : 0
      if unchanged == 2, queued > full { return (round, queued) }
      last = queued
    }
    throw TimedOut(what: "the pipe to fill (\(pipe.queued) of \(pipe.capacity) bytes queued)", timeout: .zero)
  }

  @Test(arguments: [SIGTERM, SIGINT, SIGQUIT])
  func aStopSignalEndsWatchWithinMillisecondsWhileItsReaderStalls(signal: Int32) async throws {
    let site = try Site("e2estall")
    defer { site.delete() }
    let pipe = try StalledPipe()
    defer { pipe.close() }
    let run = try NetstatusProcess(
      ["watch", "--json", "--netns", site.target.name], standardOutput: pipe.writeEnd)
    pipe.closeWriteEnd()
    defer { run.terminate() }
    try await run.waitUntilStarted(namespace: site.target)
    let filled = try Self.fillUntilTheWriterBlocks(pipe, site: site)

    let sent = ContinuousClock.now
    run.signal(signal)
    let exit = try await run.waitForExit(timeout: .seconds(30))
    let elapsed = (run.exitTime ?? .now) - sent
    print(
      "netstatus watch, reader stalled (\(filled.queued) bytes queued after \(filled.rounds) rounds of 201 route "
        + "changes): signal \(signal) → exit in \(elapsed)")
    #expect(exit == .exited(0), "a stop signal ends watch cleanly")
    #expect(elapsed < .seconds(10), "ended \(elapsed) after the signal (lost, it never ends; the target is 100 ms)")
    #expect(run.errorOutput.isEmpty, "quietly (no backtrace): \(run.errorOutput)")
  }

  /// `wait` ends on a stop signal as promptly, quietly, with 128 + the signal's number (never 0: not online).
  @Test(arguments: [SIGTERM, SIGINT, SIGQUIT])
  func aStopSignalEndsWaitQuietly(signal: Int32) async throws {
    let site = try Site("e2ewaitsig", defaultRoute: false)
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "--timeout", "0", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.waitUntilStarted(namespace: site.target)
    let sent = ContinuousClock.now
    run.signal(signal)
    let exit = try await run.waitForExit(timeout: .seconds(30))
    let elapsed = (run.exitTime ?? .now) - sent
    print("netstatus wait: signal \(signal) → exit in \(elapsed)")
    #expect(exit == .exited(128 + signal))
    #expect(elapsed < .seconds(10), "ended \(elapsed) after the signal (lost, it never ends; the target is 100 ms)")
    #expect(run.errorOutput.isEmpty, "quietly (no backtrace): \(run.errorOutput)")
    #expect(run.lines.values.isEmpty)
  }

  /// A stop signal sent as soon as netstatus has blocked the stop signals (first thing in main), before its
  /// signal sources exist, waits for them: it is neither lost nor fatal.
  @Test(arguments: [SIGTERM, SIGINT, SIGQUIT], ["wait", "watch"])
  func aStopSignalSentBeforeTheSourcesExistIsNotLost(signal: Int32, command: String) async throws {
    let site = try Site("e2eearly", defaultRoute: false)
    defer { site.delete() }
    let timeout = command == "wait" ? ["--timeout", "0"] : []
    let run = try NetstatusProcess([command] + timeout + ["--netns", site.target.name])
    defer { run.terminate() }
    try await run.waitUntilBlocking([SIGINT, SIGTERM, SIGQUIT])
    run.signal(signal)
    let expected: Int32 = command == "watch" ? 0 : 128 + signal
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(expected))
    #expect(run.errorOutput.isEmpty, "quietly: \(run.errorOutput)")
  }

  /// Runs netstatus with its standard output redirected by the shell (`> /dev/full`, `>&-`).
  static func runRedirected(_ redirection: String, _ arguments: [String]) throws -> NetstatusProcess {
    try NetstatusProcess(
      executable: "/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", NetstatusProcess.binaryPath] + arguments)
  }

  static let commands: [[String]] = [["--json"], ["watch", "--json"], ["wait"], ["--version"]]

  @Test(arguments: commands)
  func aFullStandardOutputIsExitTwoWithOneLine(command: [String]) async throws {
    let site = try Site("e2efull")
    defer { site.delete() }
    let namespace = command == ["--version"] ? [] : ["--netns", site.target.name]
    let run = try Self.runRedirected("> /dev/full", command + namespace)
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2))
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "one line: \(run.errorOutput)")
    #expect(errors.first?.hasPrefix("netstatus: cannot write to standard output") == true, "\(run.errorOutput)")
    #expect(errors.first?.contains("ENOSPC") == true, "\(run.errorOutput)")
  }

  @Test(arguments: commands)
  func aClosedStandardOutputIsExitTwoWithOneLine(command: [String]) async throws {
    let site = try Site("e2eclosed")
    defer { site.delete() }
    let namespace = command == ["--version"] ? [] : ["--netns", site.target.name]
    let run = try Self.runRedirected(">&-", command + namespace)
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2))
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "one line: \(run.errorOutput)")
    #expect(errors.first?.hasPrefix("netstatus: cannot write to standard output") == true, "\(run.errorOutput)")
    #expect(errors.first?.contains("EBADF") == true, "\(run.errorOutput)")
  }
}
