#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  /// `watch --all-netns` beyond `ip netns`: namespaces bind-mounted into Docker's folder and into one given with
  /// `--netns-dir`, as container runtimes keep them, in a `/run` of the test's own (a tmpfs in a private mount
  /// namespace that a holder process keeps alive: nothing of the machine's `/run` is seen or touched).
  @Suite(
    "netstatus watch --all-netns: Docker's folder and --netns-dir", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NamespaceFoldersEndToEndTests {
    typealias Lines = AllNamespacesEndToEndTests

    /// A private `/run` with `/run/netns`, `/run/docker/netns` and `/run/nstest-extra`.
    final class PrivateRun: Sendable {
      let holder: ChildProcess
      var mountNamespace: String { "--mount=/proc/\(holder.processIdentifier)/ns/mnt" }

      init() async throws {
        holder = try ChildProcess(
          executable: "/usr/bin/unshare",
          [
            "--mount", "--propagation", "private", "sh", "-c",
            "mount -t tmpfs nstest /run && mkdir -p /run/netns /run/docker/netns /run/nstest-extra && echo ready "
              + "&& exec sleep 600",
          ])
        try await holder.lines.waitFor(count: 1, "the private /run")
      }

      /// Runs `sh -c SCRIPT` in the private mount namespace.
      func shell(_ script: String) throws {
        let child = try ChildProcess(executable: "/usr/bin/nsenter", [mountNamespace, "--", "sh", "-c", script])
        guard child.waitUntilExit() == .exited(0) else {
          throw KernelTestSupport.CommandFailed(arguments: ["(sh)", script], status: -1, output: child.errorOutput)
        }
      }

      /// Bind-mounts the network namespace of process `pid` on `path`, as Docker does for a container's sandbox.
      func bindNamespace(of pid: Int32, to path: String) throws {
        try shell("touch \(path) && mount --bind /proc/\(pid)/ns/net \(path)")
      }

      /// `netstatus ARGUMENTS` in the private mount namespace.
      func netstatus(_ arguments: [String]) throws -> NetstatusProcess {
        try NetstatusProcess(
          executable: "/usr/bin/nsenter", [mountNamespace, "--", NetstatusProcess.binaryPath] + arguments)
      }

      func delete() { holder.terminate() }
    }

    /// A process in a network namespace of its own; with `online`, a veth link (its peer in the namespace too) with
    /// an address and a default route, so that its path is satisfied.
    static func container(online: Bool) async throws -> ChildProcess {
      let setUp =
        online
        ? "ip link add d0 type veth peer name d1 && ip link set d1 up && ip addr add 198.51.100.2/24 dev d0 "
          + "&& ip link set d0 up && ip route add default via 198.51.100.1 && " : ""
      let process = try ChildProcess(
        executable: "/usr/bin/unshare",
        ["--net", "sh", "-c", "ip link set lo up && \(setUp)echo ready && exec sleep 600"])
      try await process.lines.waitFor(count: 1, "a process in a namespace of its own")
      return process
    }

    @Test func dockerAndNetnsDirNamespacesAreFollowedOnceEach() async throws {
      let run = try await PrivateRun()
      defer { run.delete() }
      let folder = try PrometheusTextfileTests.Folder("promdirs")
      defer { folder.delete() }
      // A container's namespace, kept only by its bind mounts once its process is gone: in Docker's folder, and a
      // second time in the --netns-dir folder.
      let first = try await Self.container(online: true)
      defer { first.terminate() }
      try run.bindNamespace(of: first.processIdentifier, to: "/run/docker/netns/ctr1")
      try run.bindNamespace(of: first.processIdentifier, to: "/run/nstest-extra/alias")
      first.signal(SIGKILL)
      _ = try await first.waitForExit()

      let watch = try run.netstatus([
        "watch", "--all-netns", "--json", "--netns-dir", "/run/nstest-extra", "--textfile", folder.path + "/all.prom",
      ])
      defer { watch.terminate() }
      try await watch.lines.waitUntil(timeout: .seconds(10), "ctr1 online") {
        Lines.lines($0, about: "ctr1").last?["status"] as? String == "satisfied"
      }
      // One made while watching, only in the --netns-dir folder: followed as it appears.
      let second = try await Self.container(online: false)
      defer { second.terminate() }
      try run.bindNamespace(of: second.processIdentifier, to: "/run/nstest-extra/solo")
      try await watch.lines.waitUntil(timeout: .seconds(10), "solo, made while watching") {
        Lines.lines($0, about: "solo").first?["status"] as? String == "unsatisfied"
      }
      #expect(Lines.lines(watch.lines.values, about: "alias").isEmpty, "mounted twice, watched once")
      // The file is written before the line is: it holds both now.
      var text = try #require(folder.contents("all.prom"))
      #expect(text.contains(#"netstatus_path_satisfied{netns="ctr1"} 1"#), "\(text)")
      #expect(text.contains(#"netstatus_path_satisfied{netns="solo"} 0"#), "\(text)")
      #expect(!text.contains(#"netns="alias""#), "\(text)")

      // Docker's name goes, the other stays: the namespace is watched under its other name.
      try run.shell("umount /run/docker/netns/ctr1 && rm /run/docker/netns/ctr1")
      try await watch.lines.waitUntil(timeout: .seconds(10), "ctr1 deleted, alias online") {
        Lines.lines($0, about: "ctr1").last?["deleted"] as? Bool == true
          && Lines.lines($0, about: "alias").last?["status"] as? String == "satisfied"
      }
      text = try #require(folder.contents("all.prom"))
      #expect(!text.contains(#"netns="ctr1""#), "\(text)")
      #expect(text.contains(#"netstatus_path_satisfied{netns="alias"} 1"#), "\(text)")

      // The last name goes: deleted, and its series leave the file.
      try run.shell("umount /run/nstest-extra/alias && rm /run/nstest-extra/alias")
      try await watch.lines.waitUntil(timeout: .seconds(10), "alias deleted") {
        Lines.lines($0, about: "alias").last?["deleted"] as? Bool == true
      }
      text = try #require(folder.contents("all.prom"))
      #expect(!text.contains(#"netns="alias""#), "\(text)")
      #expect(text.contains(#"netns="solo""#), "\(text)")
      watch.signal(SIGTERM)
      #expect(try await watch.waitForExit() == .exited(0), "\(watch.errorOutput)")
    }

    /// `show --all-netns` lists every namespace once, as `lsns -t net` does: one only a process holds (no name,
    /// its PID), and one bind-mounted twice (under its first folder's name, with the PID of the process in it).
    @Test func showListsEveryNamespaceOnceWithAPID() async throws {
      let run = try await PrivateRun()
      defer { run.delete() }
      let held = try await Self.container(online: false)
      defer { held.terminate() }
      let mounted = try await Self.container(online: true)
      defer { mounted.terminate() }
      try run.bindNamespace(of: mounted.processIdentifier, to: "/run/docker/netns/ctr2")
      try run.bindNamespace(of: mounted.processIdentifier, to: "/run/nstest-extra/again")
      let show = try run.netstatus(["show", "--all-netns", "--json", "--netns-dir", "/run/nstest-extra"])
      #expect(try await show.waitForExit() == .exited(0), "\(show.errorOutput)")
      let all = show.lines.values.compactMap(Lines.fields)
      func inode(_ pid: Int32) throws -> Int {
        var info = stat()
        try #require(stat("/proc/\(pid)/ns/net", &info) == 0)
        return Int(info.st_ino)
      }
      let named = all.filter { $0["netns"] as? String == "ctr2" }
      #expect(named.count == 1, "\(show.lines.values)")
      #expect(named.first?["pid"] as? Int == Int(mounted.processIdentifier), "\(named)")
      #expect(named.first?["inode"] as? Int == (try inode(mounted.processIdentifier)), "\(named)")
      #expect(named.first?["status"] as? String == "satisfied", "\(named)")
      #expect(!all.contains { $0["netns"] as? String == "again" }, "mounted twice, listed once")
      let unnamed = all.filter { $0["pid"] as? Int == Int(held.processIdentifier) }
      #expect(unnamed.count == 1, "\(show.lines.values)")
      #expect(unnamed.first?["netns"] == nil, "\(unnamed)")
      #expect(unnamed.first?["inode"] as? Int == (try inode(held.processIdentifier)), "\(unnamed)")
      #expect(unnamed.first?["status"] as? String == "unsatisfied", "\(unnamed)")
    }

    @Test func aMissingNetnsDirIsAnError() async throws {
      let run = try NetstatusProcess(["watch", "--all-netns", "--netns-dir", "/nonexistent-nstest/netns"])
      #expect(try await run.waitForExit() == .exited(2))
      #expect(run.errorOutput.contains("--netns-dir /nonexistent-nstest/netns"), "\(run.errorOutput)")
    }
  }
#endif
