import Dispatch
import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The first reason to stop netstatus (a stop signal, closed output, a write error, the monitor's error), awaited
/// once, with the exit code it stands for and the message to print, if any.
///
/// The stop signals are SIGINT, SIGTERM and SIGQUIT. ``NetStatusCommand/main(_:)`` blocks them in every thread
/// before making any (``blockStopSignals()``) and never unblocks them, so that one arriving before this exists waits,
/// pending, instead of being lost or killing the process, and none reaches a handler: SIGQUIT never starts Swift's
/// crash backtracer. They reach it through ``StopSignalDelivery`` (a signalfd and a thread of its own on Linux).
///
/// A command that ends on its own goes through ``finish(_:)`` last: a stop signal that came before wins, so that
/// `show` and `wait` never exit 0 once stopped (`netstatus wait && start` does not start), at any moment of their run.
final class StopSignal: Sendable {
  /// SIGINT (Ctrl-C), SIGTERM and SIGQUIT (Ctrl-\).
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGQUIT]

  private struct State {
    var code: NetStatusCommand.ExitCode?
    var message: String?
    /// The command finished on its own (``finish(_:)``): a signal after that changes nothing.
    var finished = false
    var waiters: [UInt64: CheckedContinuation<NetStatusCommand.ExitCode?, Never>] = [:]
    var cancelledWaiters: Set<UInt64> = []
    var nextWaiter: UInt64 = 0
  }

  private let state = Locked(State())
  /// Signalled once, by the first `fire`, for ``waitBlocking()``.
  private let stopped = DispatchSemaphore(value: 0)
  /// What brings the stop signals here; read only under `state`'s lock.
  private let delivery: StopSignalDelivery?
  /// What a stop signal ends the command with.
  private let signalCode: @Sendable (Int32) -> NetStatusCommand.ExitCode

  /// Blocks the stop signals in the calling thread, and so in every thread it creates afterwards. On Linux,
  /// libdispatch's signal sources read blocked signals from a signalfd; call this first thing in `main`.
  static func blockStopSignals() {
    #if os(Linux)
      var set = sigset_t()
      sigemptyset(&set)
      for number in signals { sigaddset(&set, number) }
      pthread_sigmask(SIG_BLOCK, &set, nil)
    #endif
  }

  /// Stops on the stop signals, instead of letting them kill the process, with the exit code `code(signal)`.
  init(code: @escaping @Sendable (Int32) -> NetStatusCommand.ExitCode) {
    signalCode = code
    delivery = StopSignalDelivery(signals: Self.signals)
    if let delivery, !delivery.startWatching({ [weak self] in self?.takePendingSignal() ?? true }) {
      StandardOutput.error("cannot watch for stop signals: a thread could not start")
    }
  }

  /// The waiters a stop resumes (outside the lock), once it is recorded.
  private typealias Waiters = [CheckedContinuation<NetStatusCommand.ExitCode?, Never>]

  /// Takes a stop signal that has arrived, if any, and stops with its code. Returns whether there is nothing more to
  /// watch for: stopped, or finished on its own.
  ///
  /// The signal is taken and its stop recorded under one hold of the lock: recorded after the lock was let go, a
  /// ``finish(_:)`` in between found neither the signal (taken) nor the stop (not yet recorded), and a `wait` stopped
  /// by SIGINT exited 0.
  private func takePendingSignal() -> Bool {
    let taken = state.withLockedValue { state -> (over: Bool, stop: (NetStatusCommand.ExitCode, Waiters)?) in
      if state.code != nil || state.finished { return (true, nil) }
      guard let signal = delivery?.readPending() else { return (false, nil) }
      let code = signalCode(signal)
      return (true, Self.record(code, message: nil, in: &state).map { (code, $0) })
    }
    if let (code, waiters) = taken.stop { act(code, waiters) }
    return taken.over
  }

  /// Ends a command that finished on its own with `code`, or with the stop's code if it stopped first: a stop
  /// signal that has arrived by now, even one not handled yet, counts as first. Call it last, once the command's
  /// output is written: a signal that comes while it is written then still wins, and one that comes later finds the
  /// command finished.
  func finish(_ own: NetStatusCommand.ExitCode) -> NetStatusCommand.ExitCode {
    let stop = state.withLockedValue { state -> (NetStatusCommand.ExitCode, Waiters)? in
      guard state.code == nil else { return nil }
      if let signal = delivery?.readPending() {
        let code = signalCode(signal)
        return Self.record(code, message: nil, in: &state).map { (code, $0) }
      }
      state.finished = true
      return nil
    }
    if let (code, waiters) = stop { act(code, waiters) }
    return code ?? own
  }

  /// Stops with `code`, and `message` to print on standard error, unless already stopped. Writes to standard
  /// output under way give up rather than wait for a reader that stalls.
  func fire(_ code: NetStatusCommand.ExitCode, message: String? = nil) {
    guard let waiters = state.withLockedValue({ Self.record(code, message: message, in: &$0) }) else { return }
    act(code, waiters)
  }

  /// Records the stop in `state`, unless one is recorded or the command finished: the waiters to resume, or `nil`.
  private static func record(_ code: NetStatusCommand.ExitCode, message: String?, in state: inout State) -> Waiters? {
    guard state.code == nil, !state.finished else { return nil }
    state.code = code
    state.message = message
    defer { state.waiters = [:] }
    return Array(state.waiters.values)
  }

  /// What a recorded stop does, outside the lock: writes give up, start-up stops waiting, waiters resume.
  private func act(_ code: NetStatusCommand.ExitCode, _ waiters: Waiters) {
    StandardOutput.interruptWrites()
    // A monitor starting may wait for NetworkManager's first answer (up to its start-up budget): not any more.
    NetworkManagerStartUp.abandon()
    for waiter in waiters { waiter.resume(returning: code) }
    stopped.signal()
  }

  /// The exit code of the first stop, or `nil` while running.
  var code: NetStatusCommand.ExitCode? { state.withLockedValue { $0.code } }

  /// The message of the first stop, to print on standard error, if any.
  var message: String? { state.withLockedValue { $0.message } }

  /// Blocks the calling thread until the first stop: for a caller outside Swift concurrency.
  func waitBlocking() -> NetStatusCommand.ExitCode {
    stopped.wait()
    return code ?? .success
  }

  /// Blocks the calling thread until the first stop or until `timeout` has passed, whichever comes first: the
  /// stop's exit code, or `nil` when the time ran out.
  func waitBlocking(timeout: Duration) -> NetStatusCommand.ExitCode? {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
    guard stopped.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
    // Signalled once, by the first stop: left signalled for the next wait.
    stopped.signal()
    return code ?? .success
  }

  /// Waits for the first stop.
  func wait() async -> NetStatusCommand.ExitCode {
    await waitUnlessCancelled() ?? code ?? .success
  }

  /// Waits for the first stop; `nil` if the task is cancelled first.
  func waitUnlessCancelled() async -> NetStatusCommand.ExitCode? {
    let id = state.withLockedValue { state -> UInt64 in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLockedValue { state -> NetStatusCommand.ExitCode?? in
          if let code = state.code { return .some(code) }
          if state.cancelledWaiters.remove(id) != nil { return .some(nil) }
          state.waiters[id] = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiter = state.withLockedValue { state -> CheckedContinuation<NetStatusCommand.ExitCode?, Never>? in
        if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
        state.cancelledWaiters.insert(id)
        return nil
      }
      waiter?.resume(returning: nil)
    }
  }

  /// How ``race(_:)`` ended.
  enum RaceOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case stopped(NetStatusCommand.ExitCode)
  }

  /// Runs `body` until it returns or netstatus stops, whichever comes first; `body` is cancelled when the stop
  /// comes first (it must then end: the async sequences of NetStatus do).
  func race<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) async -> RaceOutcome<Value> {
    await withTaskGroup(of: RaceOutcome<Value>?.self) { group in
      group.addTask { .finished(await body()) }
      group.addTask { await self.waitUnlessCancelled().map { .stopped($0) } }
      var outcome: RaceOutcome<Value>?
      while outcome == nil, let next = await group.next() {
        outcome = next
        group.cancelAll()
      }
      // The body always finishes, so the loop always ends with an outcome.
      return outcome ?? .stopped(code ?? .failure)
    }
  }
}

/// Stops netstatus with a failure when the monitor fails, with the monitor's error as the message.
final class StopOnError: Sendable {
  /// Takes over the monitor's error handler (on a private serial queue).
  init(monitor: NetworkMonitor, stop: StopSignal) {
    monitor.handlerQueue = DispatchQueue(label: "netstatus.errors")
    monitor.errorHandler = { error in stop.fire(.failure, message: CommandMessages.text(error)) }
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
