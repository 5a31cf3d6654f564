import Dispatch
import Foundation
import NetStatus

/// `netstatus`: show the path, watch it change, or wait until online.
public enum NetStatusCommand {
  /// Exit codes, as nm-online uses them.
  public enum ExitCode: Int32, Sendable {
    /// Success; for `wait`, online.
    case success = 0
    /// `wait` timed out.
    case timedOut = 1
    /// A usage or system error.
    case failure = 2
  }

  /// The process's entry point: runs the command line (without the program name) and exits with its code.
  ///
  /// `watch` without `--probe` runs without Swift concurrency: lines are printed on the thread that publishes
  /// the path and the main thread sleeps until the watch stops (a signal, standard output closed, or the
  /// monitor's error). An idle `watch` then makes no wake-ups at all:
  /// libdispatch's thread-pool monitor, a timer that fires every second for the life of the process, starts
  /// with the first task run on the global executor. Everything else runs as ``run(_:)`` does.
  public static func main(_ arguments: [String]) -> Never {
    if let options = try? CommandLineOptions.parse(arguments), options.command == .watch, options.probe == nil,
      !options.help, !options.version
    {
      exit(watchOnThisThread(arguments).rawValue)
    }
    Task { exit(await run(arguments).rawValue) }
    dispatchMain()
  }

  /// `watch` without a probe, on the calling thread, which sleeps until the watch stops. The monitors are
  /// stopped and released when it returns, before the process exits, so that leak checkers see none of them
  /// (the stop signal stays, held by the thread that watches standard output).
  static func watchOnThisThread(_ arguments: [String]) -> ExitCode {
    switch prepare(arguments) {
    case .finished(let code): return code
    case .ready(let session):
      defer { session.end() }
      let watch = PlainWatch(session.monitor, session.output)
      return watch.finish(watch.stop.waitBlocking())
    }
  }

  /// Runs the command line (without the program name) and returns the exit code.
  public static func run(_ arguments: [String]) async -> ExitCode {
    switch prepare(arguments) {
    case .finished(let code): return code
    case .ready(let session):
      defer { session.end() }
      return await execute(session)
    }
  }

  /// What `prepare` leaves: an exit code already (help, version, a usage or start-up error), or a running
  /// monitor to use.
  enum Prepared {
    case finished(ExitCode)
    case ready(Session)
  }

  /// A started monitor, the probe's monitor when probing, and how to print.
  struct Session: Sendable {
    var monitor: NetworkMonitor
    var output: Output

    /// Stops the monitors.
    func end() {
      output.connectivity?.stopMonitoring()
      monitor.stopMonitoring()
    }
  }

