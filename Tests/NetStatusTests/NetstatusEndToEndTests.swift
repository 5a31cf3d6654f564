import Foundation
import Synchronization
import Testing

@testable import NetStatus

/// The built `netstatus` binary, run as a user would: against namespaces the tests build.
@Suite(
  "netstatus end to end", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct NetstatusEndToEndTests {
  /// A namespace with a veth link to a peer namespace, addressed, and (optionally) a default route.
  final class Site: Sendable {
    let target: TestNamespace
    let peer: TestNamespace

    init(_ label: String, defaultRoute: Bool = true) throws {
      target = try TestNamespace(label)
      peer = try TestNamespace(label + "p")
      try target.ip("link add v0 type veth peer name v1 netns \(peer.name)")
      try target.ip("addr add 198.51.100.2/24 dev v0")
      try peer.ip("addr add 198.51.100.1/24 dev v1")
      try peer.ip("link set v1 up")
      try target.ip("link set v0 up")
      if defaultRoute { try addDefaultRoute() }
    }

    func addDefaultRoute() throws { try target.ip("route add default via 198.51.100.1 dev v0") }
    func deleteDefaultRoute() throws { try target.ip("route del default") }

    func delete() {
      target.delete()
      peer.delete()
    }
  }

  @Test func snapshotPrintsTheDocumentedJSON() async throws {
    let site = try Site("e2ejson")
    defer { site.delete() }
    let run = try NetstatusProcess(["--json", "--netns", site.target.name])
    let exit = try await run.waitForExit()
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    let lines = run.lines.values
    try #require(lines.count == 1, "one JSON object: \(lines)")
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(lines[0].utf8))
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces.map(\.name) == ["v0"])
    #expect(path.interfaceType == .other, "a veth is virtual")
    #expect(path.gateways == ["198.51.100.1"])
    #expect(path.supportsIPv4)
    #expect(!path.supportsIPv6)
    #expect(lines[0] == path.jsonRepresentation, "the documented key order")
  }

  @Test func snapshotPrintsAPlainTableWhenNotOnATerminal() async throws {
    let site = try Site("e2etable")
    defer { site.delete() }
    let run = try NetstatusProcess(["--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
    let text = run.lines.values.joined(separator: "\n")
    #expect(text.contains("Connected    yes"))
    #expect(text.contains("v0  other  (in use)"))
    #expect(text.contains("Gateways     198.51.100.1"))
    #expect(!text.contains("\u{1B}["), "no colour codes outside a terminal")
    #expect(run.errorOutput.isEmpty)
  }

  @Test func watchPrintsOneJSONLinePerChange() async throws {
    let site = try Site("e2ewatch")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--json", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(10), "the first path")
    #expect(try run.path(at: 0).isConnected)

    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(10), "the line for the removed route")
    #expect(try !run.path(at: 1).isConnected)

    try site.addDefaultRoute()
    try await run.lines.waitFor(count: 3, timeout: .seconds(10), "the line for the restored route")
    #expect(try run.path(at: 2).isConnected)
    #expect(try run.path(at: 2).gateways == ["198.51.100.1"])

    run.signal(SIGTERM)
    #expect(try await run.waitForExit() == .exited(0), "SIGTERM ends watch cleanly")
    #expect(run.lines.count == 3, "one line per change, no repeats: \(run.lines.values)")
  }

  @Test func watchStopsOnSIGINTWithTimestampedLines() async throws {
    let site = try Site("e2eint")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(10), "the first line")
    let line = run.lines.values[0]
    #expect(
      line.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}  online "#, options: .regularExpression) != nil, "\(line)"
    )
    run.signal(SIGINT)
    #expect(try await run.waitForExit() == .exited(0))
  }

  @Test func waitReturnsWithinASecondOfTheRouteAppearing() async throws {
    let site = try Site("e2ewait", defaultRoute: false)
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "--timeout", "20", "--netns", site.target.name])
    defer { run.terminate() }
    // The process must be waiting (not exited) before the route appears.
    try await run.waitUntilStarted(namespace: site.target)
    let clock = ContinuousClock()
    let added = clock.now
    try site.addDefaultRoute()
    let exit = try await run.waitForExit(timeout: .seconds(10))
    let elapsed = clock.now - added
    #expect(exit == .exited(0), "stderr: \(run.errorOutput)")
    #expect(elapsed < .seconds(1), "wait returned \(elapsed) after the route appeared")
    #expect(run.lines.values.first?.contains("online") == true)
  }

  @Test func waitTimesOutWithExitCodeOne() async throws {
    let site = try Site("e2etimeout", defaultRoute: false)
    defer { site.delete() }
    let run = try NetstatusProcess(["wait", "--timeout", "0.3", "--netns", site.target.name])
    #expect(try await run.waitForExit() == .exited(1))
    #expect(run.errorOutput.contains("timed out after"), "\(run.errorOutput)")
    #expect(run.lines.values.isEmpty, "nothing on stdout")
  }

  @Test func waitHonoursItsConditions() async throws {
    let site = try Site("e2econd")
    defer { site.delete() }
    let ipv6 = try NetstatusProcess(["wait", "--ipv6", "--timeout", "0.3", "--netns", site.target.name])
    #expect(try await ipv6.waitForExit() == .exited(1), "the site has no IPv6")
    let ipv4 = try NetstatusProcess(
      ["wait", "--ipv4", "--interface-type", "other", "--quiet", "--netns", site.target.name])
    #expect(try await ipv4.waitForExit() == .exited(0))
    #expect(ipv4.lines.values.isEmpty, "--quiet prints nothing")
  }

  @Test(arguments: [
    ["wait", "--timeout", "soon"], ["--bogus"], ["wait", "--interface-type", "ethernet"], ["watch", "--dns"],
  ])
  func badFlagsExitTwoWithOneLine(arguments: [String]) async throws {
    let run = try NetstatusProcess(arguments)
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.lines.values.isEmpty, "errors go to stderr")
    let errors = run.errorOutput.split(separator: "\n")
    #expect(errors.count == 1, "\(run.errorOutput)")
    #expect(errors.first?.hasPrefix("netstatus: ") == true)
  }

  @Test func missingNamespaceIsAClearErrorWithExitTwo() async throws {
    let run = try NetstatusProcess(["--netns", "nstest-does-not-exist"])
    #expect(try await run.waitForExit() == .exited(2))
    #expect(run.errorOutput.contains("nstest-does-not-exist"))
    #expect(run.errorOutput.contains("ip netns list"))
  }

  @Test func helpAndVersion() async throws {
    let help = try NetstatusProcess(["wait", "--help"])
    #expect(try await help.waitForExit() == .exited(0))
    #expect(help.lines.values.joined(separator: "\n").contains("--interface-type TYPE"))
    let version = try NetstatusProcess(["--version"])
    #expect(try await version.waitForExit() == .exited(0))
    #expect(version.lines.values.first?.hasPrefix("netstatus ") == true)
  }

  @Test func watchExitsCleanlyWhenItsOutputIsClosed() async throws {
    let site = try Site("e2epipe")
    defer { site.delete() }
    // `netstatus watch | head -n 1`: after head exits, watch has nothing to print (the network is idle)
    // and must still notice the closed pipe and exit 0, not hang and not die of SIGPIPE.
    let script = "\"$0\" watch --netns \(site.target.name) | head -n 1; echo \"watch=${PIPESTATUS[0]}\" >&2"
    let run = try NetstatusProcess(
      executable: "/bin/bash", ["-c", script, NetstatusProcess.binaryPath])
    #expect(try await run.waitForExit(timeout: .seconds(10)) == .exited(0))
    #expect(run.lines.values.count == 1)
    #expect(run.errorOutput.contains("watch=0"), "\(run.errorOutput)")
  }
}

