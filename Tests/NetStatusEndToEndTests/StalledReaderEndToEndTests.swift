#if os(Linux)
  import Foundation
  import Glibc
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  /// A reader that stops reading `watch`'s standard output (`netstatus watch --textfile F | sleep 1000`, a stuck log
  /// shipper) must not freeze anything else: the metrics file follows the path, and a stop signal still ends
  /// netstatus. Standard output is a pipe shrunk to one page that the test never reads until the end. Before, the
  /// rtnetlink thread waited on the full pipe, so the file kept the path of the line being written: `satisfied 0`
  /// for a host long back online, with a fresh timestamp every minute.
  @Suite(
    "a stalled reader freezes nothing", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct StalledReaderEndToEndTests {
    /// A pipe whose write end goes to netstatus, one page big; the test holds the read end (and gives up its copy of
    /// the write end once netstatus has its own: ``writerStarted()``).
    struct StalledPipe {
      let read: Int32
      let write: Int32

      init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw POSIXError(.EMFILE) }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        (read, write) = (descriptors[0], descriptors[1])
        // F_SETPIPE_SZ: the smallest a pipe can be, one page.
        _ = fcntl(write, 1031, 4096)
      }

      /// The bytes waiting in the pipe.
      var unread: Int32 {
        var count: Int32 = 0
        _ = ioctl(read, UInt(FIONREAD), &count)
        return count
      }

      /// Reads again, as a reader that comes back: what the pipe holds and what comes, until `done` holds for the text
      /// read (whole lines only), or fails loudly.
      func resume(until done: (String) -> Bool) async throws -> String {
        _ = fcntl(read, F_SETFL, O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let found = try await poll(timeout: .seconds(20), every: .milliseconds(10)) { () -> String? in
          while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
          }
          let text = String(decoding: bytes, as: UTF8.self)
          return text.hasSuffix("\n") && done(text) ? text : nil
        }
        if let found { return found }
        let text = String(decoding: bytes, as: UTF8.self)
        Issue.record("the reader never got what it waited for; it read:\n\(text.suffix(2000))")
        return text
      }

      /// netstatus has its own copy of the write end: the test's goes, so that the pipe ends when netstatus does.
      func writerStarted() { _ = Glibc.close(write) }

      func close() { _ = Glibc.close(read) }
    }

    /// Waits until `file` holds `sample`, or fails loudly with what it held, what netstatus (`run`) said, and how many
    /// bytes wait unread in its standard output (`pipe`): none when no line was written, so the first path was never
    /// known (a start that hangs), some when the path reached the lines but not the file.
    static func awaitSample(
      _ sample: String, in file: String, _ what: String, run: NetstatusProcess, pipe: StalledPipe? = nil
    ) async throws {
      var last = ""
      let found = try await poll(timeout: .seconds(20), every: .milliseconds(10)) { () -> Bool? in
        last = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return last.split(separator: "\n").contains(Substring(sample)) ? true : nil
      }
      if found != nil { return }
      let state =
        run.hasExited
        ? "netstatus has exited" : "netstatus runs, its threads: \(threads(of: run))\n\(backtraces(of: run))"
      let unread = pipe.map { "; its standard output holds \($0.unread) unread bytes" } ?? ""
      let folder = (file as NSString).deletingLastPathComponent
      let listing = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted().description ?? "none"
      Issue.record(
        """
        \(what): the file never held \(sample); \(state)\(unread); it said: \(run.errorOutput); the folder holds \
        \(listing); the file: \(describe(file)); last:\n\(last)
        """)
      throw CancellationError()
    }

    /// Where each thread of `run` is (name, state, the kernel function it sleeps in, its system call and first
    /// arguments), for a failure to say where netstatus stands.
    static func threads(of run: NetstatusProcess) -> String {
      let task = "/proc/\(run.processIdentifier)/task"
      let ids = (try? FileManager.default.contentsOfDirectory(atPath: task)) ?? []
      return ids.sorted().map { id in
        func read(_ file: String) -> String {
          ((try? String(contentsOfFile: "\(task)/\(id)/\(file)", encoding: .utf8)) ?? "?")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let stat = read("stat")
        let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
        let call = read("syscall").split(separator: " ").prefix(3).joined(separator: " ")
        return "\(id) \(read("comm")) \(state) \(read("wchan")) [\(call)]"
      }.joined(separator: "; ")
    }

    /// What `file` is, read without Foundation: its size, mode and age, and its first bytes (escaped), or the errno.
    static func describe(_ file: String) -> String {
      var status = stat()
      guard stat(file, &status) == 0 else { return "stat: errno \(errno)" }
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      let age = now.tv_sec - status.st_mtim.tv_sec
      let fd = open(file, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        return "\(status.st_size) bytes, mode \(String(status.st_mode, radix: 8)), open: errno \(errno)"
      }
      defer { _ = Glibc.close(fd) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      let readErrno = errno
      let bytes =
        count > 0
        ? buffer[..<count].map { $0 >= 32 && $0 < 127 ? String(UnicodeScalar($0)) : "\\x\(String($0, radix: 16))" }
          .joined() : ""
      return "\(status.st_size) bytes, mode \(String(status.st_mode, radix: 8)), written \(age) s ago, read \(count) "
        + "(errno \(count < 0 ? readErrno : 0)): \(bytes)"
    }

    /// Every thread's stack, from gdb when the machine has it (.ci/run installs it): where each one waits.
    static func backtraces(of run: NetstatusProcess) -> String {
      guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "(no gdb for backtraces)" }
      let gdb = Process()
      gdb.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
      gdb.arguments = [
        "60", "/usr/bin/gdb", "-nx", "-batch", "-p", "\(run.processIdentifier)", "-ex", "thread apply all bt 30",
      ]
      let output = Pipe()
      gdb.standardOutput = output
      gdb.standardError = output
      guard (try? gdb.run()) != nil else { return "(gdb did not start)" }
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      gdb.waitUntilExit()
      return text.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread") }.joined(separator: "\n")
    }

    /// The route taken away and put back, again and again, while nobody reads: each state reaches the file.
    func toggle(
      _ times: Int, pipe: StalledPipe, file: String, label: String, run: NetstatusProcess, del: () throws -> Void,
      add: () throws -> Void
    ) async throws {
      for round in 0..<times {
        try del()
        try await Self.awaitSample(
          "netstatus_path_satisfied{\(label)} 0", in: file, "round \(round), offline", run: run)
        try add()
        try await Self.awaitSample("netstatus_path_satisfied{\(label)} 1", in: file, "round \(round), online", run: run)
      }
      // Lines are ~400 bytes: the page has been full for most of the rounds.
      #expect(pipe.unread > 4096 - 512, "the pipe is full: \(pipe.unread) bytes unread")
    }

    /// The reader reads again: whole JSON lines, down to the current path (the lines that waited for it, the
    /// newest state of each namespace last), until `current` holds for the last line of `key` (`nil`: any line).
    func resumeReading(_ pipe: StalledPipe, netns key: String? = nil) async throws {
      func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
      }
      let text = try await pipe.resume { text in
        let mine = objects(text).filter { key == nil || $0["netns"] as? String == key }
        return mine.last?["status"] as? String == "satisfied"
      }
      let lines = text.split(separator: "\n")
      #expect(objects(text).count == lines.count, "every line is whole JSON: \(text.suffix(500))")
    }

    /// With `readerComesBack`, the reader reads again before the stop: whole lines, down to the current path.
    @Test(
      "watch --netns --textfile: the file follows the path and SIGTERM ends it while the reader stalls",
      arguments: [false, true])
    func oneNamespace(readerComesBack: Bool) async throws {
      let site = try NetstatusEndToEndTests.Site(readerComesBack ? "e2eback" : "e2estall")
      defer { site.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-stall-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/n.prom"
      let pipe = try StalledPipe()
      defer { pipe.close() }
      let run = try NetstatusProcess(
        ["watch", "--json", "--netns", site.target.name, "--textfile", file], standardOutput: pipe.write)
      pipe.writerStarted()
      defer { run.terminate() }
      let label = #"netns="\#(site.target.name)""#
      try await Self.awaitSample(
        "netstatus_path_satisfied{\(label)} 1", in: file, "the first path", run: run, pipe: pipe)
      try await toggle(
        16, pipe: pipe, file: file, label: label, run: run, del: site.deleteDefaultRoute, add: site.addDefaultRoute)
      if readerComesBack { try await resumeReading(pipe) }
      // A stop signal ends netstatus at once, the reader stalled or not.
      run.signal(SIGTERM)
      #expect(try await run.waitForExit(timeout: .seconds(10)) == .exited(0), "\(run.errorOutput)")
    }

    @Test("watch --all-netns --textfile: the same, each namespace in the file")
    func allNamespaces() async throws {
      let netns = try await AllNamespacesEndToEndTests.PrivateNetnsFolder()
      defer { netns.delete() }
      let names = ["nstest-stall-a", "nstest-stall-b"]
      for name in names {
        try netns.shell(
          "ip netns add \(name) && ip -n \(name) link add v0 type veth peer name v1"
            + " && ip -n \(name) addr add 198.51.100.2/24 dev v0 && ip -n \(name) link set v1 up"
            + " && ip -n \(name) link set v0 up && ip -n \(name) route add default via 198.51.100.1")
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-stall-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let file = folder + "/all.prom"
      let pipe = try StalledPipe()
      defer { pipe.close() }
      let run = try netns.netstatus(
        ["watch", "--all-netns", "--json", "--textfile", file], standardOutput: pipe.write)
      pipe.writerStarted()
      defer { run.terminate() }
      for name in names {
        try await Self.awaitSample(
          #"netstatus_path_satisfied{netns="\#(name)"} 1"#, in: file, "\(name)'s first path", run: run)
      }
      try await toggle(
        16, pipe: pipe, file: file, label: #"netns="nstest-stall-a""#, run: run,
        del: { try netns.shell("ip -n nstest-stall-a route del default") },
        add: { try netns.shell("ip -n nstest-stall-a route add default via 198.51.100.1") })
      // A namespace that goes while the reader stalls leaves the file.
      try netns.shell("ip netns del nstest-stall-b")
      _ = try await poll(timeout: .seconds(20), every: .milliseconds(10)) { () -> Bool? in
        (try? String(contentsOfFile: file, encoding: .utf8))?.contains("nstest-stall-b") == false ? true : nil
      }
      #expect((try? String(contentsOfFile: file, encoding: .utf8))?.contains("nstest-stall-b") == false)
      try await resumeReading(pipe, netns: "nstest-stall-a")
      run.signal(SIGTERM)
      #expect(try await run.waitForExit(timeout: .seconds(10)) == .exited(0), "\(run.errorOutput)")
    }
  }
#endif
