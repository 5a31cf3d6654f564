import Foundation
import Glibc

/// Runs a command to completion with its standard output drained through a pipe (lines counted, not kept),
/// and measures it: wall time, CPU time (`wait4`) and peak RSS (GNU time's `%M`).
///
/// Peak RSS cannot come from `wait4` here: glibc's posix_spawn starts the child with CLONE_VM | CLONE_VFORK,
/// so until its exec the child runs in this process's memory, and the kernel keeps that memory's high-water
/// mark as the child's `ru_maxrss`: every child would seem at least as large as this benchmark. So the
/// command runs under /usr/bin/time, which forks it from a process of a couple of MB, and `%M` is the
/// command's own. Without /usr/bin/time, peak RSS is not reported.
enum TimedCommand {
  /// One run.
  struct Result: Codable, Sendable {
    /// posix_spawn to wait4's return, in milliseconds.
    var wallMilliseconds: Double
    /// User + system CPU time (`ru_utime` + `ru_stime`; under /usr/bin/time, its own share included, about
    /// a millisecond), in milliseconds.
    var cpuMilliseconds: Double
    /// Peak RSS (`%M` of /usr/bin/time), in KiB; `nil` without /usr/bin/time.
    var peakResidentKilobytes: Int?
    /// Lines the command wrote to standard output.
    var lines: Int
  }

  /// GNU time, if installed.
  static let time: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

  /// Runs `command[0]` (a path) with the rest as arguments; standard input is /dev/null, standard error
  /// goes to a file that the error quotes if the command fails.
  static func run(_ command: [String]) throws -> Result {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("netstatus-bench-\(UUID())").path
    let errors = temporary + ".err"
    let peakFile = temporary + ".rss"
    defer {
      unlink(errors)
      unlink(peakFile)
    }
    let arguments = time.map { [$0, "-f", "%M", "-o", peakFile] + command } ?? command
    let (pid, output, started) = try ChildProcess.spawn(arguments, errorFile: errors)
    defer { close(output) }

    var lines = 0
    var chunk = [UInt8](repeating: 0, count: 256 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      for byte in chunk[0..<count] where byte == UInt8(ascii: "\n") { lines += 1 }
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let ended = Monotonic.now()
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw BenchError("\(command.joined(separator: " ")) failed (wait status \(status)): \(message)")
    }
    func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
    return Result(
      wallMilliseconds: Double(ended - started) / 1e6,
      cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
      peakResidentKilobytes: time == nil
        ? nil
        : (try? String(contentsOfFile: peakFile, encoding: .utf8)).flatMap {
          Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        },
      lines: lines)
  }
}
