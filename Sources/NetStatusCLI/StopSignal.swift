import Dispatch
import Foundation
import NetStatus
import Synchronization

/// The first reason to stop `watch` (a signal, closed output, an error), awaited once.
final class StopSignal: Sendable {
  private struct State {
    var code: NetStatusCommand.ExitCode?
    var waiter: CheckedContinuation<NetStatusCommand.ExitCode, Never>?
  }

  private let state = Mutex(State())
  /// Signalled once, by the first `fire`, for ``waitBlocking()``.
  private let stopped = DispatchSemaphore(value: 0)
  /// Written once in `init`, never mutated: the sources only need to stay alive.
  nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

  /// Stops on these signals, handled on a private queue instead of killing the process.
  init(signals: [Int32]) {
    let queue = DispatchQueue(label: "netstatus.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      sources.append(DispatchSource.makeSignalSource(signal: number, queue: queue))
    }
    self.sources = sources
    for source in sources {
      source.setEventHandler { [weak self] in self?.fire(.success) }
      source.resume()
    }
  }

  /// Stops with `code`, unless already stopped.
  func fire(_ code: NetStatusCommand.ExitCode) {
    let (first, waiter) = state.withLockedValue {
      state -> (Bool, CheckedContinuation<NetStatusCommand.ExitCode, Never>?) in
      guard state.code == nil else { return (false, nil) }
      state.code = code
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    guard first else { return }
    waiter?.resume(returning: code)
    stopped.signal()
  }

  /// Blocks the calling thread until the first stop: for a caller outside Swift concurrency.
  func waitBlocking() -> NetStatusCommand.ExitCode {
    stopped.wait()
    return state.withLockedValue { $0.code } ?? .success
  }

  /// Waits for the first stop.
  func wait() async -> NetStatusCommand.ExitCode {
    await withCheckedContinuation { continuation in
      let code = state.withLockedValue { state -> NetStatusCommand.ExitCode? in
        if let code = state.code { return code }
        state.waiter = continuation
        return nil
      }
      if let code { continuation.resume(returning: code) }
    }
  }
}

/// Remembers the monitor's error and stops `watch` with a failure.
final class StopOnError: Sendable {
  private let stored = Mutex<NetworkMonitorError?>(nil)
  private let stop: StopSignal

  /// Takes over the monitor's error handler (on a private serial queue).
  init(monitor: NetworkMonitor, stop: StopSignal) {
    self.stop = stop
    monitor.handlerQueue = DispatchQueue(label: "netstatus.errors")
    monitor.errorHandler = { [self] error in report(error) }
  }

  var error: NetworkMonitorError? { stored.withLockedValue { $0 } }

  func report(_ error: NetworkMonitorError) {
    stored.withLockedValue { $0 = error }
    stop.fire(.failure)
  }

  /// Prints the error that stopped the watch, if any, to standard error.
  func printError() {
    if let error { StandardOutput.error(error.description) }
  }
}

/// Local time stamps for `watch` lines: `2026-11-29 14:55:01.123`.
enum Timestamp {
  static func now() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var local = tm()
    localtime_r(&seconds, &local)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let millis = Int(now.tv_nsec / 1_000_000)
    let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(local.tm_year + 1900)-\(two(local.tm_mon + 1))-\(two(local.tm_mday)) "
      + "\(two(local.tm_hour)):\(two(local.tm_min)):\(two(local.tm_sec)).\(ms)"
  }
}
