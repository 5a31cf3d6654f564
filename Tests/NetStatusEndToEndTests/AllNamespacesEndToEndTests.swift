#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// `netstatus watch --all-netns`, run as a user would, while the tests create and delete namespaces. Other
  /// suites make namespaces of their own meanwhile: each check looks only at the lines of its own namespaces.
  @Suite(
    "netstatus watch --all-netns end to end", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct AllNamespacesEndToEndTests {
    typealias Site = NetstatusEndToEndTests.Site

    /// A `--json` line's fields (nil for anything else).
    static func fields(_ line: String) -> [String: Any]? {
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The JSON lines about `namespace`, in order.
    static func lines(_ all: [String], about namespace: String) -> [[String: Any]] {
      all.compactMap(fields).filter { $0["netns"] as? String == namespace }
    }

    @Test func followsNamespacesAsTheyAppearChangeAndDisappear() async throws {
      let first = try Site("alla")
      defer { first.delete() }
      let run = try NetstatusProcess(["watch", "--all-netns", "--json"])
      defer { run.terminate() }
      let a = first.target.name
      try await run.lines.waitUntil(timeout: .seconds(10), "the first path of \(a)") {
        Self.lines($0, about: a).contains { $0["status"] as? String == "satisfied" }
      }

      // A namespace made while watching: reported once it is mounted, with its first path, then its changes.
      let second = try Site("allb", defaultRoute: false)
      let b = second.target.name
      var secondDeleted = false
      defer { if !secondDeleted { second.delete() } }
      try await run.lines.waitUntil(timeout: .seconds(10), "the first path of \(b), made while watching") {
        Self.lines($0, about: b).first?["status"] as? String == "unsatisfied"
      }
      try second.addDefaultRoute()
      try await run.lines.waitUntil(timeout: .seconds(10), "\(b) online") {
        Self.lines($0, about: b).last?["status"] as? String == "satisfied"
      }
      let path = try #require(Self.lines(run.lines.values, about: b).last)
      #expect(path["gateways"] as? [String] == ["198.51.100.1"])
      #expect(
        (path["availableInterfaces"] as? [[String: Any]])?.map { $0["name"] as? String } == ["v0"],
        "the documented keys are all there: \(path)")

      // Deleted: one line says so, and nothing about it follows.
      second.delete()
      secondDeleted = true
      try await run.lines.waitUntil(timeout: .seconds(10), "\(b) deleted") {
        Self.lines($0, about: b).contains { $0["deleted"] as? Bool == true }
      }

      // The first namespace is still watched.
      try first.deleteDefaultRoute()
      try await run.lines.waitUntil(timeout: .seconds(10), "\(a) offline") {
        Self.lines($0, about: a).last?["status"] as? String == "unsatisfied"
      }
      #expect(Self.lines(run.lines.values, about: b).last?["deleted"] as? Bool == true, "nothing after deleted")
      let deleted = try #require(Self.lines(run.lines.values, about: b).last)
      #expect((deleted["time"] as? String)?.hasSuffix("Z") == true, "every line carries the time: \(deleted)")

      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "SIGTERM ends the watch cleanly: \(run.errorOutput)")
    }

    /// Without the privilege to enter any namespace, the watch does not wait for ever: one line, exit 2, as
    /// `show --netns` ends.
    /// Runs `arguments` as nobody (uid 65534) in `folder`'s mount namespace, from a copy of the binary it can run (an
    /// unprivileged user may not reach the build folder), to its exit.
    static func runUnprivileged(_ arguments: [String], in folder: PrivateNetnsFolder) async throws -> NetstatusProcess {
      let copy = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-allnetns-\(UUID().uuidString)")
        .path
      try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: copy) }
      let binary = copy + "/netstatus"
      try FileManager.default.copyItem(atPath: NetstatusProcess.binaryPath, toPath: binary)
      #expect(chmod(copy, 0o755) == 0 && chmod(binary, 0o755) == 0)
      let run = try NetstatusProcess(
        executable: "/usr/bin/nsenter",
        [
          folder.mountNamespace, "--", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary,
        ] + arguments)
      do {
        _ = try await run.waitForExit(timeout: .seconds(30))
      } catch {
        run.terminate()
        throw error
      }
      return run
    }

    @Test func unprivilegedShowOfNamespacesItCannotEnterEndsWithExitTwo() async throws {
      let folder = try await PrivateNetnsFolder()
      defer { folder.delete() }
      try folder.shell("ip netns add nstest-unpriv-a && ip netns add nstest-unpriv-b")
      let run = try await Self.runUnprivileged(["show", "--all-netns"], in: folder)
      #expect(try await run.waitForExit() == .exited(2), "not an empty success: \(run.errorOutput)")
      #expect(run.lines.values.isEmpty)
      #expect(run.errorOutput.contains("nstest-unpriv-a: cannot enter network namespace"), "\(run.errorOutput)")
      #expect(run.errorOutput.contains("CAP_SYS_ADMIN"), "\(run.errorOutput)")
    }

    @Test func unprivilegedWatchOfNamespacesItCannotEnterEndsWithExitTwo() async throws {
      let folder = try await PrivateNetnsFolder()
      defer { folder.delete() }
      try folder.shell("ip netns add nstest-unpriv-a && ip netns add nstest-unpriv-b")
      let run = try await Self.runUnprivileged(["watch", "--all-netns"], in: folder)
      #expect(try await run.waitForExit(timeout: .seconds(10)) == .exited(2), "\(run.errorOutput)")
      let errors = run.errorOutput.split(separator: "\n")
      #expect(errors.count == 1, "one line: \(run.errorOutput)")
      #expect(
        errors.first?.hasPrefix(
          "netstatus: watch --all-netns: none of the 2 named network namespaces can be entered (the first: cannot enter "
            + "network namespace /run/netns/nstest-unpriv-a: EPERM")
          == true, "\(run.errorOutput)")
      #expect(run.errorOutput.contains("CAP_SYS_ADMIN"), "\(run.errorOutput)")
      #expect(run.lines.values.isEmpty)
    }

    /// A `/run/netns` of the test's own: a tmpfs mounted over it in a private mount namespace that a holder
    /// process keeps alive. `ip netns` and `netstatus` run there (`nsenter --mount`) see only the test's
    /// namespaces, which other suites' namespaces cannot disturb; they go with the holder.
    final class PrivateNetnsFolder: Sendable {
      let holder: ChildProcess
      var mountNamespace: String { "--mount=/proc/\(holder.processIdentifier)/ns/mnt" }

      init() async throws {
        try FileManager.default.createDirectory(atPath: "/run/netns", withIntermediateDirectories: true)
        holder = try ChildProcess(
          executable: "/usr/bin/unshare",
          [
            "--mount", "--propagation", "private", "sh", "-c",
            "mount -t tmpfs nstest /run/netns && echo ready && exec sleep 600",
          ])
        try await holder.lines.waitFor(count: 1, "the private /run/netns")
      }

      /// Runs `ip ARGUMENTS` in the private mount namespace.
      func ip(_ arguments: String) throws {
        let child = try ChildProcess(
          executable: "/usr/bin/nsenter",
          [mountNamespace, "--", "ip"] + arguments.split(separator: " ").map(String.init))
        let exit = child.waitUntilExit()
        guard exit == .exited(0) else {
          throw KernelTestSupport.CommandFailed(
            arguments: arguments.split(separator: " ").map(String.init), status: -1, output: child.errorOutput)
        }
      }

      /// Runs `sh -c SCRIPT` in the private mount namespace (many `ip` commands in one process).
      func shell(_ script: String) throws {
        let child = try ChildProcess(executable: "/usr/bin/nsenter", [mountNamespace, "--", "sh", "-c", script])
        let exit = child.waitUntilExit()
        guard exit == .exited(0) else {
          throw KernelTestSupport.CommandFailed(arguments: ["(sh)", script], status: -1, output: child.errorOutput)
        }
      }

      /// `netstatus ARGUMENTS` in the private mount namespace, with `RLIMIT_NOFILE` at `descriptors` (soft and hard)
      /// when given.
      func netstatus(_ arguments: [String], descriptors: Int? = nil, standardOutput: Int32? = nil) throws
        -> NetstatusProcess
      {
        let limit = descriptors.map { ["prlimit", "--nofile=\($0):\($0)"] } ?? []
        return try NetstatusProcess(
          executable: "/usr/bin/nsenter", [mountNamespace, "--"] + limit + [NetstatusProcess.binaryPath] + arguments,
          standardOutput: standardOutput)
      }

      func delete() { holder.terminate() }
    }

    /// A namespace named by a symbolic link to `/proc/PID/ns/net` (as some container tools make them) is judged
    /// by the namespace it points at: when process PID exits, it is reported deleted.
    @Test func aLinkToAProcessNamespaceIsDeletedWhenTheProcessExits() async throws {
      let folder = try await PrivateNetnsFolder()
      defer { folder.delete() }
      let holder = try ChildProcess(
        executable: "/usr/bin/unshare",
        ["--net", "sh", "-c", "ip link add va type veth peer name vb && echo ready && exec sleep 600"])
      defer { holder.terminate() }
      try await holder.lines.waitFor(count: 1, "a process in a namespace of its own")
      let name = "nstest-link-\(getpid())"
      let link = try ChildProcess(
        executable: "/usr/bin/nsenter",
        [folder.mountNamespace, "--", "ln", "-s", "/proc/\(holder.processIdentifier)/ns/net", "/run/netns/" + name])
      #expect(link.waitUntilExit() == .exited(0), "\(link.errorOutput)")
      let run = try folder.netstatus(["watch", "--all-netns", "--json"])
      defer { run.terminate() }
      try await run.lines.waitUntil(timeout: .seconds(10), "the first path of \(name)") {
        Self.lines($0, about: name).first?["status"] as? String == "unsatisfied"
      }
      holder.signal(SIGKILL)
      try await run.lines.waitUntil(timeout: .seconds(10), "\(name) deleted once its process exited") {
        Self.lines($0, about: name).contains { $0["deleted"] as? Bool == true }
      }
      #expect(Self.lines(run.lines.values, about: name).count == 2, "\(run.lines.values)")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }

    /// Out of descriptors (`RLIMIT_NOFILE` low, soft and hard, so that netstatus cannot raise it): the namespaces
    /// whose monitor could not start are said once on standard error (naming EMFILE), and started as soon as others
    /// go and free theirs.
    @Test func namespacesStarvedOfDescriptorsStartWhenOthersGo() async throws {
      let folder = try await PrivateNetnsFolder()
      defer { folder.delete() }
      let names = (10..<70).map { "nstest-exh-\($0)" }
      try folder.shell(names.map { "ip netns add \($0)" }.joined(separator: " && "))
      // About 16 descriptors of its own, then one per namespace: 60 namespaces do not fit in 64 (the fewest netstatus
      // starts with, DescriptorLimit.minimum), and fewer are starved than watched. A namespace's start holds two descriptors for a moment (the namespace's file and its
      // socket), so the starved ones all start only when one more watched namespace goes than there are starved
      // ones: with 24 namespaces, the build under AddressSanitizer watched 12 and starved 12, and the last never
      // had room.
      let run = try folder.netstatus(["watch", "--all-netns", "--json"], descriptors: 64)
      defer { run.terminate() }
      // The namespaces start in name order: the last one is starved, and said last.
      try await run.waitForErrorOutput(containing: "\(names.last!): ")
      let starved = names.filter { run.errorOutput.contains("\($0): ") }
      let started = try await run.lines.waitUntil(timeout: .seconds(10), "every other namespace started") { lines in
        names.allSatisfy { starved.contains($0) || !Self.lines(lines, about: $0).isEmpty }
      }
      let watched = names.filter { name in Self.lines(started, about: name).isEmpty == false }
      #expect(Set(watched).isDisjoint(with: starved))
      #expect(run.errorOutput.contains("EMFILE"), "\(run.errorOutput)")
      try #require(!starved.isEmpty && watched.count > starved.count, "watched \(watched), starved \(starved)")
      // Each starved one said once, naming the errno.
      for name in starved {
        #expect(run.errorOutput.components(separatedBy: "\(name): ").count == 2, "\(run.errorOutput)")
      }
      // As many watched ones go as there are starved ones (and one more): each starved one starts.
      let gone = Array(watched.prefix(starved.count + 1))
      try folder.shell(gone.map { "ip netns delete \($0)" }.joined(separator: " && "))
      try await run.lines.waitUntil(timeout: .seconds(30), "every starved namespace started, every gone one said") {
        lines in
        starved.allSatisfy { name in Self.lines(lines, about: name).first?["status"] as? String == "unsatisfied" }
          && gone.allSatisfy { name in Self.lines(lines, about: name).last?["deleted"] as? Bool == true }
      }
      for name in watched.prefix(starved.count + 1) {
        #expect(Self.lines(run.lines.values, about: name).last?["deleted"] as? Bool == true, "\(name)")
      }
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }

    /// A deleted namespace ends with its `deleted` line only: never an `offline` line first (its monitor's
    /// failure sends one), which a reader would take for the network going down. Deleted in a burst, so that the
    /// hub sees the deletions' inotify events and mount table changes in one batch, where the monitor's session
    /// may come before the namespace folder's watcher.
    @Test func aDeletedNamespaceEndsWithItsDeletedLineOnly() async throws {
      let folder = try await PrivateNetnsFolder()
      defer { folder.delete() }
      let names = (0..<200).map { "nstest-del-\($0)" }
      try folder.shell(names.map { "ip netns add \($0)" }.joined(separator: " && "))
      let run = try folder.netstatus(["watch", "--all-netns", "--json"])
      defer { run.terminate() }
      try await run.lines.waitUntil(timeout: .seconds(20), "every first path") { $0.count >= names.count }
      // One process deleting them all (`ip -all netns delete`), as fast as it can: 13 to 25% of the namespaces had
      // an `offline` line before their `deleted` one, before.
      try folder.shell("ip -all netns delete")
      try await run.lines.waitUntil(timeout: .seconds(20), "every deletion") {
        $0.count { $0.contains(#""deleted":true"#) } >= names.count
      }
      let all = run.lines.values
      let extra = names.filter { Self.lines(all, about: $0).count != 2 }
      #expect(extra.isEmpty, "\(extra.map { ($0, Self.lines(all, about: $0).map { $0["status"] ?? "deleted" }) })")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }

    /// netstatus raises its soft limit on descriptors to the hard one at start, as a thousand namespaces need.
    @Test func theSoftDescriptorLimitIsRaisedToTheHardOne() async throws {
      let site = try Site("allrlim")
      defer { site.delete() }
      let run = try NetstatusProcess(
        executable: "/usr/bin/prlimit",
        ["--nofile=64:4096", NetstatusProcess.binaryPath, "watch", "--json", "-n", site.target.name])
      defer { run.terminate() }
      try await run.lines.waitFor(count: 1, "the first path")
      let limits = try String(contentsOfFile: "/proc/\(run.processIdentifier)/limits", encoding: .utf8)
      let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
      #expect(
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["4096", "4096"],
        "\(line)")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }

    @Test func humanLinesNameTheirNamespaceAfterTheTime() async throws {
      let site = try Site("allh")
      defer { site.delete() }
      let run = try NetstatusProcess(["watch", "--all-netns"])
      defer { run.terminate() }
      let name = site.target.name
      let lines = try await run.lines.waitUntil(timeout: .seconds(10), "a line about \(name)") {
        $0.contains { $0.contains(" \(name): ") }
      }
      let line = try #require(lines.first { $0.contains(" \(name): ") })
      // 2026-11-30 19:00:00.123 NAME:  online   v0 (other)  IPv4 DNS  via 198.51.100.1
      #expect(
        line.range(of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} "#, options: .regularExpression) != nil, "\(line)")
      #expect(line.range(of: "\(name): +online ", options: .regularExpression) != nil, "\(line)")
      run.signal(SIGINT)
      #expect(try await run.waitForExit() == .exited(0))
    }

    @Test(arguments: [
      ["watch", "--all-netns", "--netns", "x"], ["watch", "--all-netns", "--probe", "http://127.0.0.1:9/"],
      ["show", "--all-netns", "--all"], ["wait", "--all-netns"], ["watch", "--all-netns=yes"],
    ])
    func misusedIsAUsageError(arguments: [String]) async throws {
      let run = try NetstatusProcess(arguments)
      #expect(try await run.waitForExit() == .exited(2))
      #expect(run.lines.values.isEmpty, "errors go to stderr")
      #expect(run.errorOutput.split(separator: "\n").count == 1, "\(run.errorOutput)")
    }
  }
#endif
