import Foundation
import NetStatusCore
import NetStatusTestSupport
import ProcFileSupport
import Synchronization
import Testing

/// Runs `ip` and makes network namespaces for kernel tests.
package enum KernelTestSupport {
  /// The `ip` tool, when installed.
  package static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Whether this machine lets us make network namespaces: root, `ip` installed, and `ip netns add` works.
  /// Probed once by adding and deleting a namespace.
  package static let namespacesAvailable: Bool = {
    guard getuid() == 0, ipPath != nil else { return false }
    let name = "nstest-probe-\(getpid())"
    guard (try? run(["netns", "add", name])) != nil else { return false }
    _ = try? run(["netns", "delete", name])
    return true
  }()

  /// Why kernel tests are skipped here.
  package static let skipReason: Comment =
    "kernel tests need root, iproute2 and permission to create network namespaces (ip netns add)"

  package struct CommandFailed: Error, CustomStringConvertible {
    package var arguments: [String]
    package var status: Int32
    package var output: String
    package init(arguments: [String], status: Int32, output: String) {
      self.arguments = arguments
      self.status = status
      self.output = output
    }
    package var description: String { "ip \(arguments.joined(separator: " ")) exited with \(status): \(output)" }
  }

  /// Runs `ip` with these arguments and returns its standard output; throws with its error output when it
  /// fails.
  @discardableResult
  package static func run(_ arguments: [String]) throws -> String {
    guard let ipPath else { throw CommandFailed(arguments: arguments, status: -1, output: "ip not found") }
    let child = try ChildProcess(executable: ipPath, arguments)
    let exit = child.waitUntilExit()
    guard exit == .exited(0) else {
      let status: Int32
      switch exit {
      case .exited(let code): status = code
      case .signalled(let signal): status = 128 + signal
      }
      throw CommandFailed(arguments: arguments, status: status, output: child.errorOutput)
    }
    return child.lines.values.map { $0 + "\n" }.joined()
  }
}

extension KernelTestSupport {
  /// The rtnetlink session threads alive in this process (named `netstatus-rtnl`). Counting only these keeps
  /// leak checks exact while other suites start and end threads of their own (child-process readers, pools).
  package static func sessionThreadCount() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count { task in
      let name = readProcFile("/proc/self/task/\(task)/comm")
      return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "netstatus-rtnl"
    }
  }
}

/// A network namespace made for one test, named `nstest-LABEL-PID-N`. Delete it with ``delete()`` in a
/// `defer`; the deinitializer deletes it too, as a safety net.
package final class TestNamespace: Sendable {
  private static let counter = Atomic<Int>(0)

  package let name: String
  private let deleted = Atomic<Bool>(false)

  package init(_ label: String) throws {
    let number = Self.counter.add(1, ordering: .relaxed).newValue
    name = "nstest-\(label)-\(getpid())-\(number)"
    try KernelTestSupport.run(["netns", "add", name])
    // Loopback up, as in any real namespace; no duplicate address detection, so addresses are usable at once.
    try ip("link set lo up")
    try exec(["sysctl", "-q", "-w", "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0"])
  }

  deinit { delete() }

  /// Runs `ip -n NAME ARGUMENTS` (split at spaces) and returns its output.
  @discardableResult
  package func ip(_ arguments: String) throws -> String {
    try KernelTestSupport.run(["-n", name] + arguments.split(separator: " ").map(String.init))
  }

  /// Runs a command inside the namespace (`ip netns exec`).
  @discardableResult
  package func exec(_ command: [String]) throws -> String {
    try KernelTestSupport.run(["netns", "exec", name] + command)
  }

  /// Runs many `ip` commands in one process (`ip -n NAME -batch FILE`): thousands of changes in a burst.
  package func batch(_ lines: [String]) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).batch")
    try lines.joined(separator: "\n").appending("\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    try KernelTestSupport.run(["-n", name, "-batch", file.path])
  }

  /// Starts a long-lived process inside the namespace (`ip netns exec NAME sh -c 'echo ready; exec sleep 600'`,
  /// one PID throughout: `ip netns exec` and `sh` both exec) and returns it once it runs there, so that
  /// `/proc/PID/ns/net` names this namespace. Kill it by its PID with `signal(SIGKILL)`; call `terminate()` in a
  /// `defer`.
  package func startProcess() async throws -> ChildProcess {
    guard let ipPath = KernelTestSupport.ipPath else {
      throw KernelTestSupport.CommandFailed(arguments: ["netns", "exec"], status: -1, output: "ip not found")
    }
    let child = try ChildProcess(executable: ipPath, ["netns", "exec", name, "sh", "-c", "echo ready; exec sleep 600"])
    do {
      // `ip netns exec` has entered the namespace (and mounted its /etc/netns files) before sh prints.
      try await child.lines.waitFor(count: 1, timeout: .seconds(30), "a process to start in \(name)")
      let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.processIdentifier)/ns/net")
      let attributes = try FileManager.default.attributesOfItem(atPath: "/run/netns/\(name)")
      let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
      guard link == "net:[\(inode)]" else {
        throw KernelTestSupport.CommandFailed(
          arguments: ["netns", "exec", name], status: -1, output: "the process is in \(link), not net:[\(inode)]")
      }
    } catch {
      child.terminate()
      throw error
    }
    return child
  }

  /// Where `ip netns exec` finds files it shows this namespace in place of `/etc`'s.
  package var etcFolder: String { "/etc/netns/\(name)" }

  /// Writes `/etc/netns/NAME/FILE`, as an administrator configures a named namespace (`resolv.conf`,
  /// `hosts`). ``delete()`` removes the folder.
  package func writeEtcFile(_ file: String, _ text: String) throws {
    try FileManager.default.createDirectory(atPath: etcFolder, withIntermediateDirectories: true)
    try text.write(toFile: "\(etcFolder)/\(file)", atomically: true, encoding: .utf8)
  }

  /// Deletes the namespace (once), and its `/etc/netns/NAME` folder if a test made one.
  package func delete() {
    guard !deleted.exchange(true, ordering: .relaxed) else { return }
    _ = try? KernelTestSupport.run(["netns", "delete", name])
    if FileManager.default.fileExists(atPath: etcFolder) { try? FileManager.default.removeItem(atPath: etcFolder) }
  }
}

