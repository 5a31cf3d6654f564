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

    /// The files Scripts/install.sh installs under PREFIX.
    static func installedFiles(prefix: String) -> [String] {
      let zsh = prefix == "/usr" ? "vendor-completions" : "site-functions"
      return [
        "bin/netstatus", "share/man/man1/netstatus.1", "share/bash-completion/completions/netstatus",
        "share/zsh/\(zsh)/_netstatus", "share/fish/vendor_completions.d/netstatus.fish",
      ]
    }

    /// Runs `script` with the test process's environment, less any PREFIX (the tests say whether there is one),
    /// plus `extra`.
    static func start(_ script: String, _ arguments: [String], environment extra: [String: String]) throws
      -> ChildProcess
    {
      var environment = ProcessInfo.processInfo.environment
      environment["PREFIX"] = nil
      environment["NETSTATUS_BINARY"] = NetstatusProcess.binaryPath
      for (key, value) in extra { environment[key] = value }
      return try ChildProcess(
        executable: "/bin/bash", [Self.repository.appendingPathComponent(script).path] + arguments,
        environment: environment)
    }

    static func run(_ script: String, _ arguments: [String], environment extra: [String: String]) async throws
      -> ChildProcess
    {
      let child = try start(script, arguments, environment: extra)
      #expect(try await child.waitForExit(timeout: .seconds(60)) == .exited(0), "\(script): \(child.errorOutput)")
      return child
    }

    /// Runs `executable`, expecting it to succeed; returns its standard output's lines.
    @discardableResult
    static func succeed(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
      async throws -> [String]
    {
      let child = try ChildProcess(executable: executable, arguments, environment: environment)
      let exit = try await child.waitForExit(timeout: .seconds(120))
      #expect(exit == .exited(0), "\(executable) \(arguments.joined(separator: " ")): \(child.errorOutput)")
      return child.lines.values
    }

    static func temporaryFolder() throws -> String {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-install-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      return folder
    }

    /// Every regular file under `folder`, relative to it, sorted.
    static func files(under folder: String) -> [String] {
      let enumerator = FileManager.default.enumerator(atPath: folder)
      var files: [String] = []
      while let path = enumerator?.nextObject() as? String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
          files.append(path)
        }
      }
      return files.sorted()
    }

    /// How the install is given its PREFIX.
    enum PrefixGiven: CaseIterable, Sendable {
      /// `Scripts/install.sh PREFIX`
      case argument
      /// `PREFIX=… Scripts/install.sh`, as in `sudo PREFIX=/opt/x Scripts/install.sh`
      case environment
      /// `PREFIX=… Scripts/install.sh PREFIX`, the same folder both ways
      case both
    }

    @Test(arguments: ["/usr/local", "/usr", "/opt/netstatus"], PrefixGiven.allCases)
    func installsTheBinaryManualAndCompletions(prefix: String, given: PrefixGiven) async throws {
      let destination = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: destination) }
      let install = try await Self.run(
        "Scripts/install.sh", given == .environment ? [] : [prefix],
        environment: given == .argument ? ["DESTDIR": destination] : ["DESTDIR": destination, "PREFIX": prefix])
      let root = destination + prefix
      #expect(install.lines.values == ["installed netstatus under \(root)"])
      // Exactly these files, and nothing anywhere else (not /usr/local when PREFIX said otherwise).
      let expected = Self.installedFiles(prefix: prefix).map { String(prefix.dropFirst()) + "/" + $0 }
      #expect(Self.files(under: destination) == expected.sorted())
      #expect(FileManager.default.isExecutableFile(atPath: root + "/bin/netstatus"))
      let bash = try String(contentsOfFile: root + "/share/bash-completion/completions/netstatus", encoding: .utf8)
      #expect(bash == Completions.script(for: .bash) + "\n", "the completions are the binary's own")
    }

    @Test func withNeitherTheArgumentNorTheVariableThePrefixIsUsrLocal() async throws {
      let destination = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: destination) }
      _ = try await Self.run("Scripts/install.sh", [], environment: ["DESTDIR": destination])
      #expect(
        Self.files(under: destination)
          == Self.installedFiles(prefix: "/usr/local").map { "usr/local/" + $0 }.sorted())
    }

    /// Refusals: exit 2, the reason on standard error, and nothing installed.
    @Test(
      arguments: [
        (["usr"], nil, "PREFIX must be an absolute path, not 'usr'"),
        ([], "opt/x", "PREFIX must be an absolute path, not 'opt/x'"),
        (
          ["/usr"], "/opt/x",
          "the argument '/usr' and the environment's PREFIX '/opt/x' differ; give one of them"
        ),
        (["/usr", "/opt/x"], nil, "one argument at most (PREFIX), not 2"),
      ] as [([String], String?, String)])
    func aPrefixThatCannotBeMeantIsRefused(arguments: [String], variable: String?, message: String) async throws {
      let destination = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: destination) }
      var environment = ["DESTDIR": destination]
      environment["PREFIX"] = variable
      let child = try Self.start("Scripts/install.sh", arguments, environment: environment)
      #expect(try await child.waitForExit(timeout: .seconds(60)) == .exited(2))
      #expect(child.errorOutput == "install.sh: \(message)\n")
      #expect(Self.files(under: destination) == [])
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
