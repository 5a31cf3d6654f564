#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// The static `netstatus` that Packaging/README.md documents for installing (Scripts/build-static.sh), run as one
  /// file on a machine with no Swift runtime: the toolchain's runtime directory is hidden (a mount namespace with an
  /// empty tmpfs over it), and the binary runs inside a fresh network namespace.
  ///
  /// The binary is `NETSTATUS_STATIC_BINARY` when set (.ci/run builds it and sets it: the tests then fail if it is
  /// missing), or else `.build-static/release/netstatus` in the package when it has been built. Without either,
  /// the suite is skipped, with that reason.
  @Suite(
    "static netstatus binary", .serialized,
    .enabled(if: StaticBinary.path != nil, StaticBinary.skipReason),
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct StaticBinaryTests {
    /// What a glibc system always has; anything else (a Swift runtime, Foundation, ICU) is a dependency to install.
    static let systemLibraries: Set<String> = [
      "linux-vdso.so.1", "libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libpthread.so.0",
      "libdl.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
    ]

    @Test func isOneSmallFileThatLoadsOnlySystemLibraries() throws {
      let path = try #require(StaticBinary.path)
      try #require(FileManager.default.isExecutableFile(atPath: path), "NETSTATUS_STATIC_BINARY: \(path) is missing")
      let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      #expect(size <= 16 << 20, "the documented install is at most 16 MiB: \(size) bytes")
      let ldd = try ChildProcess(executable: "/usr/bin/ldd", [path])
      #expect(ldd.waitUntilExit() == .exited(0), "\(ldd.errorOutput)")
      let libraries = ldd.lines.values.compactMap { line in
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { String($0.split(separator: "/").last!) }
      }
      #expect(!libraries.isEmpty, "ldd listed nothing")
      #expect(
        libraries.filter { !Self.systemLibraries.contains($0) } == [], "ldd: \(ldd.lines.values)")
    }

    /// Packaging/README.md states the binary's size in one place ("Installing `netstatus`"), for x86_64; this keeps
    /// the figure within 2% of the file CI builds, so that it cannot drift silently. CI prints the size too (.ci/run).
    @Test func packagingREADMEStatesItsSize() throws {
      let path = try #require(StaticBinary.path)
      let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
      let readme = try String(
        contentsOf: StaticBinary.package.appendingPathComponent("Packaging/README.md"), encoding: .utf8)
      let statements = readme.matches(of: #/The binary is about (\d+\.\d) MB \(x86_64/#)
      try #require(statements.count == 1, "one statement of the size in Packaging/README.md: \(statements.count)")
      let stated = try #require(Double(statements[0].output.1))
      let measured = Double(size) / 1_000_000
      #if arch(x86_64)
        #expect(
          abs(measured - stated) <= stated * 0.02,
          """
          Packaging/README.md says the binary is about \(stated) MB, and it is \(size) bytes: write \
          \((measured * 10).rounded() / 10) MB there
          """)
      #endif
    }

    @Test func runsWithoutTheSwiftRuntimeInAFreshNetworkNamespace() async throws {
      let path = try #require(StaticBinary.path)
      let runtime = try #require(StaticBinary.swiftRuntimeDirectory, "the test process's libswiftCore.so")
      let target = try TestNamespace("static")
      let peer = try TestNamespace("staticp")
      defer {
        target.delete()
        peer.delete()
      }
      try target.ip("link add v0 type veth peer name v1 netns \(peer.name)")
      try target.ip("addr add 198.51.100.2/24 dev v0")
      try peer.ip("link set v1 up")
      try target.ip("link set v0 up")
      try target.ip("route add default via 198.51.100.1 dev v0")

      // The dynamically linked build cannot start there: the runtime is really hidden.
      let dynamic = try StaticBinary.runWithoutRuntime(
        NetstatusProcess.binaryPath, ["--json"], namespace: target, runtime: runtime)
      #expect(dynamic.waitUntilExit() != .exited(0), "the dynamic netstatus ran without its runtime")

      let snapshot = try StaticBinary.runWithoutRuntime(path, ["--json"], namespace: target, runtime: runtime)
      #expect(snapshot.waitUntilExit() == .exited(0), "stderr: \(snapshot.errorOutput)")
      let lines = snapshot.lines.values
      try #require(lines.count == 1, "one JSON object: \(lines) \(snapshot.errorOutput)")
      let shown = try JSONDecoder().decode(NetworkPath.self, from: Data(lines[0].utf8))
      #expect(shown.isConnected)
      #expect(shown.availableInterfaces.map(\.name) == ["v0"])
      #expect(shown.gateways == ["198.51.100.1"])
      #expect(lines[0] == shown.jsonRepresentation)

      let watch = try StaticBinary.runWithoutRuntime(path, ["watch", "--json"], namespace: target, runtime: runtime)
      defer { watch.terminate() }
      try await watch.lines.waitFor(count: 1, timeout: .seconds(30), "the first path")
      try target.ip("route del default")
      try await watch.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the removed route")
      let changed = try JSONDecoder().decode(NetworkPath.self, from: Data(watch.lines.values[1].utf8))
      #expect(!changed.isConnected)
      watch.signal(SIGTERM)
      #expect(try await watch.waitForExit() == .exited(0), "stderr: \(watch.errorOutput)")
    }
  }

  /// Where the static binary is, and how to run a program where the Swift runtime cannot be found.
  enum StaticBinary {
    /// The package's folder.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()

    /// The binary to test, or `nil` (the suite is skipped) when none was named or built.
    static let path: String? = {
      if let named = ProcessInfo.processInfo.environment["NETSTATUS_STATIC_BINARY"] { return named }
      let built = package.appendingPathComponent(".build-static/release/netstatus").path
      return FileManager.default.isExecutableFile(atPath: built) ? built : nil
    }()

    static let skipReason: Comment =
      "no static netstatus: build it with Scripts/build-static.sh, or name it in NETSTATUS_STATIC_BINARY (.ci/run does)"

    /// The directory of the libswiftCore.so this test process runs with: the runtime a dynamic netstatus needs.
    static let swiftRuntimeDirectory: String? = {
      // Read to the end: /proc files have no size for String(contentsOfFile:) to go by.
      guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
        let data = try? handle.readToEnd()
      else { return nil }
      let maps = String(decoding: data, as: UTF8.self)
      for line in maps.split(separator: "\n") {
        guard let start = line.firstIndex(of: "/"), line.hasSuffix("/libswiftCore.so") else { continue }
        return URL(fileURLWithPath: String(line[start...])).deletingLastPathComponent().path
      }
      return nil
    }()

    /// Runs `executable` with `arguments` inside `namespace`, in a mount namespace of its own where `runtime` is an
    /// empty tmpfs.
    static func runWithoutRuntime(
      _ executable: String, _ arguments: [String], namespace: TestNamespace, runtime: String
    ) throws -> ChildProcess {
      guard let ip = KernelTestSupport.ipPath else {
        throw KernelTestSupport.CommandFailed(arguments: [], status: -1, output: "ip not found")
      }
      // unshare --mount makes the mounts private to the child by default (--propagation private).
      let script = #"mount -t tmpfs nstest-no-runtime "$1" && shift && exec "$@""#
      return try ChildProcess(
        executable: "/usr/bin/unshare",
        ["--mount", "/bin/sh", "-c", script, "sh", runtime, ip, "netns", "exec", namespace.name, executable]
          + arguments)
    }
  }
#endif