/// The output of an exited process did not drain: who still holds its pipes.
struct DrainFailure: Error, CustomStringConvertible {
  var underlying: String
  var holders: String
  var description: String { "\(underlying); \(holders)" }
}

/// A running process whose output lines a test can await.
final class NetstatusProcess: Sendable {
  enum Exit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    var description: String {
      switch self {
      case .exited(let code): "exit \(code)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }

  /// `netstatus`, built beside the test bundle.
  static let binaryPath: String = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("netstatus").path
  }()

  /// The standard output, a line at a time.
  let lines = Recorder<String>()
  private let exits = Recorder<Exit>()
  private let errors = Mutex("")
  private let pending = Mutex(Data())
  /// Reader threads that have reached end of file (one per pipe).
  private let readersDone = Mutex(0)
  private let process: Process

  var errorOutput: String { errors.withLockedValue { $0 } }

  init(executable: String = NetstatusProcess.binaryPath, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    // Under `swift test --sanitize=thread` the binary is instrumented too, and TSan's runtime sleeps one second
    // before exiting by default (atexit_sleep_ms): that would be measured as netstatus's own latency.
    let tsan = environment["TSAN_OPTIONS"].map { $0 + " " } ?? ""
    environment["TSAN_OPTIONS"] = tsan + "atexit_sleep_ms=0"
    process.environment = environment
    let output = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = output
    process.standardError = errorPipe
    process.standardInput = FileHandle.nullDevice
    self.process = process
    // A thread per pipe, blocked in read(2) until end of file. (FileHandle.readabilityHandler sometimes never
    // reported the end of a pipe whose writers had all exited: seen under AddressSanitizer, and it hung the drain.)
    // The threads keep `self` until end of file, which comes once the process and its children have exited.
    let finished: @Sendable () -> Void = { [self] in readersDone.withLockedValue { $0 += 1 } }
    Self.startReader(output.fileHandleForReading, finished: finished) { [self] data in
      let complete: [String] = pending.withLockedValue { buffer in
        buffer.append(data)
        var found: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          found.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
          buffer.removeSubrange(buffer.startIndex...newline)
        }
        return found
      }
      for line in complete { lines.append(line) }
    }
    Self.startReader(errorPipe.fileHandleForReading, finished: finished) { [self] data in
      errors.withLockedValue { $0 += String(decoding: data, as: UTF8.self) }
    }
    process.terminationHandler = { [exits] process in
      let status = process.terminationStatus
      exits.append(process.terminationReason == .exit ? .exited(status) : .signalled(status))
    }
    try process.run()
  }

