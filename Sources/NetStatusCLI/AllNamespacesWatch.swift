import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `netstatus watch --all-netns`: the path of every named network namespace (`ip netns list`), following
/// namespaces as they appear and disappear. Linux only.
///
/// One monitor per namespace, all served by the library's one rtnetlink thread; the namespaces themselves are
/// followed on that thread too (``NamedNetworkNamespaces``), so every line is written there, in order, with no
/// thread of its own per namespace. Each line names its namespace: `"netns":"NAME"` after the documented keys
/// in JSON, `NAME:` after the time otherwise. A namespace that goes away ends with a line saying so
/// (`{"netns":"NAME","deleted":true}`, or `NAME: deleted`).
final class AllNamespacesWatch: Sendable {
  private struct Watched {
    var monitor: NetworkMonitor
    var subscriber: UInt64
  }

  private let json: Bool
  private let formatter: PathFormatter
  private let stop: StopSignal
  private let watched = Locked<[String: Watched]>([:])

  init(json: Bool, formatter: PathFormatter, stop: StopSignal) {
    self.json = json
    self.formatter = formatter
    self.stop = stop
  }

  /// Runs the watch on the calling thread until a stop signal, or until standard output's reader goes away.
  static func run(_ options: CommandLineOptions) -> NetStatusCommand.ExitCode {
    #if os(Linux)
      StandardOutput.ignoreBrokenPipeSignal()
      let stop = StopSignal { _ in .success }
      StandardOutput.watchForClose { stop.fire(.success) }
      let watch = AllNamespacesWatch(
        json: options.json, formatter: PathFormatter(style: NetStatusCommand.outputStyle), stop: stop)
      let namespaces: NamedNetworkNamespaces
      do throws(NetworkMonitorError) {
        namespaces = try NamedNetworkNamespaces { change in watch.apply(change) }
      } catch {
        StandardOutput.error(error.description)
        return .failure
      }
      let code = stop.waitBlocking()
      namespaces.stop()
      watch.stopAll()
      if let message = stop.message { StandardOutput.error(message) }
      return code
    #else
      StandardOutput.error("watch --all-netns: network namespaces exist only on Linux")
      return .failure
    #endif
  }

  #if os(Linux)
    /// Starts or stops the monitor of a namespace (on the rtnetlink thread).
    private func apply(_ change: NamedNetworkNamespaces.Change) {
      switch change {
      case .appeared(let name):
        let monitor: NetworkMonitor
        do throws(NetworkMonitorError) {
          monitor = try NetworkMonitor(networkNamespace: name)
          // Nothing here observes notifications, and the main queue they are posted on never runs.
          monitor.postsNotifications = false
          try monitor.start()
        } catch {
          // Gone again already, or not enterable: said once, and the watch goes on.
          StandardOutput.error("\(name.escapingControlCharacters()): \(error.description)")
          return
        }
        let subscriber = monitor.addSynchronousSubscriber { [self] path in self.print(path, in: name) }
        watched.withLockedValue { $0[name] = Watched(monitor: monitor, subscriber: subscriber) }
      case .disappeared(let name):
        guard let gone = watched.withLockedValue({ $0.removeValue(forKey: name) }) else { return }
        gone.monitor.removeSynchronousSubscriber(gone.subscriber)
        gone.monitor.stopMonitoring()
        printDeleted(name)
      }
    }
  #endif

  /// Stops every monitor (after the namespaces are no longer followed).
  func stopAll() {
    let all = watched.withLockedValue { watched in
      defer { watched = [:] }
      return Array(watched.values)
    }
    for entry in all {
      entry.monitor.removeSynchronousSubscriber(entry.subscriber)
      entry.monitor.stopMonitoring()
    }
  }

  private func print(_ path: NetworkPath, in name: String) {
    guard stop.code == nil else { return }
    if json {
      var outcome = StandardOutput.Outcome.written
      path.withJSONLine(extra: NetworkPathJSONExtra(netns: name, time: .now())) {
        outcome = StandardOutput.write($0, to: STDOUT_FILENO)
      }
      _ = PlainWatch.handle(outcome, stop: stop)
    } else {
      let time = Timestamp.now() + " " + name.escapingControlCharacters() + ":"
      _ = PlainWatch.handle(StandardOutput.line(formatter.line(path, time: time)), stop: stop)
    }
  }

  private func printDeleted(_ name: String) {
    guard stop.code == nil else { return }
    let line =
      json
      ? #"{"netns":"# + NetworkPath.jsonString(name) + #","deleted":true}"#
      : Timestamp.now() + " " + name.escapingControlCharacters() + ": deleted"
    _ = PlainWatch.handle(StandardOutput.line(line), stop: stop)
  }
}
