import CNetStatusShim
import Foundation
import Glibc
import Synchronization

/// A process the benchmark started (posix_spawn), whose standard output a dedicated thread reads with
/// blocking `read(2)`, timestamping each line the moment the read returns: no run loop, no dispatch hop
/// between the pipe and the timestamp.
final class ChildProcess: Sendable {
  /// The process ID. The benchmark signals only this PID.
  let pid: pid_t
  /// When `posix_spawn` was called (``Monotonic``).
  let spawnedAt: Int64
  /// Standard output, a line at a time (the lines `keep` accepted).
  let lines = EventLog()
  /// Every line read so far, kept or not.
  var linesRead: Int { lineCount.load(ordering: .relaxed) }
  private let lineCount = Atomic<Int>(0)
  /// The command line, for messages.
  let commandLine: String

  /// Starts `arguments[0]` (a path) with the rest as arguments. Standard input is /dev/null, standard error
  /// is inherited unless `quietErrors`. Only lines `keep` accepts go to ``lines``.
  init(
    _ arguments: [String], quietErrors: Bool = false, keep: @escaping @Sendable (String) -> Bool = { _ in true }
  ) throws {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    let spawned = try Self.spawn(
      arguments, errorFile: quietErrors ? "/dev/null" : nil,
      environment: environment.map { "\($0.key)=\($0.value)" })
    self.pid = spawned.pid
    self.spawnedAt = spawned.spawnedAt
    self.commandLine = arguments.joined(separator: " ")
    let readFD = spawned.output
    let lines = self.lines
    let reader = Thread { [self] in
      var pending: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 256 * 1024)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
        let time = Monotonic.now()
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        pending += chunk[0..<count]
        // Every complete line, then the consumed bytes dropped at once: a chunk of thousands of lines (ip
        // monitor during a batch) costs time in proportion to its length.
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[start..<newline], as: UTF8.self)
          self.lineCount.add(1, ordering: .relaxed)
          if keep(line) { lines.append(line, at: time) }
          start = newline + 1
        }
        pending.removeSubrange(0..<start)
      }
      close(readFD)
    }
    reader.name = "reader \(pid)"
    reader.start()
  }

  /// Sends `signal` to the process.
  func signal(_ signal: Int32) { kill(pid, signal) }

  /// Ends the process (SIGTERM, then SIGKILL after a second) and reaps it.
  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<100 {
      if waitpid(pid, &status, WNOHANG) == pid { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
  }

  /// Waits for the process to exit by itself; its exit status, or `nil` if it was killed by a signal.
  @discardableResult
  func waitForExit() -> Int32? {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
  }

  /// Waits for the first line (``lines``); throws after `timeoutMilliseconds`.
  func waitForFirstLine(timeoutMilliseconds: Int = 10_000) throws {
    guard lines.wait(forCount: 1, timeoutMilliseconds: timeoutMilliseconds) else {
      throw BenchError("no output from '\(commandLine)' within \(timeoutMilliseconds) ms")
    }
  }
}

/// A benchmark could not run; the message says why.
struct BenchError: Error, CustomStringConvertible {
  /// What went wrong.
  var description: String
  init(_ description: String) { self.description = description }
}

extension ChildProcess {
  /// Starts `arguments[0]` (a path) with the rest as arguments: standard input /dev/null, standard output a new
  /// pipe whose read end is returned (close it), standard error to `errorFile` (created or truncated) or, when
  /// `nil`, inherited. `environment` (`NAME=value` entries) replaces this process's when given.
  static func spawn(_ arguments: [String], errorFile: String?, environment: [String]? = nil) throws -> (
    pid: pid_t, output: Int32, spawnedAt: Int64
  ) {
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
    for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // the child gets only the dup2'd end
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    if let errorFile { posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
    // Nothing else of the benchmark's (its netlink sockets, other children's pipes) reaches the child, whose
    // descriptors are counted.
    cns_spawn_close_from(&actions, 3)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer { for pointer in envp ?? [] { free(pointer) } }
    var pid: pid_t = 0
    let spawnedAt = Monotonic.now()
    let result =
      envp.map { envp in posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) }
      ?? posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    close(pipeFDs[1])
    guard result == 0 else {
      close(pipeFDs[0])
      throw BenchError("posix_spawn \(arguments[0]): \(String(cString: strerror(result)))")
    }
    return (pid, pipeFDs[0], spawnedAt)
  }
}