/// A ``PathSink`` that records what a source sends and lets a test await a path, with a timeout that fails
/// the test loudly.
package final class PathRecorder: Sendable {
  private struct Waiter {
    var matches: @Sendable (NetworkPath?, [NetworkMonitorError]) -> Bool
    var continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var paths: [NetworkPath] = []
    var failures: [NetworkMonitorError] = []
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
    /// Waits whose timeout fired before they registered (a timeout shorter than the time to register).
    var expired: Set<Int> = []
  }

  private let state = Mutex(State())

  package init() {}

  /// The sink to give the source.
  package var sink: PathSink {
    PathSink { [self] event in record(event) }
  }

  /// Every path received, in order.
  package var paths: [NetworkPath] { state.withLockedValue { $0.paths } }
  /// The last path received.
  package var latest: NetworkPath? { state.withLockedValue { $0.paths.last } }
  /// Every failure received.
  package var failures: [NetworkMonitorError] { state.withLockedValue { $0.failures } }

  private func record(_ event: PathSink.Event) {
    let ready = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
      switch event {
      case .path(let path): state.paths.append(path)
      case .failure(let error): state.failures.append(error)
      }
      var ready: [CheckedContinuation<Bool, Never>] = []
      for (id, waiter) in state.waiters where waiter.matches(state.paths.last, state.failures) {
        ready.append(waiter.continuation)
        state.waiters[id] = nil
      }
      return ready
    }
    for continuation in ready { continuation.resume(returning: true) }
  }

  /// Waits until the latest path satisfies `predicate`; records an issue and returns `nil` after `timeout`.
  @discardableResult
  package func awaitPath(
    _ description: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ predicate: @escaping @Sendable (NetworkPath) -> Bool
  ) async -> NetworkPath? {
    let matched = await wait(timeout: timeout) { path, _ in path.map(predicate) ?? false }
    guard matched else {
      let received = paths.map { "  \($0)" }.joined(separator: "\n")
      let failed = failures.isEmpty ? "" : "\nand the failures:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
      let message =
        "timed out after \(timeout) waiting for a path where \(description); received:\n\(received)\(failed)"
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      return nil
    }
    return latest
  }

  /// Waits until the latest path satisfies `predicate` and says whether it did within `timeout`, recording
  /// nothing: for tests that report a mismatch in their own words (KernelDifferentialTests.swift).
  package func waitForLatest(timeout: Duration, _ predicate: @escaping @Sendable (NetworkPath) -> Bool) async -> Bool {
    await wait(timeout: timeout) { path, _ in path.map(predicate) ?? false }
  }

  /// Waits until the source reports a failure; records an issue and returns `nil` after `timeout`.
  package func awaitFailure(timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation) async
    -> NetworkMonitorError?
  {
    guard await wait(timeout: timeout, { _, failures in !failures.isEmpty }) else {
      Issue.record("timed out after \(timeout) waiting for a failure", sourceLocation: sourceLocation)
      return nil
    }
    return failures.first
  }

  private func wait(
    timeout: Duration, _ matches: @escaping @Sendable (NetworkPath?, [NetworkMonitorError]) -> Bool
  ) async -> Bool {
    let id = state.withLockedValue { state -> Int in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    let timer = Task { [self] in
      // Cancelled: the wait ended first.
      guard (try? await Task.sleep(for: timeout)) != nil else { return }
      let waiter = state.withLockedValue { state -> Waiter? in
        guard let waiter = state.waiters.removeValue(forKey: id) else {
          // Not registered yet: the wait finds this when it registers, instead of waiting forever.
          state.expired.insert(id)
          return nil
        }
        return waiter
      }
      waiter?.continuation.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let answer = state.withLockedValue { state -> Bool? in
        if matches(state.paths.last, state.failures) { return true }
        if state.expired.remove(id) != nil { return false }
        state.waiters[id] = Waiter(matches: matches, continuation: continuation)
        return nil
      }
      if let answer { continuation.resume(returning: answer) }
    }
  }
}
