import Dispatch
import NetStatusCore
import NetStatusNetlink

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

  /// The process's arguments after its name, each as NetStatus holds names (``SystemName``): the bytes the user
  /// gave, exactly. `CommandLine.arguments` repairs bytes that are not UTF-8, so `--netns $'x\xff'` named `x\u{FFFD}`
  /// (a file that does not exist) and `wait -i $'nx\x80'` matched any interface whose name repaired the same.
  package static var processArguments: [String] {
    stride(from: 1, to: Int(CommandLine.argc), by: 1).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return "" }
      return SystemName.decode(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
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
    // Before anything opens a descriptor of its own (libdispatch included): too few is one line and exit 2, not a
    // crash or a wrong answer.
    if let problem = DescriptorLimit.problem(limit: DescriptorLimit.raiseToHardLimit()) {
      StandardOutput.error(problem)
      exit(ExitCode.failure.rawValue)
    }
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
      return session.stop.finish(watch.finish(watch.waitBlocking()))
    }
  }

  /// Runs the command line (without the program name) and returns the exit code.
  package static func run(_ arguments: [String]) async -> ExitCode {
    switch prepare(arguments) {
    case .finished(let code): return code
    case .ready(let session):
      defer { session.end() }
      // Last, once the command's output is written: a stop signal that came before wins over its own end.
      return session.stop.finish(await execute(session))
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
    /// The links, for `wait --interface` (judged as systemd-networkd-wait-online does).
    var links: LinkStates? = nil
    /// Stop the monitors that ``monitor`` and the output's connectivity follow (`watch --settle`).
    var followed: [@Sendable () -> Void] = []

    /// Stops the monitors.
    func end() {
      output.connectivity?.stopMonitoring()
      monitor.stopMonitoring()
      for stop in followed { stop() }
      links?.finish()
    }
  }

  /// Gives up waiting for NetworkManager's first answer (``NetworkManagerStartUp/abandon()``) after `span`, unless
  /// cancelled first.
  static func abandonNetworkManagerStartUp(after span: Duration) -> DispatchWorkItem {
    let work = DispatchWorkItem { NetworkManagerStartUp.abandon(because: "the timeout came first") }
    // Capped at a year: far past any start-up budget, and clear of overflow in nanoseconds.
    let (seconds, attoseconds) = min(span, .seconds(365 * 24 * 3600)).components
    let nanoseconds = Int(max(0, seconds)) * 1_000_000_000 + Int(max(0, attoseconds) / 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
    return work
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
    // --textfile's folder, before the first line: a watch that cannot keep its file says so at once.
    if let textfile = options.textfile, let problem = TextfileFolder.problem(for: textfile) {
      StandardOutput.error(problem)
      return .finished(.failure)
    }
    // Before the monitor starts: a stop signal that comes while it starts waits for the sources (it is blocked).
    let watching = options.command == .watch
    let stop = StopSignal { signal in watching ? .success : .stopped(by: signal) }
    var monitor: NetworkMonitor
    // wait --interface judges links the path may not go through: the monitor reports them (and networkd's state of
    // them) as they change.
    let links = options.command == .wait && options.judgesLinks ? LinkStates() : nil
    do {
      monitor = try makeMonitor(options, links: links)
      // wait --timeout covers the start too: a NetworkManager that does not answer within a timeout shorter than its
      // start-up budget (NetworkManagerWatch.swift) is given up at the timeout, not at the end of the budget.
      let giveUp = options.command == .wait ? options.timeout.map(Self.abandonNetworkManagerStartUp(after:)) : nil
      defer { giveUp?.cancel() }
      try monitor.start()
    } catch {
      StandardOutput.error(CommandMessages.describe(error))
      return .finished(.failure)
    }
    // Only with --probe: no traffic leaves the machine unless the user gave a URL. --networkmanager sends none.
    var connectivity =
      options.probe.map { ConnectivityMonitor(monitor: monitor, probe: $0) }
      ?? (options.networkManagerConnectivity ? ConnectivityMonitor(monitor: monitor, source: .networkManager) : nil)
    connectivity?.startMonitoring()
    // watch --settle: the lines follow settled monitors of the path and of the connectivity, which follow the
    // ones started above (the probe checks the path as it is, not as it is printed).
    var followed: [@Sendable () -> Void] = []
    if options.command == .watch, let span = options.settle {
      let (unsettled, unsettledConnectivity) = (monitor, connectivity)
      followed = [{ unsettledConnectivity?.stopMonitoring() }, { unsettled.stopMonitoring() }]
      monitor = monitor.settled(offlineAfter: span, onlineAfter: span)
      monitor.startMonitoring()
      connectivity = connectivity.map { $0.settled(offlineAfter: span, onlineAfter: span) }
      connectivity?.startMonitoring()
    }
    if let reason = connectivity?.networkManagerUnavailableReason {
      StandardOutput.error("--networkmanager: connectivity stays unknown: \(reason)")
    }
    let output = Output(options: options, formatter: PathFormatter(style: outputStyle), connectivity: connectivity)
    return .ready(
      Session(monitor: monitor, output: output, stop: stop, began: began, links: links, followed: followed))
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
      var networkd: (@Sendable (NetworkdStatus) -> Void)?
      if let links {
        observer = { links.update($0) }
        networkd = { links.update($0) }
      }
      return try NetworkMonitor(
        networkNamespace: options.networkNamespace, networkdRoot: options.networkdRoot, linkObserver: observer,
        networkdObserver: networkd)
    #else
      if links != nil {
        throw .unsupportedPlatform("wait --interface (link states are read from the Linux kernel)")
      }
      guard let namespace = options.networkNamespace else { return NetworkMonitor() }
      throw .unsupportedPlatform("--netns \(namespace) (network namespaces exist only on Linux)")
    #endif
  }
}
