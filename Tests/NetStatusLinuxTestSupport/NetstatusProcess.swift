import Foundation
import NetStatusCore
import NetStatusTestSupport
import ProcFileSupport

/// The built `netstatus` binary run as a ``ChildProcess``.
package final class NetstatusProcess: Sendable {
  package typealias Exit = ChildProcess.Exit

  /// `netstatus`, built beside the test bundle.
  package static let binaryPath: String = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("netstatus").path
  }()

  private let child: ChildProcess

  /// The standard output, a line at a time.
  package var lines: Recorder<String> { child.lines }
  /// Everything written to standard error.
  package var errorOutput: String { child.errorOutput }
  /// Whether the process has ended (without waiting).
  package var hasExited: Bool { child.hasExited }
  /// Waits until standard error holds `text`.
  package func waitForErrorOutput(containing text: String) async throws {
    try await child.waitForErrorOutput(containing: text)
  }

  /// A `watch --json` line without its last member, `"time":"YYYY-MM-DDTHH:MM:SS.ffffffZ"`; `nil` if it has none.
  /// A snapshot (`show`) has no time: it is returned as it is.
  package static func withoutTime(_ line: String) -> String? {
    guard let range = line.range(of: #","time":""#, options: .backwards) else { return line }
    let stamp = line[range.upperBound...]
    guard stamp.count == 29, stamp.hasSuffix("Z\"}") else { return nil }
    return String(line[..<range.lowerBound]) + "}"
  }

  /// Starts the binary (or `executable`) with `arguments`; `standardOutput`, when given, is the descriptor it
  /// writes to instead of a pipe read into ``lines`` (see ``ChildProcess``).
  package init(executable: String = NetstatusProcess.binaryPath, _ arguments: [String], standardOutput: Int32? = nil)
    throws
  {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    // Under `swift test --sanitize=thread` the binary is instrumented too, and TSan's runtime sleeps one second
    // before exiting by default (atexit_sleep_ms): that would be measured as netstatus's own latency.
    let tsan = environment["TSAN_OPTIONS"].map { $0 + " " } ?? ""
    environment["TSAN_OPTIONS"] = tsan + "atexit_sleep_ms=0"
    child = try ChildProcess(
      executable: executable, arguments, environment: environment, standardOutput: standardOutput)
  }

  /// When the exit was noticed, once ``waitForExit(timeout:)`` has returned.
  package var exitTime: ContinuousClock.Instant? { child.exitTime }

  /// Waits for the process to end and its output to be complete; throws ``TimedOut`` (and kills it) after
  /// `timeout`.
  package func waitForExit(timeout: Duration = .seconds(20)) async throws -> Exit {
    try await child.waitForExit(timeout: timeout)
  }

  /// Waits until the process blocks `signals` (`SigBlk` in /proc/PID/status).
  package func waitUntilBlocking(_ signals: [Int32]) async throws {
    guard try await waitUntilBlockingOrExit(signals) else {
      throw TimedOut(what: "netstatus to block its stop signals (it exited first)", timeout: .zero)
    }
  }

  /// Waits until the process blocks `signals` (`SigBlk` in /proc/PID/status), or until it has exited (a command that
  /// ends on its own may end before a poll sees it): whether it was seen blocking them.
  package func waitUntilBlockingOrExit(_ signals: [Int32]) async throws -> Bool {
    let pid = child.processIdentifier
    let wanted = signals.reduce(UInt64(0)) { $0 | (1 << UInt64($1 - 1)) }
    return try await withTimeout(.seconds(30), "netstatus to block its stop signals") {
      while true {
        if self.child.hasExited { return false }
        let status = readProcFile("/proc/\(pid)/status") ?? ""
        let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
          .flatMap { UInt64($0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
        if let blocked, blocked & wanted == wanted { return true }
        try await Task.sleep(for: .milliseconds(1))  // paced: the process polled needs the CPU to get there
      }
    }
  }

  /// The child's process id.
  package var processIdentifier: Int32 { child.processIdentifier }

  /// Decodes output line `index` as a path.
  package func path(at index: Int) throws -> NetworkPath {
    try JSONDecoder().decode(NetworkPath.self, from: Data(lines.values[index].utf8))
  }

  /// The names (`comm`, at most 15 bytes) of the process's threads now.
  package func threadNames() -> [String] {
    let pid = child.processIdentifier
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return threads.compactMap { thread in
      readProcFile("/proc/\(pid)/task/\(thread)/comm")?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// Sends a signal to the process.
  package func signal(_ number: Int32) { child.signal(number) }

  /// Kills the process if it is still running (cleanup).
  package func terminate() { child.terminate() }
}
