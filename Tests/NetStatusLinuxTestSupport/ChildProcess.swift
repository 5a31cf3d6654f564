import Dispatch
import Foundation
import NetStatusTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A child process for tests, with its standard output read a line at a time.
///
/// Pipes are made close-on-exec and every spawn happens under one lock, so a pipe's write end never leaks
/// into another child (a long-lived `netstatus watch` holding a copy would keep the reader from ever seeing
/// end-of-file). Output is read by a thread per pipe until end-of-file, so the output of a process that has
/// exited is complete once ``waitForExit(timeout:)`` returns.
package final class ChildProcess: Sendable {
  package enum Exit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)
    package var description: String {
      switch self {
      case .exited(let code): "exit \(code)"
      case .signalled(let signal): "killed by signal \(signal)"
      }
    }
  }

  /// Serialises pipe creation, spawning and closing the parent's write ends across every test; counts the pipes made
  /// (not an empty value: Tests/NetStatusTests/LockDisciplineTests.swift says why).
  private static let spawnLock = Mutex<Int>(0)

  /// Standard output, a line at a time (empty when the caller gave a descriptor for standard output).
  package let lines = Recorder<String>()
  private let errorChunks = Recorder<String>()
  private let exits = Recorder<Exit>()
  /// When the exit was noticed (Foundation's termination handler: shortly after the process ended).
  private let exitTimes = Recorder<ContinuousClock.Instant>()
  /// The pipes read to end-of-file: 2, or 1 when the caller gave a descriptor for standard output.
  private let pipeCount: Int
  private let closedPipes = Recorder<Void>()
  /// Signalled once per pipe at end-of-file, for ``waitUntilExit()``, which must not depend on a task.
  private let closedSignal = DispatchSemaphore(value: 0)
  /// Signalled once by the termination handler, for ``waitUntilExit()``.
  private let exitSignal = DispatchSemaphore(value: 0)
  private let process: Process

  /// Everything written to standard error so far.
  package var errorOutput: String { errorChunks.values.joined() }

  /// Waits until standard error holds `text`; throws ``TimedOut`` after `timeout`.
  package func waitForErrorOutput(containing text: String, timeout: Duration = .seconds(30)) async throws {
    try await errorChunks.waitUntil(timeout: timeout, "standard error to say \"\(text)\"") {
      $0.joined().contains(text)
    }
  }
  /// The child's process id.
  package var processIdentifier: Int32 { process.processIdentifier }

  /// Starts `executable`.
  ///
  /// - Parameter standardOutput: A descriptor to give the child as its standard output instead of a pipe that
  ///   is read into ``lines``. It stays the caller's (make it close-on-exec, and close it after this returns).
  package init(
    executable: String, _ arguments: [String], environment: [String: String]? = nil, standardOutput: Int32? = nil
  ) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    self.process = process
    self.pipeCount = standardOutput == nil ? 2 : 1
    process.terminationHandler = { [exits, exitTimes, exitSignal] process in
      exitTimes.append(ContinuousClock.now)
      let status = process.terminationStatus
      exits.append(process.terminationReason == .exit ? .exited(status) : .signalled(status))
      exitSignal.signal()
    }
    let readEnds: (output: Int32?, error: Int32) = try Self.spawnLock.withLockedValue { pipes in
      let output = standardOutput == nil ? try Self.pipe() : nil
      let errorPipe = try Self.pipe()
      pipes += output == nil ? 1 : 2
      process.standardOutput = FileHandle(fileDescriptor: output?.write ?? standardOutput!, closeOnDealloc: false)
      process.standardError = FileHandle(fileDescriptor: errorPipe.write, closeOnDealloc: false)
      defer {
        if let output { close(output.write) }
        close(errorPipe.write)
      }
      do {
        try process.run()
      } catch {
        if let output { close(output.read) }
        close(errorPipe.read)
        throw error
      }
      return (output?.read, errorPipe.read)
    }
    if let output = readEnds.output { readLines(output) }
    Self.read(
      readEnds.error,
      onChunk: { [errorChunks] text, _ in
        errorChunks.append(text)
      },
      onEnd: { [closedPipes, closedSignal] in
        closedPipes.append(())
        closedSignal.signal()
      })
  }

  /// Reads standard output into ``lines``.
  private func readLines(_ descriptor: Int32) {
    Self.read(
      descriptor,
      onChunk: { [lines] text, pending in
        pending += text
        while let newline = pending.firstIndex(of: "\n") {
          lines.append(String(pending[..<newline]))
          pending.removeSubrange(...newline)
        }
      },
      onEnd: { [closedPipes, closedSignal] in
        closedPipes.append(())
        closedSignal.signal()
      })
  }

  /// A close-on-exec pipe, for a test that gives a child its own standard output.
  package static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    try spawnLock.withLockedValue { pipes in
      pipes += 1
      return try pipe()
    }
  }

  /// A close-on-exec pipe.
  private static func pipe() throws -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [-1, -1]
    guard Glibc.pipe(&descriptors) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return (descriptors[0], descriptors[1])
  }

  /// Reads `descriptor` on a thread of its own until end-of-file, then closes it.
  private static func read(
    _ descriptor: Int32, onChunk: @escaping @Sendable (String, inout String) -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    let thread = Thread {
      var pending = ""
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        onChunk(String(decoding: buffer[..<count], as: UTF8.self), &pending)
      }
      close(descriptor)
      onEnd()
    }
    thread.start()
  }

  /// Waits for the process to end and its output to be read to the end; kills it and throws ``TimedOut``
  /// after `timeout`.
  package func waitForExit(timeout: Duration = .seconds(20)) async throws -> Exit {
    do {
      try await exits.waitFor(count: 1, timeout: timeout, "the process to exit")
      try await closedPipes.waitFor(count: pipeCount, timeout: .seconds(30), "its output to end")
    } catch {
      terminate()
      throw error
    }
    releaseProcess()
    return exits.values[0]
  }

  /// When the exit was noticed, once ``waitForExit(timeout:)`` has returned.
  package var exitTime: ContinuousClock.Instant? { exitTimes.values.first }

  /// Waits for the process to end, blocking the calling thread (for synchronous helpers). Call it once.
  ///
  /// It waits for the termination handler, not with `Process.waitUntilExit()`: that one runs the run loop in
  /// 50 ms slices and sees the exit only at the end of a slice, so an `ip` command of 2 ms held the calling
  /// thread for about 50 ms. Kernel tests run thousands of them, most from async tests, on the two threads of
  /// Swift's cooperative pool (one per core here): the pool spent nearly all its time in those slices, and every
  /// other test's continuation waited behind them (measured: 46 ms against 3.5 ms a run).
  package func waitUntilExit() -> Exit {
    exitSignal.wait()
    for _ in 0..<pipeCount { closedSignal.wait() }
    releaseProcess()
    return exits.values[0]
  }

  /// Once the process has ended: breaks the cycle through which Foundation on Linux keeps every `Process`. Its
  /// `run()` adds a run-loop source that retains the `Process`, and only `waitUntilExit()` lets it go; called
  /// after the termination handler ran, that returns at once (the process is no longer running). Without it,
  /// every child awaited otherwise stayed allocated until exit: hundreds in a run, and once the synchronous helpers
  /// no longer called it either, the thousands of `ip` commands the kernel tests run pushed LeakSanitizer past the
  /// 5,000 leaks it considers, where its suppressions (`.ci/lsan.supp`) no longer covered them.
  private func releaseProcess() {
    process.waitUntilExit()
  }

  /// Whether the process has ended (without waiting, and without killing it).
  package var hasExited: Bool { !process.isRunning }

  /// Sends a signal to the process.
  package func signal(_ number: Int32) {
    kill(process.processIdentifier, number)
  }

  /// Kills the process if it is still running (cleanup).
  package func terminate() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
