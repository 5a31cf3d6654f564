#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  #if canImport(Glibc)
    import Glibc
  #endif

  /// The whole chain an operator runs, with the real programs: `netstatus watch --textfile` writes the file,
  /// Debian's `prometheus-node-exporter` serves it (textfile collector), Debian's `prometheus` scrapes it every
  /// second and answers its HTTP query API. Both run on loopback ports the test picks, with a data folder of the
  /// test's own, and are killed (by their PIDs) and removed when it ends. `.ci/run` installs them and sets
  /// NETSTATUS_PROMETHEUS_REQUIRED, so that CI fails instead of skipping when they are missing.
  @Suite(
    "Prometheus end to end", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason),
    .enabled(
      if: PrometheusStack.installed || ProcessInfo.processInfo.environment["NETSTATUS_PROMETHEUS_REQUIRED"] != nil,
      "prometheus and prometheus-node-exporter are not installed (.ci/run installs them)"))
  struct PrometheusEndToEndTests {
    typealias Site = NetstatusEndToEndTests.Site

    /// `netstatus_path_satisfied` flips to 0 once the namespace's default route is deleted and back to 1 once it is
    /// added, each within three scrapes of the change; the alert rules the package ships load.
    ///
    /// Counted in scrapes, by the timestamps Prometheus gives its samples, not in seconds on the test's clock: a
    /// loaded machine delays the scrapes themselves (and the test's own polling of the query API), and "three
    /// scrape intervals" of wall time then fails although nothing waited for more than three scrapes.
    @Test func aRouteChangeIsQueryableWithinThreeScrapes() async throws {
      let stack = try await PrometheusStack()
      defer { stack.stop() }
      let site = try Site("prom")
      defer { site.delete() }
      let name = site.target.name
      let run = try NetstatusProcess(["watch", "--json", "-n", name, "--textfile", stack.textfile("netstatus.prom")])
      defer { run.terminate() }
      let query = #"netstatus_path_satisfied{netns="\#(name)"}"#
      try await stack.waitForQuery(query, timeout: .seconds(20), "the first value") { $0 == ["1"] }

      var latencies: [Duration] = []
      var scrapes: [Int] = []
      for (change, expected) in [("route del default", "0"), ("route add default via 198.51.100.1 dev v0", "1")] {
        let changedAt = Date().timeIntervalSince1970
        let changed = ContinuousClock.now
        try site.target.ip(change)
        try await stack.waitForQuery(query, timeout: .seconds(10), "\(query) == \(expected) after \(change)") {
          $0 == [expected]
        }
        latencies.append(changed.duration(to: .now))
        // Every scrape stores a sample: those taken after the change, up to the first that holds the new value.
        let samples = try await stack.samples(query + "[2m]")
        let after = samples.filter { $0.time > changedAt }
        let first = try #require(
          after.firstIndex { $0.value == expected }, "no sample after \(change) holds \(expected): \(samples)")
        scrapes.append(first + 1)
        #expect(
          first + 1 <= 3,
          "\(change): the value came with scrape \(first + 1) after the change, not within three: \(after.prefix(first + 1))"
        )
      }
      // The figure Packaging/README.md gives ("How fast"): from the route change to a value Prometheus answers.
      print("PrometheusEndToEndTests: route change to a queryable value: \(latencies), with scrape \(scrapes) after it")

      // netstatus's own metrics are there too, labelled with the file's name.
      let started = try await stack.query(#"netstatus_start_time_seconds{textfile="netstatus.prom"}"#)
      #expect(started.count == 1, "\(started)")
      let rules = try await stack.get("/api/v1/rules")
      #expect(rules.contains(#""name":"NetstatusTextfileStale""#), "the shipped rules load: \(rules.prefix(500))")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }

    /// `watch --all-netns --textfile`: one file, each namespace's series labelled with its name, which Prometheus
    /// answers for; a deleted namespace's series leave the file, and the query comes back empty.
    @Test func allNamespacesInOneFileAreQueryableByName() async throws {
      let stack = try await PrometheusStack()
      defer { stack.stop() }
      let first = try Site("proma")
      defer { first.delete() }
      let second = try Site("promb", defaultRoute: false)
      var secondDeleted = false
      defer { if !secondDeleted { second.delete() } }
      let run = try NetstatusProcess(["watch", "--all-netns", "--json", "--textfile", stack.textfile("all.prom")])
      defer { run.terminate() }
      let (a, b) = (first.target.name, second.target.name)
      let query = #"netstatus_path_satisfied{netns=~"\#(a)|\#(b)"}"#
      try await stack.waitForQuery(query, timeout: .seconds(20), "both namespaces") { values in
        values.count == 2
      }
      #expect(try await stack.query(#"netstatus_path_satisfied{netns="\#(a)"}"#) == ["1"])
      #expect(try await stack.query(#"netstatus_path_satisfied{netns="\#(b)"}"#) == ["0"])

      try second.addDefaultRoute()
      try await stack.waitForQuery(#"netstatus_path_satisfied{netns="\#(b)"}"#, timeout: .seconds(10), "\(b) online") {
        $0 == ["1"]
      }
      second.delete()
      secondDeleted = true
      try await stack.waitForQuery(query, timeout: .seconds(10), "\(b)'s series gone, \(a)'s still there") {
        $0 == ["1"]
      }
      #expect(try await stack.query(#"netstatus_path_satisfied{netns="\#(b)"}"#).isEmpty)
      #expect(try await stack.query(#"netstatus_textfile_timestamp_seconds{textfile="all.prom"}"#).count == 1)
      run.signal(SIGTERM)
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
    }
  }

  /// Debian's node_exporter and Prometheus, started for one test on loopback ports of its own, in a folder of its
  /// own (the textfile folder, Prometheus's configuration and its data), stopped and removed by ``stop()``.
  final class PrometheusStack: Sendable {
    static let prometheusPath = "/usr/bin/prometheus"
    static let nodeExporterPath = "/usr/bin/prometheus-node-exporter"
    static let scrapeInterval: Duration = .seconds(1)

    /// Something in the stack failed (not a timeout).
    struct StackFailure: Error, CustomStringConvertible {
      var message: String
      var description: String { message }
    }

    static var installed: Bool {
      FileManager.default.isExecutableFile(atPath: prometheusPath)
        && FileManager.default.isExecutableFile(atPath: nodeExporterPath)
    }

    /// The rules the package ships, loaded so that the test sees them load in a real Prometheus.
    static let rulesFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Packaging/prometheus/netstatus.rules.yml").path

    let folder: String
    let nodeExporter: ChildProcess
    let prometheus: ChildProcess
    let prometheusPort: Int

    init() async throws {
      try #require(Self.installed, "prometheus and prometheus-node-exporter are missing: .ci/run installs them")
      folder = NSTemporaryDirectory() + "nstest-prometheus-\(getpid())-\(UInt64.random(in: 0 ... .max))"
      let manager = FileManager.default
      try manager.createDirectory(atPath: folder + "/textfile", withIntermediateDirectories: true)
      try manager.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
      // A port is free when picked, and taken by the server a moment later: another test may take it between,
      // and the server then exits at once. Tried again with other ports, three times.
      var started: (ChildProcess, ChildProcess, Int)?
      var failures: [String] = []
      for _ in 0..<3 where started == nil {
        let (exporterPort, port) = (try Self.freePort(), try Self.freePort())
        let exporter = try ChildProcess(
          executable: Self.nodeExporterPath,
          [
            "--web.listen-address=127.0.0.1:\(exporterPort)", "--collector.disable-defaults", "--collector.textfile",
            "--collector.textfile.directory=\(folder)/textfile",
          ])
        let configuration = """
          global:
            scrape_interval: 1s
            evaluation_interval: 1s
          rule_files:
            - \(Self.rulesFile)
          scrape_configs:
            - job_name: node
              static_configs:
                - targets: ['127.0.0.1:\(exporterPort)']
          """
        try configuration.write(toFile: folder + "/prometheus.yml", atomically: true, encoding: .utf8)
        let server = try ChildProcess(
          executable: Self.prometheusPath,
          [
            "--config.file=\(folder)/prometheus.yml", "--storage.tsdb.path=\(folder)/data",
            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
          ])
        do {
          try await Self.waitForHTTP(port: exporterPort, path: "/metrics", process: exporter)
          try await Self.waitForHTTP(port: port, path: "/-/ready", process: server)
          started = (exporter, server, port)
        } catch {
          failures.append("\(error): node_exporter: \(exporter.errorOutput) prometheus: \(server.errorOutput)")
          for process in [exporter, server] {
            process.terminate()
            _ = try? await process.waitForExit()
          }
        }
      }
      guard let started else {
        try? manager.removeItem(atPath: folder)
        throw StackFailure(message: "node_exporter and prometheus did not start: \(failures)")
      }
      (nodeExporter, prometheus, prometheusPort) = started
    }

    /// The path of a file in the folder node_exporter reads.
    func textfile(_ name: String) -> String { folder + "/textfile/" + name }

    /// Kills both servers (they are this test's: by PID), waits for them to end, and removes the folder.
    func stop() {
      for process in [nodeExporter, prometheus] {
        process.terminate()
        _ = process.waitUntilExit()
      }
      try? FileManager.default.removeItem(atPath: folder)
    }

    /// The values of an instant query, sorted; empty when no series matches.
    func query(_ expression: String) async throws -> [String] {
      try await result(expression).compactMap { ($0["value"] as? [Any])?.last as? String }.sorted()
    }

    /// The samples of a range query such as `metric[2m]`, in time order: when each scrape took it (Prometheus's
    /// timestamp, seconds since 1970) and its value. Empty when no series matches; the query must match one series.
    func samples(_ expression: String) async throws -> [(time: Double, value: String)] {
      let result = try await result(expression)
      try #require(result.count <= 1, "\(expression) matches more than one series: \(result)")
      let values = result.first?["values"] as? [[Any]] ?? []
      return try values.map { pair in
        let time = try #require(pair.first as? Double ?? (pair.first as? NSNumber)?.doubleValue, "\(pair)")
        return (time, try #require(pair.last as? String, "\(pair)"))
      }
    }

    /// The `data.result` array Prometheus answers a query with.
    private func result(_ expression: String) async throws -> [[String: Any]] {
      var allowed = CharacterSet.alphanumerics
      allowed.insert(charactersIn: "-._~")
      let encoded = try #require(expression.addingPercentEncoding(withAllowedCharacters: allowed))
      let body = try await get("/api/v1/query?query=" + encoded)
      let answer = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
      try #require(answer["status"] as? String == "success", "\(body)")
      return try #require((answer["data"] as? [String: Any])?["result"] as? [[String: Any]], "\(body)")
    }

    /// Asks `expression` again and again until its values meet `condition`, or throws ``TimedOut`` after
    /// `timeout`. Prometheus has no way to push an answer: it is asked every 20 ms, a small fraction of the scrape
    /// interval the test measures against.
    func waitForQuery(
      _ expression: String, timeout: Duration, _ what: String, _ condition: ([String]) -> Bool
    ) async throws {
      var last: [String] = []
      let met = try await poll(timeout: timeout, every: .milliseconds(20)) { () -> Bool? in
        last = try await query(expression)
        return condition(last) ? true : nil
      }
      if met != nil { return }
      throw TimedOut(what: "\(what) (last answer to \(expression): \(last))", timeout: timeout)
    }

    /// The body of `GET path` from Prometheus.
    func get(_ path: String) async throws -> String {
      let (status, body) = try Self.get(port: prometheusPort, path: path)
      try #require(status == 200, "GET \(path): \(status) \(body)")
      return body
    }

    /// Waits until `GET path` on `port` answers 200, or throws once `process` has exited or 30 s have passed.
    static func waitForHTTP(port: Int, path: String, process: ChildProcess) async throws {
      // Nothing says when a server starts listening: asked again every 20 ms.
      let answered = try await poll(timeout: .seconds(30), every: .milliseconds(20)) { () -> Bool? in
        if (try? get(port: port, path: path))?.status == 200 { return true }
        if process.hasExited { throw StackFailure(message: "the server meant to answer on port \(port) exited") }
        return nil
      }
      if answered != nil { return }
      throw TimedOut(what: "port \(port) to answer \(path)", timeout: .seconds(30))
    }

    /// A loopback TCP port nobody listens on now.
    static func freePort() throws -> Int {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(fd >= 0)
      defer { close(fd) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
      }
      try #require(bound, "bind: \(errno)")
      return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `GET path` over HTTP/1.0 on a loopback port: the status and the body. At most 5 s per read.
    static func get(port: Int, path: String) throws -> (status: Int, body: String) {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(fd >= 0)
      defer { close(fd) }
      var timeout = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      guard connected else { throw StackFailure(message: "connect to port \(port): errno \(errno)") }
      let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      try #require(sent == request.count)
      var response: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else {
          guard count == 0 else { throw StackFailure(message: "no answer from port \(port): errno \(errno)") }
          break
        }
        response += buffer[0..<count]
      }
      let text = String(decoding: response, as: UTF8.self)
      guard let headerEnd = text.range(of: "\r\n\r\n") else { return (0, text) }
      let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
      return (status, String(text[headerEnd.upperBound...]))
    }
  }
#endif