  /// Reads `handle` on a thread of its own until end of file, handing each chunk to `consume`, then calls
  /// `finished`.
  private static func startReader(
    _ handle: FileHandle, finished: @escaping @Sendable () -> Void, consume: @escaping @Sendable (Data) -> Void
  ) {
    let reader = Thread {
      while true {
        let data = handle.availableData  // blocks until data or end of file
        if data.isEmpty { break }
        consume(data)
      }
      finished()
    }
    reader.start()
  }

  /// Waits for the process to end; throws ``TimedOut`` (and kills it) after `timeout`.
  func waitForExit(timeout: Duration = .seconds(20)) async throws -> Exit {
    do {
      try await exits.waitFor(count: 1, timeout: timeout, "netstatus to exit")
    } catch {
      terminate()
      throw error
    }
    // Let the pipes drain: the output of a process that has exited is complete once its pipes close.
    do {
      try await withTimeout(.seconds(5), "the output to drain") {
        while self.pendingReaders {
          try Task.checkCancellation()  // withTimeout cancels: fail loudly instead of spinning forever
          await Task.yield()
        }
      }
    } catch {
      throw DrainFailure(underlying: "\(error)", holders: pipeHolders())
    }
    return exits.values[0]
  }

  /// Which processes still hold the write ends of the output pipes (for a drain that never ends).
  private func pipeHolders() -> String {
    let files = FileManager.default
    var targets: [String: String] = [:]
    for (name, pipe) in [("stdout", process.standardOutput as? Pipe), ("stderr", process.standardError as? Pipe)] {
      guard let pipe,
        let target = try? files.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/\(pipe.fileHandleForReading.fileDescriptor)")
      else { continue }
      targets[target] = name
    }
    var found: [String] = []
    for pid in (try? files.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil {
      for fd in (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
        guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
          let name = targets[target]
        else { continue }
        let command =
          (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
          .replacingOccurrences(of: "\0", with: " ") ?? "?"
        found.append("\(name): pid \(pid) fd \(fd) \(command)")
      }
    }
    return "pipes \(targets); holders: \(found)"
  }

  private var pendingReaders: Bool { readersDone.withLockedValue { $0 } < 2 }

  /// Waits until the process watches `namespace`: one of its threads has entered it and holds a netlink
  /// socket there.
  func waitUntilStarted(namespace: TestNamespace) async throws {
    let pid = process.processIdentifier
    let attributes = try FileManager.default.attributesOfItem(atPath: "/run/netns/\(namespace.name)")
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    try await withTimeout(.seconds(10), "netstatus to open its netlink socket in \(namespace.name)") {
      while !Self.watches(pid: pid, namespaceInode: inode) {
        try Task.checkCancellation()  // withTimeout cancels: fail loudly instead of spinning forever
        await Task.yield()
      }
    }
  }

  private static func watches(pid: Int32, namespaceInode: UInt64) -> Bool {
    let files = FileManager.default
    let sockets = Set(
      ((try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { descriptor -> String? in
        guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
          target.hasPrefix("socket:[")
        else { return nil }
        return String(target.dropFirst("socket:[".count).dropLast())
      })
    for thread in (try? files.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
      let task = "/proc/\(pid)/task/\(thread)"
      guard (try? files.destinationOfSymbolicLink(atPath: "\(task)/ns/net")) == "net:[\(namespaceInode)]",
        let table = try? String(contentsOfFile: "\(task)/net/netlink", encoding: .utf8)
      else { continue }
      let inodes = table.split(separator: "\n").dropFirst().compactMap {
        $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
      }
      if inodes.contains(where: sockets.contains) { return true }
    }
    return false
  }

  /// Decodes output line `index` as a path.
  func path(at index: Int) throws -> NetworkPath {
    try JSONDecoder().decode(NetworkPath.self, from: Data(lines.values[index].utf8))
  }

  /// Sends a signal to the process.
  func signal(_ number: Int32) {
    kill(process.processIdentifier, number)
  }

  /// Kills the process if it is still running (cleanup).
  func terminate() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
