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
/// keeps watch's latency near `ip monitor`'s (see the README's Benchmarks). A slow reader never blocks that
/// thread: what the pipe does not take waits for a writer thread of its own, coalesced once too much waits
/// (WatchOutput.swift), and `--textfile`'s file is updated before the line, so it shows the path whatever
/// standard output does.
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
    textfile?.start(stoppingOnFailure: stop)
    self.textfile = textfile
    // Lines that never make the rtnetlink thread wait for the reader (WatchOutput.swift).
    let lines = WatchOutput { _ = Self.handle($0, stop: stop) }
    printer = monitor.addSynchronousSubscriber { [weak monitor] path in
      // The path a failure publishes (the namespace deleted) is no change of the network: the watch ends with the
      // failure on standard error, and no `offline` line or value that never held (under --settle). That path is
      // unsatisfied, so a satisfied one needs no look at the monitor.
      if path.status != .satisfied, monitor?.lastError != nil { return }
      // The file first: it shows the path whatever standard output does.
      textfile?.update(path: path, connectivity: nil)
      var outcome = StandardOutput.Outcome.written
      if json {
        // "time": when the change was seen, after the documented keys.
        path.withJSONLine(time: .now()) { outcome = lines.write($0) }
      } else {
        outcome = lines.line(output.line(path, nil, stamped: true))
      }
      // A line written, the usual outcome, is checked here without a call.
      if outcome != .written { _ = Self.handle(outcome, stop: stop) }
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

  /// Blocks the calling thread until the session stops (`--textfile`'s file kept meanwhile, if given).
  func waitBlocking() -> NetStatusCommand.ExitCode {
    textfile?.keepBlocking(until: stop) ?? stop.waitBlocking()
  }

  /// Waits until the session stops (`--textfile`'s file kept meanwhile, if given).
  func wait() async -> NetStatusCommand.ExitCode {
    if let textfile { return await textfile.keep(until: stop) }
    return await stop.wait()
  }

  /// Stops printing, reports what stopped the watch if it was an error, and returns `code`.
  func finish(_ code: NetStatusCommand.ExitCode) -> NetStatusCommand.ExitCode {
    monitor.removeSynchronousSubscriber(printer)
    if let message = stop.message { StandardOutput.error(message) }
    return code
  }
}
