#if os(Linux)
  import Foundation
  import Testing

  @testable import NetStatusCLI

  /// Scripts/install.sh and Scripts/build-deb.sh put the binary, the manual page and the completions where a
  /// system tool's go, with completions that are the binary's own. They are given the binary built beside the
  /// tests (NETSTATUS_BINARY), so they build nothing here; CI builds the package from the static binary and installs
  /// it with apt-get (.ci/run).
  @Suite("install script and Debian package")
  struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()

    static func run(_ script: String, _ arguments: [String], environment extra: [String: String]) async throws
      -> ChildProcess
    {
      var environment = ProcessInfo.processInfo.environment
      environment["NETSTATUS_BINARY"] = NetstatusProcess.binaryPath
      for (key, value) in extra { environment[key] = value }
      let child = try ChildProcess(
        executable: "/bin/bash", [Self.repository.appendingPathComponent(script).path] + arguments,
        environment: environment)
      #expect(try await child.waitForExit(timeout: .seconds(60)) == .exited(0), "\(script): \(child.errorOutput)")
      return child
    }

    static func temporaryFolder() throws -> String {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-install-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      return folder
    }

    @Test(arguments: ["/usr/local", "/usr"])
    func installsTheBinaryManualAndCompletions(prefix: String) async throws {
      let destination = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: destination) }
      _ = try await Self.run("Scripts/install.sh", [prefix], environment: ["DESTDIR": destination])
      let root = destination + prefix
      let zsh = prefix == "/usr" ? "vendor-completions" : "site-functions"
      let files = [
        "bin/netstatus", "share/man/man1/netstatus.1", "share/bash-completion/completions/netstatus",
        "share/zsh/\(zsh)/_netstatus", "share/fish/vendor_completions.d/netstatus.fish",
      ]
      for file in files { #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)") }
      #expect(FileManager.default.isExecutableFile(atPath: root + "/bin/netstatus"))
      let bash = try String(contentsOfFile: root + "/share/bash-completion/completions/netstatus", encoding: .utf8)
      #expect(bash == Completions.script(for: .bash) + "\n", "the completions are the binary's own")
    }

    @Test func aRelativePrefixIsRefused() async throws {
      let child = try ChildProcess(
        executable: "/bin/bash", [Self.repository.appendingPathComponent("Scripts/install.sh").path, "usr"],
        environment: ["NETSTATUS_BINARY": NetstatusProcess.binaryPath, "PATH": "/usr/bin:/bin"])
      #expect(try await child.waitForExit(timeout: .seconds(60)) == .exited(2))
      #expect(child.errorOutput.contains("PREFIX must be an absolute path"), "\(child.errorOutput)")
    }

    @Test func buildsADebianPackageWithTheUnit() async throws {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb") else {
        try #require(ProcessInfo.processInfo.environment["CI"] == nil, "dpkg-deb is missing")
        return
      }
      let output = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: output) }
      let build = try await Self.run("Scripts/build-deb.sh", [output], environment: [:])
      let package = try #require(build.lines.values.last)
      #expect(package.hasPrefix(output + "/netstatus_0.1.0_") && package.hasSuffix(".deb"), "\(package)")
      let contents = try ChildProcess(executable: "/usr/bin/dpkg-deb", ["--contents", package])
      #expect(try await contents.waitForExit() == .exited(0))
      let listing = contents.lines.values.joined(separator: "\n")
      for file in [
        "./usr/bin/netstatus", "./usr/share/man/man1/netstatus.1.gz",
        "./usr/share/bash-completion/completions/netstatus", "./usr/share/zsh/vendor-completions/_netstatus",
        "./usr/share/fish/vendor_completions.d/netstatus.fish",
        "./usr/lib/systemd/system/netstatus-wait-online.service", "./usr/share/doc/netstatus/copyright",
      ] {
        #expect(listing.contains(file), "\(file) is missing from the package")
      }
      let control = try ChildProcess(executable: "/usr/bin/dpkg-deb", ["--field", package, "Package", "Depends"])
      #expect(try await control.waitForExit() == .exited(0))
      #expect(control.lines.values.contains("Package: netstatus"), "\(control.lines.values)")
    }
  }
#endif
