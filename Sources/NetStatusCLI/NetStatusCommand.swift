import Dispatch
import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `netstatus`: show the path, watch it change, or wait until online.
package enum NetStatusCommand {
  /// Exit codes: 0, 1 and 2 as nm-online uses them; 128 + the signal's number when a stop signal ended `show`
  /// or `wait` (what a shell reports for a process killed by that signal).
  package enum ExitCode: Int32, Sendable {
    /// Success; for `wait`, online; for `watch`, stopped by a stop signal or by its reader going away.
    case success = 0
    /// `wait` timed out.
    case timedOut = 1
    /// A usage or system error, including a failed write to standard output (one line on standard error).
    case failure = 2
    /// `show` or `wait` stopped by SIGINT (128 + 2).
    case interrupted = 130
    /// `show` or `wait` stopped by SIGQUIT (128 + 3), quietly: no backtrace, no core.
    case quit = 131
    /// `show` or `wait` stopped by SIGTERM (128 + 15).
    case terminated = 143

    /// What a stop signal ends `show` or `wait` with: 128 + its number.
    static func stopped(by signal: Int32) -> ExitCode {
      switch signal {
      case SIGINT: .interrupted
      case SIGQUIT: .quit
      default: .terminated
      }
    }
  }

  /// The process's entry point: runs the command line (without the program name) and exits with its code.
  ///
  /// `watch` without `--probe` runs without Swift concurrency: lines are printed on the thread that publishes
  /// the path and the main thread sleeps until the watch stops (a signal, standard output closed, or the
  /// monitor's error). An idle `watch` then makes no wake-ups at all:
  /// libdispatch's thread-pool monitor, a timer that fires every second for the life of the process, starts
  /// with the first task run on the global executor. Everything else runs as ``run(_:)`` does.
  ///
  /// Before anything else it keeps closed standard descriptors from being reused and blocks the stop signals
  /// (see ``StopSignal``), before any other thread exists, so that every thread inherits the mask. The main
  /// thread then never unblocks them: it does not call `dispatchMain()`, which on Linux parks the main thread
  /// with every signal unblocked, where a stop signal that came before the signal sources were registered would
  /// be ignored, and lost. Nothing in netstatus runs on the main queue. It also raises the soft limit on open
  /// descriptors to the hard limit (``DescriptorLimit``).
  package static func main(_ arguments: [String]) -> Never {
    StandardOutput.claimStandardDescriptors()
    StopSignal.blockStopSignals()
    DescriptorLimit.raiseToHardLimit()
    if let options = try? CommandLineOptions.parse(arguments), options.command == .watch, options.probe == nil,
      !options.networkManagerConnectivity, !options.help, !options.version
    {
      exit((options.allNamespaces ? AllNamespacesWatch.run(options) : watchOnThisThread(arguments)).rawValue)
    }
    Task { exit(await run(arguments).rawValue) }
    // The task exits the process; the main thread sleeps until then, its signals still blocked.
    DispatchSemaphore(value: 0).wait()
    exit(ExitCode.failure.rawValue)
  }

  /// `watch` without a probe, on the calling thread, which sleeps until the watch stops. The monitors are
  /// stopped and released when it returns, before the process exits, so that leak checkers see none of them
  /// (the stop signal stays, held by the thread that watches standard output).
  static func watchOnThisThread(_ arguments: [String]) -> ExitCode {
    switch prepare(arguments) {
    case .finished(let code): return code
    case .ready(let session):
      defer { session.end() }
      let watch = PlainWatch(session)
      return watch.finish(watch.waitBlocking())
    }
  }

  /// Runs the command line (without the program name) and returns the exit code.
  package static func run(_ arguments: [String]) async -> ExitCode {
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

  /// A started monitor, the probe's monitor when probing, how to print, and what stops the command.
  struct Session: Sendable {
    var monitor: NetworkMonitor
    var output: Output
    var stop: StopSignal
    /// When `prepare` began: `wait --timeout` counts from here, the monitor's start included.
    var began: ContinuousClock.Instant
    /// The links, for `wait --interface` (networkd's operational states).
    var links: LinkStates? = nil

    /// Stops the monitors.
    func end() {
      output.connectivity?.stopMonitoring()
      monitor.stopMonitoring()
      links?.finish()
    }
  }

  /// Parses the arguments, answers help and version, and starts the monitors.
  static func prepare(_ arguments: [String]) -> Prepared {
    let began = ContinuousClock.now
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
    } catch {
      StandardOutput.error(CommandMessages.describe(error))
      return .finished(.failure)
    }
    StandardOutput.ignoreBrokenPipeSignal()
    if options.version || options.help {
      let text = options.version ? HelpText.version : HelpText.text(for: options.command)
      return .finished(emit(text, stop: nil) ?? .success)
    }
    if let shell = options.completionShell {
      return .finished(emit(Completions.script(for: shell), stop: nil) ?? .success)
    }
    if options.allNamespaces, options.command == .show {
      return .finished(NamespaceListing.run(options))
    }
    if options.allNamespaces {
      // Reached only through run(_:), which a program embedding the CLI may call: main() runs it on its thread.
      return .finished(AllNamespacesWatch.run(options))
    }
    // Before the monitor starts: a stop signal that comes while it starts waits for the sources (it is blocked).
    let watching = options.command == .watch
    let stop = StopSignal { signal in watching ? .success : .stopped(by: signal) }
    let monitor: NetworkMonitor
    // wait --interface judges links the path may not go through: the monitor reports them as they change.
    let links = options.command == .wait && !options.interfaces.isEmpty ? LinkStates() : nil
    do {
      monitor = try makeMonitor(options, links: links)
      // Nothing here observes notifications, and `main` may never run the main queue they are posted on.
      monitor.keepsNotifications = false
      try monitor.start()
    } catch {
      StandardOutput.error(CommandMessages.describe(error))
      return .finished(.failure)
    }
    // Only with --probe: no traffic leaves the machine unless the user gave a URL. --networkmanager sends none.
    let connectivity =
      options.probe.map { ConnectivityMonitor(monitor: monitor, probe: $0) }
      ?? (options.networkManagerConnectivity ? ConnectivityMonitor(monitor: monitor, source: .networkManager) : nil)
    connectivity?.startMonitoring()
    if let reason = connectivity?.networkManagerUnavailableReason {
      StandardOutput.error("--networkmanager: connectivity stays unknown: \(reason)")
    }
    let output = Output(options: options, formatter: PathFormatter(style: outputStyle), connectivity: connectivity)
    return .ready(Session(monitor: monitor, output: output, stop: stop, began: began, links: links))
  }

  /// How to print for this process's standard output and environment: symbols on a terminal, colour there
  /// unless NO_COLOR is set or TERM is dumb.
  static var outputStyle: PathFormatter.Style {
    var environment: [String: String] = [:]
    for name in ["NO_COLOR", "TERM"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return PathFormatter.Style.detect(isTerminal: StandardOutput.isTerminal, environment: environment)
  }

  /// Prints a line of data on standard output. Returns `nil` when it was written or its reader went away (not
  /// an error: nobody is left to tell), the stop's exit code when a stop interrupted it, and
  /// ``ExitCode/failure`` after reporting a failed write on standard error.
  static func emit(_ text: String, stop: StopSignal?) -> ExitCode? {
    switch StandardOutput.line(text) {
    case .written, .readerGone: return nil
    case .interrupted: return stop?.code ?? .failure
    case .failed(let code):
      StandardOutput.error(StandardOutput.failureMessage(code))
      return .failure
    }
  }

  static func execute(_ session: Session) async -> ExitCode {
    switch session.output.options.command {
    case .show: return await show(session)
    case .watch: return await watch(session)
    case .wait: return await wait(session)
    case .completions: return .success  // answered by prepare(_:), with no monitor
    }
  }

  /// How to print paths (and connectivity, when probing) for the options given.
  struct Output: Sendable {
    var options: CommandLineOptions
    var formatter: PathFormatter
    var connectivity: ConnectivityMonitor?

    /// What the probe found now, or `nil` when not probing.
    var report: ConnectivityReport? { connectivity.map(ConnectivityReport.init) }

    /// One line for `path`: JSON (with `"time"` when `stamped`, as `watch` prints) or the human form, which always
    /// starts with the local time.
    func line(_ path: NetworkPath, _ report: ConnectivityReport?, stamped: Bool = false) -> String {
      options.json
        ? PathFormatter.json(path, connectivity: report, time: stamped ? .now() : nil)
        : formatter.line(path, connectivity: report, time: Timestamp.now())
    }
  }

  static func makeMonitor(_ options: CommandLineOptions, links: LinkStates? = nil) throws(NetworkMonitorError)
    -> NetworkMonitor
  {
    #if os(Linux)
      var observer: (@Sendable ([LinkInventory.Link]) -> Void)?
      if let links { observer = { links.update($0) } }
      return try NetworkMonitor(
        networkNamespace: options.networkNamespace, networkdRoot: options.networkdRoot, linkObserver: observer)
    #else
      if links != nil {
        throw .unsupportedPlatform("wait --interface (link states are read from the Linux kernel)")
      }
      guard let namespace = options.networkNamespace else { return NetworkMonitor() }
      throw .unsupportedPlatform("--netns \(namespace) (network namespaces exist only on Linux)")
    #endif
  }

  static func show(_ session: Session) async -> ExitCode {
    let (monitor, output) = (session.monitor, session.output)
    let found = await session.stop.race { () -> Result<(NetworkPath, ConnectivityReport?), NetworkMonitorError> in
      let path: NetworkPath
      do throws(NetworkMonitorError) {
        path = try await monitor.waitForPath(timeout: .seconds(10))
      } catch {
        return .failure(error)
      }
      var report: ConnectivityReport?
      if let connectivity = output.connectivity, connectivity.source == .networkManager {
        // NetworkManager was read when the monitor started; its answer applies once the path reaches it.
        if connectivity.networkManagerUnavailableReason == nil {
          _ = await firstState(of: connectivity, within: .seconds(1)) { $0 != .unknown }
        }
        report = ConnectivityReport(connectivity)
      } else if let connectivity = output.connectivity {
        // The first check starts with the first path; it ends within the probe's timeout.
        let limit = connectivity.probe.timeout + .seconds(1)
        _ = await firstState(of: connectivity, within: limit) { $0 != .unknown }
        report = ConnectivityReport(connectivity)
      }
      return .success((path, report))
    }
    let path: NetworkPath
    let report: ConnectivityReport?
    switch found {
    case .stopped(let code): return code
    case .finished(.failure(let error)):
      StandardOutput.error(CommandMessages.describe(error))
      return .failure
    case .finished(.success(let shown)): (path, report) = shown
    }
    var text =
      output.options.json
      ? PathFormatter.json(path, connectivity: report) : output.formatter.table(path, connectivity: report)
    if output.options.showAll {
      switch readInventory(output.options) {
      case .success(let inventory):
        text =
          output.options.json
          ? path.jsonRepresentation(
            with: NetworkPathJSONExtra(
              connectivity: report?.state, inventory: inventory, sources: monitor.sourceDiagnostics))
          : text + "\n\n" + LinkTable.text(inventory) + "\n" + SourceTable.text(monitor.sourceDiagnostics)
      case .failure(let error):
        StandardOutput.error(CommandMessages.describe(error))
        return .failure
      }
    }
    return emit(text, stop: session.stop) ?? .success
  }

  /// The links of the namespace watched, for `show --all` (Linux only).
  static func readInventory(_ options: CommandLineOptions) -> Result<LinkInventory, NetworkMonitorError> {
    #if os(Linux)
      do throws(NetworkMonitorError) {
        return .success(
          try LinkInventory.read(networkNamespace: options.networkNamespace, networkdRoot: options.networkdRoot))
      } catch {
        return .failure(error)
      }
    #else
      return .failure(.unsupportedPlatform("show --all (links are read from the Linux kernel)"))
    #endif
  }

  static func watch(_ session: Session) async -> ExitCode {
    let (monitor, output, stop) = (session.monitor, session.output, session.stop)
    guard output.connectivity != nil else {
      let watch = PlainWatch(session)
      return watch.finish(await watch.wait())
    }
    // With a probe, a line is due on a change of the path or of the connectivity state.
    StandardOutput.watchForClose { stop.fire(.success) }
    _ = StopOnError(monitor: monitor, stop: stop)
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity)
    let textfile = output.options.textfile.map { TextfileExporter(path: $0, netns: output.options.networkNamespace) }
    let printer = Task {
      var last: (NetworkPath, ConnectivityReport?)?
      for await _ in changes.stream {
        guard let path = monitor.currentPath else { continue }
        if let failure = textfile?.update(path: path, connectivity: output.report?.state) {
          stop.fire(.failure, message: failure)
          return
        }
        // One line per change of the path or of the connectivity state (not of the check's details).
        let report = output.report
        if let last, last.0 == path, last.1?.state == report?.state { continue }
        last = (path, report)
        if !PlainWatch.handle(StandardOutput.line(output.line(path, report, stamped: true)), stop: stop) { return }
      }
    }
    let code: ExitCode
    if let textfile { code = await textfile.refreshing(until: stop) } else { code = await stop.wait() }
    printer.cancel()
    await printer.value
    await changes.end()
    if let message = stop.message { StandardOutput.error(message) }
    return code
  }

  /// Says once, on standard error, which of the interfaces `wait` was given do not exist (yet): it waits for them
  /// all the same, since an interface may appear later (a USB modem, a VPN, a container's veth).
  static func reportUnknownInterfaces(_ options: CommandLineOptions) {
    let names = options.interfaces + options.viaInterfaces + options.ignoredInterfaces
    guard !names.isEmpty else { return }
    #if os(Linux)
      guard let inventory = try? LinkInventory.read(networkNamespace: options.networkNamespace) else { return }
      for name in names where inventory.link(named: name) == nil {
        let role =
          options.ignoredInterfaces.contains(name) ? "ignored if it appears" : "waiting for it to appear"
        StandardOutput.error("no interface named \(name) yet; \(role)")
      }
    #endif
  }

  static func wait(_ session: Session) async -> ExitCode {
    let (monitor, output) = (session.monitor, session.output)
    let options = output.options
    let condition = options.waitCondition
    reportUnknownInterfaces(options)
    let connectivity = options.requireInternet ? output.connectivity : nil
    let links = session.links
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity, links: links)
    // The timeout covers everything since the command began: the monitor's start (NetworkManager's start-up
    // budget, NetworkManagerWatch.swift) included.
    let remaining = remainingTimeout(options.timeout, elapsed: session.began.duration(to: .now))
    let waited = await session.stop.race {
      await withDeadline(remaining) { () -> NetworkPath? in
        for await _ in changes.stream {
          guard let path = monitor.currentPath else {
            if monitor.lastError != nil { return nil }
            continue
          }
          let internet = connectivity.map { $0.state.isFull } ?? true
          if condition.isMet(by: path, links: links?.links ?? []), internet { return path }
          if monitor.lastError != nil { return nil }
        }
        return nil
      }
    }
    await changes.end()
    let met: NetworkPath?
    switch waited {
    case .stopped(let code): return code
    case .finished(let path): met = path
    }
    if let met {
      if !options.quiet, let code = emit(output.line(met, output.report), stop: session.stop) { return code }
      return .success
    }
    if let error = monitor.lastError {
      StandardOutput.error(CommandMessages.describe(error))
      return .failure
    }
    var last = monitor.currentPath.map { "last path: \($0)" } ?? "no path was reported"
    if let links { last = "now " + condition.linkStatesNow(links.links) + "; " + last }
    if let report = output.report {
      last += "; internet: \(report.state)" + (report.check.map { " (\($0.detail))" } ?? "")
    }
    let limit = options.timeout.map { "\($0)" } ?? "forever"
    let goal = condition.description + (connectivity != nil ? " and full internet access" : "")
    StandardOutput.error("timed out after \(limit) waiting for \(goal); \(last)")
    return .timedOut
  }

  /// What is left of `wait`'s `timeout` (`nil`: none) once `elapsed` has passed since the command began: never
  /// less than zero.
  static func remainingTimeout(_ timeout: Duration?, elapsed: Duration) -> Duration? {
    timeout.map { max(.zero, $0 - elapsed) }
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
