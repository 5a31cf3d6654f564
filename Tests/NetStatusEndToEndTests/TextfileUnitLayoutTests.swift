#if os(Linux)
  import Foundation
  import Glibc
  import NetStatusLinuxTestSupport
  import Testing

  /// The textfile units' capabilities against the textfile folders Packaging/README.md documents: netstatus run as
  /// the unit runs it (root, with the unit's `CapabilityBoundingSet=` and nothing else, through `setpriv`) writes its
  /// file in a folder owned by root, and in one owned by another user with mode 0755 (upstream node_exporter's
  /// `/var/lib/node_exporter/textfile_collector`). Without `CAP_DAC_OVERRIDE`, the second failed with EACCES and the
  /// unit restarted every 5 s.
  @Suite(
    "textfile units and folder layouts", .serialized,
    .enabled(if: getuid() == 0, "run as root, as the units are"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv (util-linux)"))
  struct TextfileUnitLayoutTests {
    /// A unit's `CapabilityBoundingSet=`, in setpriv's words: `-all,+dac_override,…`.
    static func boundingSet(of unit: String) throws -> String {
      let text = try String(
        contentsOf: InstallScriptTests.repository.appendingPathComponent("Packaging/systemd/\(unit).service"),
        encoding: .utf8)
      let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("CapabilityBoundingSet=") })
      let capabilities = line.dropFirst("CapabilityBoundingSet=".count).split(separator: " ").map {
        "+" + $0.lowercased().replacingOccurrences(of: "cap_", with: "")
      }
      return (["-all"] + capabilities).joined(separator: ",")
    }

    /// A layout: the folder's owner and mode.
    struct Layout: CustomTestStringConvertible, Sendable {
      var owner: uid_t
      var mode: mode_t
      var testDescription: String { "a folder owned by uid \(owner), mode \(String(mode, radix: 8))" }
    }

    static let layouts = [
      Layout(owner: 0, mode: 0o755),  // Debian's prometheus-node-exporter folder, as root makes it
      Layout(owner: 65534, mode: 0o755),  // upstream's: the node_exporter user's
    ]

    @Test(
      "each unit's capabilities write each documented layout",
      arguments: [
        ("netstatus-textfile", ["watch"]), ("netstatus-netns-textfile", ["watch", "--all-netns"]),
      ], layouts)
    func unitWritesLayout(unit: (name: String, command: [String]), layout: Layout) async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-layout-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      #expect(chown(folder, layout.owner, layout.owner) == 0 && chmod(folder, layout.mode) == 0)
      let file = folder + "/netstatus.prom"
      let run = try NetstatusProcess(
        executable: "/usr/bin/setpriv",
        [
          "--bounding-set", try Self.boundingSet(of: unit.name), "--inh-caps", "-all", "--",
          NetstatusProcess.binaryPath,
        ]
          + unit.command + ["--textfile", file])
      defer { run.terminate() }
      let deadline = ContinuousClock.now + .seconds(20)
      while !FileManager.default.fileExists(atPath: file), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(
        FileManager.default.fileExists(atPath: file), "\(unit.name) in \(layout.testDescription): \(run.errorOutput)")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }
  }
#endif
