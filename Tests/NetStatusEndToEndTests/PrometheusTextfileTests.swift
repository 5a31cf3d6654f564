#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCLI
  @testable import NetStatusCore

  /// `watch --textfile`: the Prometheus text format, read back with the official Python client's parser
  /// (`prometheus-client` from PyPI; .ci/run installs it and names its folder in NETSTATUS_PYTHONPATH).
  @Suite("Prometheus textfile")
  struct PrometheusTextfileTests {
    @Test func rendersEveryMetricWithItsHelpTypeAndLabels() {
      let path = NetworkPath(
        status: .satisfied,
        availableInterfaces: [
          NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet),
          NetworkInterface(name: "wlan0", index: 3, type: .wifi),
        ], supportsIPv4: true, supportsDNS: true)
      let text = PrometheusTextfile.render(
        .init(path: path, connectivity: .portal(redirect: "http://x/"), changes: 3, lastChange: 1_764_540_000.25),
        netns: #"odd"name"#, stamp: .init(name: "net.prom", started: 1_764_539_000, written: 1_764_540_001.5))
      let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
      #expect(
        samples == [
          #"netstatus_path_satisfied{netns="odd\"name"} 1"#,
          #"netstatus_path_family_supported{netns="odd\"name",family="ipv4"} 1"#,
          #"netstatus_path_family_supported{netns="odd\"name",family="ipv6"} 0"#,
          #"netstatus_path_dns_supported{netns="odd\"name"} 1"#,
          #"netstatus_path_expensive{netns="odd\"name"} 0"#,
          #"netstatus_path_constrained{netns="odd\"name"} 0"#,
          #"netstatus_path_ultra_constrained{netns="odd\"name"} 0"#,
          #"netstatus_path_link_quality{netns="odd\"name"} 0"#,
          #"netstatus_path_interface_info{netns="odd\"name",interface="eth0",type="wiredEthernet"} 1"#,
          #"netstatus_path_available_interfaces{netns="odd\"name"} 2"#,
          #"netstatus_path_vpn{netns="odd\"name"} 0"#,
          #"netstatus_path_vpn_bypassed{netns="odd\"name",family="ipv4"} 0"#,
          #"netstatus_path_vpn_bypassed{netns="odd\"name",family="ipv6"} 0"#,
          #"netstatus_connectivity_state{netns="odd\"name",state="unknown"} 0"#,
          #"netstatus_connectivity_state{netns="odd\"name",state="none"} 0"#,
          #"netstatus_connectivity_state{netns="odd\"name",state="limited"} 0"#,
          #"netstatus_connectivity_state{netns="odd\"name",state="portal"} 1"#,
          #"netstatus_connectivity_state{netns="odd\"name",state="full"} 0"#,
          #"netstatus_path_changes_total{netns="odd\"name"} 3"#,
          #"netstatus_path_last_change_timestamp_seconds{netns="odd\"name"} 1764540000.250000"#,
          #"netstatus_start_time_seconds{netns="odd\"name",textfile="net.prom"} 1764539000.000000"#,
          #"netstatus_textfile_timestamp_seconds{netns="odd\"name",textfile="net.prom"} 1764540001.500000"#,
        ], "\(text)")
      #expect(text.contains("# TYPE netstatus_path_changes_total counter\n"))
      #expect(PrometheusTextfile.escape("a\\b\"c\nd") == #"a\\b\"c\nd"#)
    }

    /// The link quality gauge is ordered (0 unknown … 3 good), 0 when the path is not satisfied; ultra-constrained 1
    /// when the path says so.
    @Test(arguments: NetworkPath.LinkQuality.allCases)
    func linkQualityIsAnOrderedGauge(quality: NetworkPath.LinkQuality) {
      var path = NetworkPath.test(.wiredEthernet)
      path.linkQuality = quality
      path.isUltraConstrained = true
      func sample(_ path: NetworkPath, _ name: String) -> String? {
        let text = PrometheusTextfile.render(
          .init(path: path, connectivity: nil, families: FamilyConnectivity(), changes: 0, lastChange: 1), netns: nil,
          stamp: .init(name: "f.prom", started: 0, written: 0))
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.map(String.init)
      }
      let value = NetworkPath.LinkQuality.allCases.firstIndex(of: quality)!
      #expect(sample(path, "netstatus_path_link_quality") == "netstatus_path_link_quality \(value)")
      #expect(sample(path, "netstatus_path_ultra_constrained") == "netstatus_path_ultra_constrained 1")
      var offline = path
      offline.status = .unsatisfied
      #expect(sample(offline, "netstatus_path_link_quality") == "netstatus_path_link_quality 0")
    }

    /// Each family the path carries has its own state gauge (one sample per state); a family it does not carry has
    /// none, and without a probe there is no family gauge at all.
    @Test func eachCarriedFamilyHasItsOwnConnectivityState() {
      let path = NetworkPath.test(.wiredEthernet)
      let text = PrometheusTextfile.render(
        .init(
          path: path, connectivity: .full, families: FamilyConnectivity(ipv4: .full, ipv6: nil), changes: 0,
          lastChange: 1), netns: nil, stamp: .init(name: "f.prom", started: 0, written: 0))
      let samples = text.split(separator: "\n").filter { $0.hasPrefix("netstatus_connectivity_family_state") }
      #expect(
        samples == [
          #"netstatus_connectivity_family_state{family="ipv4",state="unknown"} 0"#,
          #"netstatus_connectivity_family_state{family="ipv4",state="none"} 0"#,
          #"netstatus_connectivity_family_state{family="ipv4",state="limited"} 0"#,
          #"netstatus_connectivity_family_state{family="ipv4",state="portal"} 0"#,
          #"netstatus_connectivity_family_state{family="ipv4",state="full"} 1"#,
        ], "\(text)")
      let both = PrometheusTextfile.render(
        .init(
          path: path, connectivity: .full, families: FamilyConnectivity(ipv4: .full, ipv6: .limited), changes: 0,
          lastChange: 1), netns: nil, stamp: .init(name: "f.prom", started: 0, written: 0))
      #expect(both.contains(#"netstatus_connectivity_family_state{family="ipv6",state="limited"} 1"#), "\(both)")
      #expect(both.contains(#"netstatus_connectivity_family_state{family="ipv6",state="full"} 0"#), "\(both)")
      let unprobed = PrometheusTextfile.render(
        .init(path: path, connectivity: nil, changes: 0, lastChange: 1), netns: nil,
        stamp: .init(name: "f.prom", started: 0, written: 0))
      #expect(!unprobed.contains("netstatus_connectivity_family_state"), "\(unprobed)")
    }

    @Test func anUnsatisfiedPathHasNoInterfaceInUseAndNoConnectivityWithoutAProbe() {
      let text = PrometheusTextfile.render(
        .init(
          path: NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable), connectivity: nil, changes: 0,
          lastChange: 1), netns: nil, stamp: .init(name: "n.prom", started: 0, written: 0))
      #expect(text.contains("netstatus_path_satisfied 0\n"))
      #expect(!text.contains("netstatus_path_interface_info{"))
      #expect(!text.contains("netstatus_connectivity_state"))
    }

    /// `--all-netns --textfile`: one file, each namespace's series labelled with its name, every metric's samples
    /// together after its HELP and TYPE (the format allows no other order), netstatus's own metrics once.
    @Test func severalNamespacesShareEachMetricsHelpAndType() {
      let online = PrometheusTextfile.Snapshot(
        path: NetworkPath(
          status: .satisfied, availableInterfaces: [NetworkInterface(name: "v0", index: 2, type: .other)],
          supportsIPv4: true), connectivity: nil, changes: 1, lastChange: 2)
      let offline = PrometheusTextfile.Snapshot(
        path: NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable), connectivity: nil, changes: 0,
        lastChange: 1)
      let text = PrometheusTextfile.render(
        [("a", online), ("b", offline)], stamp: .init(name: "all.prom", started: 5, written: 6), stampNetns: nil)
      let lines = text.split(separator: "\n")
      let satisfied = lines.firstIndex(of: "# TYPE netstatus_path_satisfied gauge")
      #expect(
        satisfied.map { Array(lines[($0 + 1)...($0 + 2)]) } == [
          #"netstatus_path_satisfied{netns="a"} 1"#, #"netstatus_path_satisfied{netns="b"} 0"#,
        ])
      #expect(lines.filter { $0.hasPrefix("# TYPE ") }.count == Set(lines.filter { $0.hasPrefix("# TYPE ") }).count)
      #expect(
        lines.filter { $0.hasPrefix("netstatus_path_interface_info") } == [
          #"netstatus_path_interface_info{netns="a",interface="v0",type="other"} 1"#
        ])
      #expect(lines.contains(#"netstatus_start_time_seconds{textfile="all.prom"} 5.000000"#), "\(text)")
      #expect(lines.contains(#"netstatus_textfile_timestamp_seconds{textfile="all.prom"} 6.000000"#), "\(text)")
      #expect(PrometheusTextfile.fileName(of: "/var/lib/node_exporter/netstatus.prom") == "netstatus.prom")
    }

    /// The exporter's file across a namespace's arrival, departure and a refresh: a deleted namespace's series
    /// leave the file, and a refresh rewrites it with a later write time and nothing else changed.
    @Test func theExporterDropsAGoneNamespaceAndRefreshesItsWriteTime() throws {
      let folder = try Folder("promexp")
      defer { folder.delete() }
      let exporter = TextfileExporter(path: folder.path + "/all.prom", netns: nil)
      #expect(exporter.flush() == nil)
      #expect(folder.contents("all.prom")?.contains("netstatus_path_satisfied{") == false)
      // No writer thread started: each change is written by the thread that makes it.
      exporter.update(namespace: "a", path: .test(.wiredEthernet), connectivity: nil)
      exporter.update(namespace: "b", path: .test(.wifi), connectivity: nil)
      #expect(folder.contents("all.prom")?.contains(#"netstatus_path_satisfied{netns="b"} 1"#) == true)
      exporter.remove(namespace: "b")
      let before = try #require(folder.contents("all.prom"))
      #expect(!before.contains(#"netns="b""#), "\(before)")
      #expect(before.contains(#"netstatus_path_satisfied{netns="a"} 1"#), "\(before)")
      func written(_ text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix("netstatus_textfile_timestamp_seconds") }
          .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
      }
      let first = try #require(written(before))
      var now = timespec()
      repeat { clock_gettime(CLOCK_REALTIME, &now) } while Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 <= first
      #expect(exporter.refresh() == nil)
      let after = try #require(folder.contents("all.prom"))
      #expect(try #require(written(after)) > first)
      func withoutStamp(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.hasPrefix("netstatus_textfile_timestamp_seconds") }
      }
      #expect(withoutStamp(after) == withoutStamp(before))
    }

    /// The samples of a textfile as the official parser reads them: `name{labels} value` lines, sorted.
    static func parse(_ file: String) async throws -> [String]? {
      let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        text = open(sys.argv[1]).read()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                print(f"{family.type} {sample.name}{{{labels}}} {sample.value:g}")
        """
      var environment = ProcessInfo.processInfo.environment
      if let extra = environment["NETSTATUS_PYTHONPATH"] { environment["PYTHONPATH"] = extra }
      let check = try ChildProcess(
        executable: "/usr/bin/env", ["python3", "-c", "import prometheus_client"], environment: environment)
      guard try await check.waitForExit() == .exited(0) else { return nil }
      let child = try ChildProcess(
        executable: "/usr/bin/env", ["python3", "-c", script, file], environment: environment)
      #expect(try await child.waitForExit() == .exited(0), "the parser refused the file: \(child.errorOutput)")
      return child.lines.values.sorted()
    }

    @Test func watchKeepsTheFileTrueAcrossChanges() async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-prom-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/netstatus.prom"
      let site = try NetstatusEndToEndTests.Site("e2eprom")
      defer { site.delete() }
      let run = try NetstatusProcess(["watch", "-j", "-n", site.target.name, "--textfile", file])
      defer { run.terminate() }
      _ = try await run.lines.waitUntil(timeout: .seconds(10), "the first line") { !$0.isEmpty }
      guard
        var samples = try await Self.parseWhen(
          file, { $0.contains("gauge netstatus_path_satisfied{netns=\(site.target.name)} 1") })
      else {
        try #require(
          ProcessInfo.processInfo.environment["CI"] == nil, "prometheus-client is missing: .ci/run installs it")
        return
      }
      let ns = "netns=\(site.target.name)"
      #expect(samples.contains("gauge netstatus_path_interface_info{interface=v0,\(ns),type=other} 1"), "\(samples)")
      #expect(samples.contains("gauge netstatus_path_family_supported{family=ipv4,\(ns)} 1"), "\(samples)")
      #expect(samples.contains("counter netstatus_path_changes_total{\(ns)} 0"), "\(samples)")
      #expect(!samples.contains { $0.contains("netstatus_connectivity_state") }, "no probe, no connectivity")

      try site.deleteDefaultRoute()
      _ = try await run.lines.waitUntil(timeout: .seconds(10), "a second line") { $0.count >= 2 }
      samples = try #require(
        try await Self.parseWhen(file, { $0.contains("counter netstatus_path_changes_total{\(ns)} 1") }))
      #expect(samples.contains("gauge netstatus_path_satisfied{\(ns)} 0"), "\(samples)")
      #expect(!samples.contains { $0.contains("netstatus_path_interface_info") }, "\(samples)")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
      #expect(leftovers == ["netstatus.prom"], "no temporary file left: \(leftovers)")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0))
    }

    /// Parses the file until `condition` holds (it is rewritten just after the line is printed), or fails loudly.
    static func parseWhen(_ file: String, _ condition: @escaping ([String]) -> Bool) async throws -> [String]? {
      enum Outcome {
        case met([String])
        case noParser
      }
      var last: [String] = []
      // Each check runs the parser in a process of its own: paced, not a tight loop beside the netstatus it reads.
      let outcome = try await poll(timeout: .seconds(30), every: .milliseconds(20)) { () -> Outcome? in
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let samples = try await parse(file) else { return .noParser }
        if condition(samples) { return .met(samples) }
        last = samples
        return nil
      }
      switch outcome {
      case .met(let samples): return samples
      case .noParser: return nil
      case nil:
        Issue.record("the textfile never met the condition; last: \(last)")
        return last
      }
    }

    /// A file that cannot be written is said in the user's terms (the folder they chose, not the temporary file), at
    /// once, before any line: for `watch` and `watch --all-netns`, a missing folder and a file where a folder should be.
    @Test(
      arguments: [["watch"], ["watch", "--all-netns"]],
      [
        ("/nonexistent-nstest/x.prom", "the folder /nonexistent-nstest does not exist"),
        ("/etc/hostname/x.prom", "/etc/hostname is not a folder"),
      ])
    func anUnwritableFileIsAnErrorWithExitTwoBeforeAnyLine(command: [String], file: (String, String)) async throws {
      let site = try NetstatusEndToEndTests.Site("e2epromerr")
      defer { site.delete() }
      let namespace = command.contains("--all-netns") ? [] : ["-n", site.target.name]
      let run = try NetstatusProcess(command + namespace + ["--textfile", file.0])
      #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2))
      #expect(run.errorOutput == "netstatus: --textfile \(file.0): \(file.1)\n", "\(run.errorOutput)")
      #expect(run.lines.values.isEmpty, "no line before the error: \(run.lines.values)")
    }

    /// A folder under /tmp for one test, removed with everything in it.
    struct Folder {
      let path: String
      init(_ name: String) throws {
        path = NSTemporaryDirectory() + "nstest-\(name)-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      }
      func delete() { try? FileManager.default.removeItem(atPath: path) }
      func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
      }
      func isSymbolicLink(_ name: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.type] as? FileAttributeType)
          == .typeSymbolicLink
      }
    }

    /// A symbolic link planted under the temporary file's name (the name older versions used, `PATH.PID.tmp`, and
    /// the first name tried) is never followed: its target keeps its contents, the link stays a link, and the
    /// metrics file is a regular file with the text.
    @Test func aSymbolicLinkPlantedAsTheTemporaryFileIsNotFollowed() throws {
      let folder = try Folder("promlink")
      defer { folder.delete() }
      let victim = folder.path + "/passwd"
      try "root:x:0:0\n".write(toFile: victim, atomically: false, encoding: .utf8)
      let metrics = folder.path + "/net.prom"
      let planted = ["\(metrics).\(getpid()).tmp", "\(metrics).tmp-planted"]
      for name in planted { try FileManager.default.createSymbolicLink(atPath: name, withDestinationPath: victim) }
      var names = [planted[1]]
      let failure = PrometheusTextfile.replace(metrics, with: "netstatus_path_satisfied 1\n") { path in
        names.isEmpty ? PrometheusTextfile.temporaryName(for: path) : names.removeFirst()
      }
      #expect(failure == nil)
      #expect(folder.contents("passwd") == "root:x:0:0\n")
      #expect(folder.contents("net.prom") == "netstatus_path_satisfied 1\n")
      #expect(!folder.isSymbolicLink("net.prom"))
      for name in planted { #expect(folder.isSymbolicLink((name as NSString).lastPathComponent), "\(name)") }
      // The default names too, where the planted link is under the name older versions used.
      #expect(PrometheusTextfile.replace(metrics, with: "netstatus_path_satisfied 0\n") == nil)
      #expect(folder.contents("passwd") == "root:x:0:0\n")
      #expect(folder.contents("net.prom") == "netstatus_path_satisfied 0\n")
      // Nothing is left behind but the planted links and the two files.
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == ["net.prom", "net.prom.\(getpid()).tmp", "net.prom.tmp-planted", "passwd"])
    }

    /// A FIFO planted under the temporary file's name is never opened (a blocking open would wait for a writer for
    /// ever, deaf to SIGTERM): replacing returns at once and writes the file.
    @Test func aFIFOPlantedAsTheTemporaryFileNeverBlocks() async throws {
      let folder = try Folder("promfifo")
      defer { folder.delete() }
      let metrics = folder.path + "/net.prom"
      let planted = ["\(metrics).\(getpid()).tmp", "\(metrics).tmp-planted"]
      for name in planted { #expect(mkfifo(name, 0o600) == 0) }
      let results = Recorder<String?>()
      Thread.detachNewThread {
        var names = [planted[1]]
        results.append(
          PrometheusTextfile.replace(metrics, with: "netstatus_path_satisfied 1\n") { path in
            names.isEmpty ? PrometheusTextfile.temporaryName(for: path) : names.removeFirst()
          })
        results.append(PrometheusTextfile.replace(metrics, with: "netstatus_path_satisfied 0\n"))
      }
      try await results.waitFor(count: 2, timeout: .seconds(10), "both replacements to return")
      #expect(results.values == [nil, nil])
      #expect(folder.contents("net.prom") == "netstatus_path_satisfied 0\n")
    }

    /// When every name tried is taken, nothing is written and the error names the errno.
    @Test func everyNameTakenIsAnErrorNamingEEXIST() throws {
      let folder = try Folder("promtaken")
      defer { folder.delete() }
      let metrics = folder.path + "/net.prom"
      try "x".write(toFile: metrics + ".tmp-taken", atomically: false, encoding: .utf8)
      let failure = PrometheusTextfile.replace(metrics, with: "y") { _ in metrics + ".tmp-taken" }
      #expect(failure?.contains("EEXIST") == true, "\(failure ?? "nil")")
      #expect(folder.contents("net.prom.tmp-taken") == "x")
      #expect(folder.contents("net.prom") == nil)
    }

    /// The error names its errno (`EISDIR`, not `errno 21`), and leaves nothing behind.
    @Test func aFolderInTheWayIsAnErrorNamingEISDIR() throws {
      let folder = try Folder("promdir")
      defer { folder.delete() }
      try FileManager.default.createDirectory(atPath: folder.path + "/net.prom", withIntermediateDirectories: false)
      let failure = PrometheusTextfile.replace(folder.path + "/net.prom", with: "x")
      #expect(failure?.hasSuffix(": EISDIR (Is a directory)") == true, "\(failure ?? "nil")")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["net.prom"])
    }
  }
#endif
