#if os(Linux)
  import Foundation
  import Glibc
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  /// systemd-networkd's state is read only while networkd runs (`Sources/NetStatusNetworkManager/Linux/
  /// NetworkdProcess.swift`): `/run/systemd/netif` outlives it, and its package makes it where it never ran. Before,
  /// `show --all` reported networkd "active" from such a folder, and its stale states were used.
  @Suite("systemd-networkd's state only while it runs")
  struct NetworkdProcessTests {
    @Test("a command line is networkd's by its first argument's name")
    func commandLines() {
      func line(_ arguments: [String]) -> [UInt8] { arguments.flatMap { Array($0.utf8) + [0] } }
      #expect(NetworkdProcess.isNetworkd(commandLine: line(["/lib/systemd/systemd-networkd"])))
      #expect(NetworkdProcess.isNetworkd(commandLine: line(["systemd-networkd", "--debug"])))
      #expect(!NetworkdProcess.isNetworkd(commandLine: line(["/lib/systemd/systemd-networkd-wait-online"])))
      #expect(!NetworkdProcess.isNetworkd(commandLine: line(["/usr/bin/vim", "systemd-networkd"])))
      #expect(!NetworkdProcess.isNetworkd(commandLine: []))
    }

    @Test("systemd's record of the running unit, or a networkd process in /proc")
    func running() throws {
      let root = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-networkd-\(UUID())").path
      try FileManager.default.createDirectory(atPath: root + "/units", withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: root + "/proc/42", withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: root + "/proc/self", withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: root) }
      func running() -> Bool { NetworkdProcess.isRunning(unitsFolder: root + "/units", proc: root + "/proc") }
      try Data("/usr/sbin/sshd\0-D\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/42/cmdline"))
      try Data("/lib/systemd/systemd-networkd\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/self/cmdline"))
      #expect(!running(), "only numbered folders are processes")
      // The invocation record is a symbolic link to the unit's invocation ID: dangling, and enough.
      try FileManager.default.createSymbolicLink(
        atPath: root + "/units/" + NetworkdProcess.invocationName, withDestinationPath: "0123456789abcdef")
      #expect(running())
      try FileManager.default.removeItem(atPath: root + "/units/" + NetworkdProcess.invocationName)
      try FileManager.default.createDirectory(atPath: root + "/proc/77", withIntermediateDirectories: true)
      try Data("/lib/systemd/systemd-networkd\0".utf8).write(to: URL(fileURLWithPath: root + "/proc/77/cmdline"))
      #expect(running(), "namespaces that cannot be read: any networkd counts")
      // Namespaces that can be read (files standing for nsfs inodes): only a networkd in the own one counts, one in a
      // container's or a test's namespace manages other links.
      for folder in ["self", "77"] {
        try FileManager.default.createDirectory(atPath: root + "/proc/\(folder)/ns", withIntermediateDirectories: true)
      }
      try Data().write(to: URL(fileURLWithPath: root + "/own"))
      try Data().write(to: URL(fileURLWithPath: root + "/other"))
      try FileManager.default.createSymbolicLink(atPath: root + "/proc/self/ns/net", withDestinationPath: root + "/own")
      try FileManager.default.createSymbolicLink(atPath: root + "/proc/77/ns/net", withDestinationPath: root + "/other")
      #expect(!running(), "networkd in another namespace")
      try FileManager.default.removeItem(atPath: root + "/proc/77/ns/net")
      try FileManager.default.createSymbolicLink(atPath: root + "/proc/77/ns/net", withDestinationPath: root + "/own")
      #expect(running())
      #expect(!NetworkdProcess.runsInOwnNamespaces(proc: root + "/proc"), "the mount namespace is not known")
      try FileManager.default.createSymbolicLink(atPath: root + "/proc/self/ns/mnt", withDestinationPath: root + "/own")
      try FileManager.default.createSymbolicLink(atPath: root + "/proc/77/ns/mnt", withDestinationPath: root + "/own")
      #expect(NetworkdProcess.runsInOwnNamespaces(proc: root + "/proc"))
    }

    /// `/run/systemd` of the test's own (a tmpfs in a private mount namespace), with networkd's folder and a state
    /// file for loopback, as a stopped networkd leaves them. Skipped where a real networkd runs: its process would be
    /// found.
    @Test(
      "show --all: not running from a folder left behind; active with the unit's record or the process",
      .enabled(if: !NetworkdProcess.isRunning(), "systemd-networkd runs on this machine"),
      .enabled(if: getuid() == 0, "needs root for a mount namespace"))
    func showAll() async throws {
      let holder = try ChildProcess(
        executable: "/usr/bin/unshare",
        [
          "--mount", "--propagation", "private", "sh", "-c",
          "mkdir -p /run/systemd && mount -t tmpfs nstest /run/systemd && mkdir -p /run/systemd/netif/links"
            + " && printf 'ADMIN_STATE=configured\\nOPER_STATE=carrier\\n' > /run/systemd/netif/links/1"
            + " && echo ready && exec sleep 600",
        ])
      defer { holder.terminate() }
      try await holder.lines.waitFor(count: 1, "the private /run/systemd")
      let mount = "--mount=/proc/\(holder.processIdentifier)/ns/mnt"
      func networkdLine() async throws -> String {
        let show = try NetstatusProcess(
          executable: "/usr/bin/nsenter", [mount, "--", NetstatusProcess.binaryPath, "show", "--all"])
        #expect(try await show.waitForExit() == .exited(0), "\(show.errorOutput)")
        return show.lines.values.first { $0.contains("systemd-networkd (") } ?? "(no networkd line)"
      }
      let stale = try await networkdLine()
      #expect(stale.contains("unavailable: systemd-networkd is not running"), "\(stale)")
      // systemd's record of the running unit.
      let record = try ChildProcess(
        executable: "/usr/bin/nsenter",
        [
          mount, "--", "sh", "-c",
          "mkdir -p /run/systemd/units && ln -s abc '/run/systemd/units/\(NetworkdProcess.invocationName)'",
        ])
      #expect(record.waitUntilExit() == .exited(0), "\(record.errorOutput)")
      let recorded = try await networkdLine()
      #expect(recorded.hasSuffix(": active"), "\(recorded)")
      let unrecord = try ChildProcess(
        executable: "/usr/bin/nsenter", [mount, "--", "rm", "/run/systemd/units/\(NetworkdProcess.invocationName)"])
      #expect(unrecord.waitUntilExit() == .exited(0))
      // A process named systemd-networkd (networkd without systemd as PID 1).
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-nd-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: folder + "/systemd-networkd")
      let networkd = try ChildProcess(executable: folder + "/systemd-networkd", ["600"])
      defer { networkd.terminate() }
      let running = try await networkdLine()
      #expect(running.hasSuffix(": active"), "\(running)")
    }
  }
#endif
