import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `watch` without a probe: each line is printed on the thread that publishes the path (the rtnetlink
/// thread on Linux), with no hop to another thread between the kernel's notification and the write. That
/// keeps watch's latency near `ip monitor`'s (see the README's Benchmarks). A slow reader blocks that
/// thread until the reader catches up or netstatus stops (the write gives up then); the source coalesces
/// what changed meanwhile.
///
/// It needs no Swift concurrency: ``NetStatusCommand/main(_:)`` waits for the session's stop with
/// ``StopSignal/waitBlocking()``, ``NetStatusCommand/run(_:)`` with ``StopSignal/wait()``.
struct PlainWatch {
  private let stop: StopSignal
  private let monitor: NetworkMonitor
  private let printer: UInt64
  /// `--textfile`'s file, if given.
  let textfile: TextfileExporter?

  /// Starts printing: the current path first, then each change. The watch ends with the session's stop: a stop
  /// signal, standard output closed or failing, or the monitor's error.
  init(_ session: NetStatusCommand.Session) {
    let (stop, output) = (session.stop, session.output)
    self.stop = stop
    self.monitor = session.monitor
    _ = StopOnError(monitor: monitor, stop: stop)
    let json = output.options.json
    let textfile = output.options.textfile.map {
      TextfileExporter(path: $0, netns: output.options.networkNamespace)
    }
    self.textfile = textfile
    printer = monitor.addSynchronousSubscriber { path in
      var outcome = StandardOutput.Outcome.written
      if json {
        // "time": when the change was seen, after the documented keys.
        path.withJSONLine(time: .now()) {
          outcome = StandardOutput.write($0, to: STDOUT_FILENO)
        }
      } else {
        outcome = StandardOutput.line(output.line(path, nil, stamped: true))
      }
      // A line written, the usual outcome, is checked here without a call.
      guard outcome == .written || Self.handle(outcome, stop: stop) else { return }
      if let failure = textfile?.update(path: path, connectivity: nil) { stop.fire(.failure, message: failure) }
    }
    // After the first line, which the subscription writes at once when the path is known: the watcher's thread
    // is not on the way to it. A reader gone before is seen at once by its poll(2), or by the first write.
    StandardOutput.watchForClose { stop.fire(.success) }
  }

  /// Stops the watch when a line could not be written: cleanly when its reader went away, with a failure (and
  /// one line on standard error) when the write failed. Returns whether watching goes on.
  static func handle(_ outcome: StandardOutput.Outcome, stop: StopSignal) -> Bool {
    switch outcome {
    case .written: return true
    case .readerGone: stop.fire(.success)
    case .interrupted: break  // already stopping
    case .failed(let code): stop.fire(.failure, message: StandardOutput.failureMessage(code))
    }
    return false
  }

  /// Blocks the calling thread until the session stops (rewriting `--textfile`'s file meanwhile, if given).
  func waitBlocking() -> NetStatusCommand.ExitCode {
    textfile?.refreshBlocking(until: stop) ?? stop.waitBlocking()
  }

  /// Waits until the session stops (rewriting `--textfile`'s file meanwhile, if given).
  func wait() async -> NetStatusCommand.ExitCode {
    if let textfile { return await textfile.refreshing(until: stop) }
    return await stop.wait()
  }

  /// Stops printing, reports what stopped the watch if it was an error, and returns `code`.
  func finish(_ code: NetStatusCommand.ExitCode) -> NetStatusCommand.ExitCode {
    monitor.removeSynchronousSubscriber(printer)
    if let message = stop.message { StandardOutput.error(message) }
    return code
  }
}
