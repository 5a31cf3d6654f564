#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCLI

  /// Scripts/install.sh and Scripts/build-deb.sh put the binary, the manual page and the completions where a
  /// system tool's go, with completions that are the binary's own. They are given the binary built beside the
  /// tests (NETSTATUS_BINARY), so they build nothing here, except the lintian check, which packages the static binary
  /// (StaticBinary.path) that is installed; CI also installs that package with apt-get (.ci/run).
  @Suite("install script and Debian package")
  struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()

    /// The systemd units, in Packaging/systemd and installed.
    static let units = ["netstatus-wait-online", "netstatus-textfile", "netstatus-netns-textfile"]

    /// The files Scripts/install.sh installs under PREFIX.
    static func installedFiles(prefix: String) -> [String] {
      let zsh = prefix == "/usr" ? "vendor-completions" : "site-functions"
      return [
        "bin/netstatus", "share/man/man1/netstatus.1", "share/bash-completion/completions/netstatus",
        "share/zsh/\(zsh)/_netstatus", "share/fish/vendor_completions.d/netstatus.fish",
      ] + units.map { "lib/systemd/system/\($0).service" }
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
      // Each unit runs the binary installed with it, and is otherwise Packaging/systemd's.
      for unit in Self.units {
        let installed = try String(contentsOfFile: root + "/lib/systemd/system/\(unit).service", encoding: .utf8)
        let packaged = try String(
          contentsOf: Self.repository.appendingPathComponent("Packaging/systemd/\(unit).service"), encoding: .utf8)
        let exec = installed.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        #expect(exec.count == 1 && exec[0].hasPrefix("ExecStart=\(prefix)/bin/netstatus "), "\(unit): \(exec)")
        #expect(
          installed
            == packaged.replacingOccurrences(
              of: "ExecStart=/usr/bin/netstatus ", with: "ExecStart=\(prefix)/bin/netstatus "))
      }
      // Where systemd does not look, the install says how to use a unit.
      let linked = install.errorOutput.contains("systemctl link \(prefix)/lib/systemd/system/NAME.service")
      #expect(linked == !["/usr", "/usr/local"].contains(prefix), "\(install.errorOutput)")
    }

    /// Run as root without a binary named, the script builds nothing (a root-owned build in the user's checkout,
    /// and swift perhaps not on root's PATH): it installs `.build-static/release/netstatus`, and says what to run
    /// when there is none or it is older than the sources. In a copy of the repository's scripts, packaging files and
    /// sources, so that the checkout's own build is not touched.
    @Test(.enabled(if: getuid() == 0, "run as root"))
    func asRootItInstallsWhatTheUserBuiltAndBuildsNothing() async throws {
      let checkout = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: checkout) }
      for item in ["Scripts", "Packaging", "man", "Sources", "Package.swift"] {
        try FileManager.default.copyItem(
          atPath: Self.repository.appendingPathComponent(item).path, toPath: checkout + "/" + item)
      }
      let destination = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: destination) }
      func install() throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["PREFIX"] = nil
        environment["NETSTATUS_BINARY"] = nil
        environment["DESTDIR"] = destination
        return try ChildProcess(executable: "/bin/bash", [checkout + "/Scripts/install.sh"], environment: environment)
      }
      let missing = try install()
      #expect(try await missing.waitForExit(timeout: .seconds(60)) == .exited(2))
      #expect(
        missing.errorOutput
          == "install.sh: no .build-static/release/netstatus to install: build it as yourself first"
          + " (Scripts/build-static.sh), then run sudo Scripts/install.sh\n")
      #expect(!FileManager.default.fileExists(atPath: checkout + "/.build-static/release"), "nothing was built")
      // An older build than the sources: refused.
      try FileManager.default.createDirectory(
        atPath: checkout + "/.build-static/release", withIntermediateDirectories: true)
      let built = checkout + "/.build-static/release/netstatus"
      try FileManager.default.copyItem(atPath: NetstatusProcess.binaryPath, toPath: built)
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: built)
      let stale = try install()
      #expect(try await stale.waitForExit(timeout: .seconds(60)) == .exited(2))
      #expect(stale.errorOutput.contains("is older than"), "\(stale.errorOutput)")
      // Built after the sources: installed.
      try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: built)
      let fresh = try install()
      #expect(try await fresh.waitForExit(timeout: .seconds(60)) == .exited(0), "\(fresh.errorOutput)")
      #expect(FileManager.default.isExecutableFile(atPath: destination + "/usr/local/bin/netstatus"))
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

    /// `dpkg-deb`, or `nil` when it is missing outside CI (the tests that need it then pass without checking).
    static func dpkgDeb() throws -> String? {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb") else {
        try #require(ProcessInfo.processInfo.environment["CI"] == nil, "dpkg-deb is missing")
        return nil
      }
      return "/usr/bin/dpkg-deb"
    }

    /// Builds the package into `output`; returns its path.
    static func buildPackage(into output: String, binary: String = NetstatusProcess.binaryPath) async throws
      -> String
    {
      let build = try await Self.run("Scripts/build-deb.sh", [output], environment: ["NETSTATUS_BINARY": binary])
      return try #require(build.lines.values.last)
    }

    @Test func buildsADebianPackageWithTheUnitItsOptionsAndItsScripts() async throws {
      guard let dpkgDeb = try Self.dpkgDeb() else { return }
      let output = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: output) }
      let package = try await Self.buildPackage(into: output)
      #expect(package.hasPrefix(output + "/netstatus_0.1.0-1_") && package.hasSuffix(".deb"), "\(package)")
      let listing = try await Self.succeed(dpkgDeb, ["--contents", package]).joined(separator: "\n")
      for file in [
        "./usr/bin/netstatus", "./usr/share/man/man1/netstatus.1.gz",
        "./usr/share/bash-completion/completions/netstatus", "./usr/share/zsh/vendor-completions/_netstatus",
        "./usr/share/fish/vendor_completions.d/netstatus.fish",
        "./usr/lib/systemd/system/netstatus-wait-online.service",
        "./usr/lib/systemd/system/netstatus-textfile.service",
        "./usr/lib/systemd/system/netstatus-netns-textfile.service", "./etc/default/netstatus-wait-online",
        "./usr/share/doc/netstatus/copyright", "./usr/share/doc/netstatus/changelog.Debian.gz",
        "./usr/share/lintian/overrides/netstatus",
      ] {
        #expect(listing.contains(file), "\(file) is missing from the package")
      }
      let fields = try await Self.succeed(dpkgDeb, ["--field", package, "Package", "Version"])
      #expect(fields == ["Package: netstatus", "Version: 0.1.0-1"])
      #expect(
        try await Self.succeed(dpkgDeb, ["--info", package, "conffiles"]) == ["/etc/default/netstatus-wait-online"])
      let control = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: control) }
      try await Self.succeed(dpkgDeb, ["--control", package, control + "/DEBIAN"])
      for script in ["postinst", "postrm"] {
        #expect(FileManager.default.isExecutableFile(atPath: control + "/DEBIAN/" + script), "\(script)")
      }
      // The changelog's entry is the package's version, and it unpacks as Debian's tools read it.
      let unpacked = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: unpacked) }
      try await Self.succeed(dpkgDeb, ["--extract", package, unpacked])
      let changelog = try await Self.succeed(
        "/bin/gzip", ["-dc", unpacked + "/usr/share/doc/netstatus/changelog.Debian.gz"])
      #expect(changelog.first == "netstatus (0.1.0-1) unstable; urgency=medium", "\(changelog)")
      // The unit reads the conffile, and the conffile sets what the unit's command uses.
      let unit = try String(
        contentsOfFile: unpacked + "/usr/lib/systemd/system/netstatus-wait-online.service", encoding: .utf8)
      #expect(unit.contains("\nEnvironmentFile=-/etc/default/netstatus-wait-online\n"))
      let options = try String(contentsOfFile: unpacked + "/etc/default/netstatus-wait-online", encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
      #expect(options == ["NETSTATUS_WAIT_TIMEOUT=120s", "NETSTATUS_WAIT_ARGS="])
      for variable in ["${NETSTATUS_WAIT_TIMEOUT}", "$NETSTATUS_WAIT_ARGS"] {
        #expect(unit.contains(variable), "the unit's ExecStart uses \(variable)")
      }
      // Ordered as Debian's systemd-networkd-wait-online.service: early, stopped at shutdown, after the services
      // that configure the network, before network-online.target, which it provides once enabled.
      let settings = Dictionary(
        unit.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("=") }.map { line in
          let parts = line.split(separator: "=", maxSplits: 1)
          return (String(parts[0]), String(parts[1]))
        }, uniquingKeysWith: { $0 + " " + $1 })
      #expect(settings["DefaultDependencies"] == "no")
      #expect(settings["Conflicts"] == "shutdown.target")
      #expect(settings["Before"] == "network-online.target shutdown.target")
      #expect(
        settings["After"] == "network.target systemd-networkd.service NetworkManager.service networking.service")
      #expect(settings["WantedBy"] == "network-online.target")
      #expect(settings["Wants"] == nil && settings["Requires"] == nil && settings["BindsTo"] == nil, "pulls nothing in")
    }

    /// A changelog whose first entry is not the binary's version stops the build, saying so.
    @Test func aChangelogBehindTheBinaryStopsTheBuild() async throws {
      guard try Self.dpkgDeb() != nil else { return }
      let folder = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      // A binary that says it is 0.2.0, for the script's `--version`.
      let binary = folder + "/netstatus"
      try "#!/bin/sh\necho 'netstatus 0.2.0'\n".write(toFile: binary, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
      let build = try Self.start("Scripts/build-deb.sh", [folder + "/out"], environment: ["NETSTATUS_BINARY": binary])
      #expect(try await build.waitForExit(timeout: .seconds(60)) == .exited(1))
      #expect(build.errorOutput.contains("first entry is '0.1.0-1', but the binary is 0.2.0"), "\(build.errorOutput)")
      #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    /// dpkg installs, reinstalls, removes and purges the package in a root of its own (`dpkg --root`, the
    /// maintainer scripts run outside a chroot with DPKG_ROOT set): the administrator's change to the conffile
    /// survives a reinstall and a removal, and purging deletes it and the link `systemctl enable` made.
    @Test func dpkgKeepsTheConffileAndPurgeRemovesIt() async throws {
      guard try Self.dpkgDeb() != nil else { return }
      guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg") else {
        try #require(ProcessInfo.processInfo.environment["CI"] == nil, "dpkg --root needs root")
        return
      }
      let output = try Self.temporaryFolder()
      let root = try Self.temporaryFolder()
      defer {
        try? FileManager.default.removeItem(atPath: output)
        try? FileManager.default.removeItem(atPath: root)
      }
      let package = try await Self.buildPackage(into: output)
      for folder in ["var/lib/dpkg/info", "var/lib/dpkg/updates"] {
        try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
      }
      try #require(FileManager.default.createFile(atPath: root + "/var/lib/dpkg/status", contents: nil))
      // The root has no libc6 package to satisfy Depends, nor a shell to chroot into.
      func dpkg(_ arguments: [String]) async throws {
        try await Self.succeed(
          "/usr/bin/dpkg",
          ["--root=\(root)", "--force-depends", "--force-script-chrootless", "--force-confold"] + arguments)
      }
      let conffile = root + "/etc/default/netstatus-wait-online"
      let link = root + "/etc/systemd/system/network-online.target.wants/netstatus-wait-online.service"

      try await dpkg(["--install", package])
      #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/bin/netstatus"))
      #expect(FileManager.default.fileExists(atPath: root + "/usr/lib/systemd/system/netstatus-wait-online.service"))
      // systemd loads the installed unit there without a complaint (an unknown key is only a message).
      if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
        let verify = try ChildProcess(
          executable: "/usr/bin/systemd-analyze",
          ["verify", "--root=\(root)", "--man=no", "netstatus-wait-online.service"])
        #expect(try await verify.waitForExit(timeout: .seconds(60)) == .exited(0), "\(verify.errorOutput)")
        #expect(verify.errorOutput == "", "systemd-analyze verify: \(verify.errorOutput)")
      }
      let changed = "NETSTATUS_WAIT_TIMEOUT=5min\nNETSTATUS_WAIT_ARGS=--ipv4\n"
      try changed.write(toFile: conffile, atomically: false, encoding: .utf8)
      try FileManager.default.createDirectory(
        atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: link, withDestinationPath: "/usr/lib/systemd/system/netstatus-wait-online.service")

      try await dpkg(["--install", package])
      #expect(try String(contentsOfFile: conffile, encoding: .utf8) == changed, "a reinstall keeps the change")

      try await dpkg(["--remove", "netstatus"])
      #expect(!FileManager.default.fileExists(atPath: root + "/usr/bin/netstatus"))
      #expect(try String(contentsOfFile: conffile, encoding: .utf8) == changed, "a removal keeps the conffile")
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil, "and the enabled link")

      try await dpkg(["--purge", "netstatus"])
      #expect(!FileManager.default.fileExists(atPath: conffile), "purge deletes the conffile")
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil, "and the enabled link")
    }

    /// The maintainer scripts reload a running systemd (`/run/systemd/system` exists) after an install or a
    /// removal, and call nothing otherwise. Each runs in a mount namespace of its own with a tmpfs over /run, and
    /// finds a stand-in `systemctl` first on its PATH that records its arguments.
    @Test(arguments: [
      ("postinst", ["configure", ""], true), ("postinst", ["configure", ""], false),
      ("postrm", ["remove"], true), ("postrm", ["purge"], true), ("postrm", ["remove"], false),
    ])
    func theMaintainerScriptsReloadARunningSystemd(script: String, arguments: [String], running: Bool) async throws {
      guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
        try #require(ProcessInfo.processInfo.environment["CI"] == nil, "unshare --mount needs root")
        return
      }
      let folder = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let record = folder + "/systemctl-calls"
      try "#!/bin/sh\necho \"$*\" >>'\(record)'\n".write(
        toFile: folder + "/systemctl", atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/systemctl")
      let path = Self.repository.appendingPathComponent("Packaging/debian/" + script).path
      let setUp =
        #"mount -t tmpfs nstest-run /run && { [ "$1" = no ] || mkdir -p /run/systemd/system; } && shift && exec "$@""#
      try await Self.succeed(
        "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", setUp, "sh", running ? "yes" : "no", path] + arguments,
        environment: ["PATH": folder + ":/usr/bin:/bin"])
      let calls = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
      #expect(calls == (running ? "--system daemon-reload\n" : ""), "\(script) \(arguments)")
    }

    /// The package of the static binary, as CI installs it, has nothing lintian reports as an error or a warning
    /// (what lintian cannot apply to a static Swift binary is overridden in the package, with the reason:
    /// Packaging/debian/lintian-overrides).
    @Test(.enabled(if: StaticBinary.path != nil, StaticBinary.skipReason))
    func thePackageOfTheStaticBinaryIsLintianClean() async throws {
      guard try Self.dpkgDeb() != nil else { return }
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian") else {
        try #require(
          ProcessInfo.processInfo.environment["NETSTATUS_STATIC_BINARY"] == nil,
          "lintian is missing (.ci/run installs it)")
        return
      }
      let output = try Self.temporaryFolder()
      defer { try? FileManager.default.removeItem(atPath: output) }
      let package = try await Self.buildPackage(into: output, binary: try #require(StaticBinary.path))
      let lintian = try ChildProcess(
        executable: "/usr/bin/lintian", ["--fail-on", "error,warning", "--no-tag-display-limit", package])
      let exit = try await lintian.waitForExit(timeout: .seconds(300))
      #expect(exit == .exited(0), "lintian: \(lintian.lines.values) \(lintian.errorOutput)")
      let reported = lintian.lines.values.filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
      #expect(reported == [], "lintian: \(reported)")
    }
  }
#endif
