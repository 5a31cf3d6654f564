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

  /// Runs the command line (without the program name) and returns the exit code.
  public static func run(_ arguments: [String]) async -> ExitCode {
    let options: CommandLineOptions
    do {
      options = try CommandLineOptions.parse(arguments)
    } catch {
      StandardOutput.error(error.description)
      return .failure
    }
    if options.version {
      StandardOutput.line(HelpText.version)
      return .success
    }
    if options.help {
      StandardOutput.line(HelpText.text(for: options.command))
      return .success
    }
    StandardOutput.ignoreBrokenPipeSignal()
    let monitor: NetworkMonitor
    do {
      monitor = try makeMonitor(options)
      try monitor.start()
    } catch {
      StandardOutput.error(error.description)
      return .failure
    }
    defer { monitor.stopMonitoring() }
    let style = PathFormatter.Style.detect(
      isTerminal: StandardOutput.isTerminal, environment: ProcessInfo.processInfo.environment)
    let formatter = PathFormatter(style: style)
    switch options.command {
    case .show: return await show(monitor, options, formatter)
    case .watch: return await watch(monitor, options, formatter)
    case .wait: return await wait(monitor, options, formatter)
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

  static func show(_ monitor: NetworkMonitor, _ options: CommandLineOptions, _ formatter: PathFormatter) async
    -> ExitCode
  {
    let path: NetworkPath
    do {
      path = try await monitor.waitForPath(timeout: .seconds(10))
    } catch {
      StandardOutput.error(error.description)
      return .failure
    }
    StandardOutput.line(options.json ? path.jsonRepresentation : formatter.table(path))
    return .success
  }

  static func watch(_ monitor: NetworkMonitor, _ options: CommandLineOptions, _ formatter: PathFormatter) async
    -> ExitCode
  {
    let stop = StopSignal(signals: [SIGINT, SIGTERM])
    StandardOutput.watchForClose { stop.fire(.success) }
    let errors = StopOnError(stop: stop)
    monitor.handlerQueue = DispatchQueue(label: "netstatus.errors")
    monitor.errorHandler = { error in errors.report(error) }
    // Printed on the thread that publishes each path (the rtnetlink thread on Linux): no hop to another
    // thread between the kernel's notification and the write, which keeps watch's latency near `ip monitor`'s
    // (Benchmarks/README.md). A slow reader blocks that thread; the source then coalesces what changed meanwhile.
    let printer = monitor.addSynchronousSubscriber { path in
      let text = options.json ? path.jsonRepresentation : formatter.line(path, time: Timestamp.now())
      if !StandardOutput.line(text) {
        stop.fire(.success)  // standard output was closed
      }
    }
    let code = await stop.wait()
    monitor.removeSynchronousSubscriber(printer)
    if let error = errors.error {
      StandardOutput.error(error.description)
    }
    return code
  }

  static func wait(_ monitor: NetworkMonitor, _ options: CommandLineOptions, _ formatter: PathFormatter) async
    -> ExitCode
  {
    let condition = options.waitCondition
    let latest = LatestPath()
    let met: NetworkPath? = await withTaskGroup(of: NetworkPath?.self) { group in
      group.addTask {
        for await path in monitor.paths {
          latest.set(path)
          if condition.isMet(by: path) { return path }
          if monitor.lastError != nil { return nil }
        }
        return nil
      }
      if let timeout = options.timeout {
        group.addTask {
          try? await Task.sleep(for: timeout)
          return nil
        }
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    if let met {
      if !options.quiet {
        StandardOutput.line(options.json ? met.jsonRepresentation : formatter.line(met, time: Timestamp.now()))
      }
      return .success
    }
    if let error = monitor.lastError {
      StandardOutput.error(error.description)
      return .failure
    }
    let last = latest.get().map { "last path: \($0)" } ?? "no path was reported"
    let limit = options.timeout.map { "\($0)" } ?? "forever"
    StandardOutput.error("timed out after \(limit) waiting for \(condition.description); \(last)")
    return .timedOut
  }
}
