import Foundation
import NetStatus

/// `watch` without a probe: each line is printed on the thread that publishes the path (the rtnetlink
/// thread on Linux), with no hop to another thread between the kernel's notification and the write. That
/// keeps watch's latency near `ip monitor`'s (see the README's Benchmarks). A slow reader blocks that
/// thread; the source then coalesces what changed meanwhile.
///
/// It needs no Swift concurrency: ``NetStatusCommand/main(_:)`` waits for ``stop`` with
/// ``StopSignal/waitBlocking()``, ``NetStatusCommand/run(_:)`` with ``StopSignal/wait()``.
struct PlainWatch {
  /// What ends the watch: SIGINT or SIGTERM, standard output closed, or the monitor's error.
  let stop = StopSignal(signals: [SIGINT, SIGTERM])
  private let monitor: NetworkMonitor
  private let errors: StopOnError
  private let printer: UInt64

  /// Starts printing: the current path first, then each change.
  init(_ monitor: NetworkMonitor, _ output: NetStatusCommand.Output) {
    let stop = self.stop
    self.monitor = monitor
    StandardOutput.watchForClose { stop.fire(.success) }
    errors = StopOnError(monitor: monitor, stop: stop)
    let json = output.options.json
    printer = monitor.addSynchronousSubscriber { path in
      let written = json ? StandardOutput.write(line: path.jsonLine) : StandardOutput.line(output.line(path, nil))
      if !written {
        stop.fire(.success)  // standard output was closed
      }
    }
  }

  /// Stops printing, reports the monitor's error if that is what stopped the watch, and returns `code`.
  func finish(_ code: NetStatusCommand.ExitCode) -> NetStatusCommand.ExitCode {
    monitor.removeSynchronousSubscriber(printer)
    errors.printError()
    return code
  }
}