  /// Parses the arguments, answers help and version, and starts the monitors.
  static func prepare(_ arguments: [String]) -> Prepared {
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
    } catch {
      StandardOutput.error(error.description)
      return .finished(.failure)
    }
    if options.version {
      StandardOutput.line(HelpText.version)
      return .finished(.success)
    }
    if options.help {
      StandardOutput.line(HelpText.text(for: options.command))
      return .finished(.success)
    }
    StandardOutput.ignoreBrokenPipeSignal()
    let monitor: NetworkMonitor
    do {
      monitor = try makeMonitor(options)
      // Nothing here observes notifications, and `main` may never run the main queue they are posted on.
      monitor.postsNotifications = false
      try monitor.start()
    } catch {
      StandardOutput.error(error.description)
      return .finished(.failure)
    }
    // Only with --probe: no traffic leaves the machine unless the user gave a URL.
    let connectivity = options.probe.map { ConnectivityMonitor(monitor: monitor, probe: $0) }
    connectivity?.startMonitoring()
    let style = PathFormatter.Style.detect(
      isTerminal: StandardOutput.isTerminal, environment: ProcessInfo.processInfo.environment)
    let output = Output(options: options, formatter: PathFormatter(style: style), connectivity: connectivity)
    return .ready(Session(monitor: monitor, output: output))
  }

  static func execute(_ session: Session) async -> ExitCode {
    switch session.output.options.command {
    case .show: return await show(session.monitor, session.output)
    case .watch: return await watch(session.monitor, session.output)
    case .wait: return await wait(session.monitor, session.output)
    }
  }

  /// How to print paths (and connectivity, when probing) for the options given.
  struct Output: Sendable {
    var options: CommandLineOptions
    var formatter: PathFormatter
    var connectivity: ConnectivityMonitor?

    /// What the probe found now, or `nil` when not probing.
    var report: ConnectivityReport? { connectivity.map(ConnectivityReport.init) }

    func line(_ path: NetworkPath, _ report: ConnectivityReport?) -> String {
      options.json
        ? PathFormatter.json(path, connectivity: report)
        : formatter.line(path, connectivity: report, time: Timestamp.now())
    }
  }

  static func makeMonitor(_ options: CommandLineOptions) throws(NetworkMonitorError) -> NetworkMonitor {
    guard let namespace = options.networkNamespace else { return NetworkMonitor() }
    #if os(Linux)
      return try NetworkMonitor(networkNamespace: namespace)
    #else
      throw .unsupportedPlatform("--netns \(namespace) (network namespaces exist only on Linux)")
    #endif
  }

  static func show(_ monitor: NetworkMonitor, _ output: Output) async -> ExitCode {
    let path: NetworkPath
    do {
      path = try await monitor.waitForPath(timeout: .seconds(10))
    } catch {
      StandardOutput.error(error.description)
      return .failure
    }
    var report: ConnectivityReport?
    if let connectivity = output.connectivity {
      // The first check starts with the first path; it ends within the probe's timeout.
      let limit = connectivity.probe.timeout + .seconds(1)
      _ = await firstState(of: connectivity, within: limit) { $0 != .unknown }
      report = ConnectivityReport(connectivity)
    }
    let text =
      output.options.json
      ? PathFormatter.json(path, connectivity: report) : output.formatter.table(path, connectivity: report)
    StandardOutput.line(text)
    return .success
  }

  static func watch(_ monitor: NetworkMonitor, _ output: Output) async -> ExitCode {
    guard output.connectivity != nil else {
      let watch = PlainWatch(monitor, output)
      return watch.finish(await watch.stop.wait())
    }
    // With a probe, a line is due on a change of the path or of the connectivity state.
    let stop = StopSignal(signals: [SIGINT, SIGTERM])
    StandardOutput.watchForClose { stop.fire(.success) }
    let errors = StopOnError(monitor: monitor, stop: stop)
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity)
    let printer = Task {
      var last: (NetworkPath, ConnectivityReport?)?
      for await _ in changes.stream {
        guard let path = monitor.currentPath else { continue }
        // One line per change of the path or of the connectivity state (not of the check's details).
        let report = output.report
        if let last, last.0 == path, last.1?.state == report?.state { continue }
        last = (path, report)
        if !StandardOutput.line(output.line(path, report)) {
          stop.fire(.success)  // standard output was closed
          return
        }
      }
    }
    let code = await stop.wait()
    printer.cancel()
    changes.cancel()
    errors.printError()
    return code
  }

  static func wait(_ monitor: NetworkMonitor, _ output: Output) async -> ExitCode {
    let options = output.options
    let condition = options.waitCondition
    let connectivity = options.requireInternet ? output.connectivity : nil
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity)
    defer { changes.cancel() }
    let met: NetworkPath? = await withDeadline(options.timeout) {
      for await _ in changes.stream {
        guard let path = monitor.currentPath else {
          if monitor.lastError != nil { return nil }
          continue
        }
        let internet = connectivity.map { $0.connectivity.isFull } ?? true
        if condition.isMet(by: path), internet { return path }
        if monitor.lastError != nil { return nil }
      }
      return nil
    }
    if let met {
      if !options.quiet { StandardOutput.line(output.line(met, output.report)) }
      return .success
    }
    if let error = monitor.lastError {
      StandardOutput.error(error.description)
      return .failure
    }
    var last = monitor.currentPath.map { "last path: \($0)" } ?? "no path was reported"
    if let report = output.report {
      last += "; internet: \(report.state)" + (report.check.map { " (\($0.detail))" } ?? "")
    }
    let limit = options.timeout.map { "\($0)" } ?? "forever"
    let goal = condition.description + (connectivity != nil ? " and full internet access" : "")
    StandardOutput.error("timed out after \(limit) waiting for \(goal); \(last)")
    return .timedOut
  }

  /// The first state of `connectivity` that satisfies `predicate`, or `nil` after `limit`.
  static func firstState(
    of connectivity: ConnectivityMonitor, within limit: Duration,
    where predicate: @escaping @Sendable (ConnectivityState) -> Bool
  ) async -> ConnectivityState? {
    let states = connectivity.states
    return await withDeadline(limit) {
      for await state in states where predicate(state) { return state }
      return nil
    }
  }
}
