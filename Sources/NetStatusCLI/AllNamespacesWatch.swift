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
/// (`{"netns":"NAME","deleted":true}`, or `NAME: deleted`), and with nothing else: its monitor's failure (the
/// namespace deleted, or the process a `/run/netns` link points at gone) says so too, never as an `offline` line.
///
/// With `--textfile PATH`, one file holds every namespace's metrics, each series labelled `netns="NAME"`; a
/// namespace's series leave it when the namespace goes.
///
/// A namespace whose monitor cannot start for want of descriptors (`EMFILE`, `ENFILE`) is tried again whenever
/// another monitor stops and frees its own.
final class AllNamespacesWatch: Sendable {
  private struct Watched {
    var monitor: NetworkMonitor
    var subscriber: UInt64
  }

  private struct State {
    var watched: [String: Watched] = [:]
    /// Namespaces whose monitor could not start for want of descriptors, to try again.
    var starved: Set<String> = []
    /// The namespaces present at start not tried yet: until they all are, failures are kept, not printed.
    var initial: Set<String> = []
    /// The failures of the namespaces present at start: their names, errors, and whether permission was refused.
    var initialFailures: [(name: String, error: NetworkMonitorError, refused: Bool)] = []
    /// Whether any monitor started.
    var anyStarted = false
  }

  private let json: Bool
  private let formatter: PathFormatter
  private let stop: StopSignal
  private let textfile: TextfileExporter?
  private let state = Locked(State())

  init(json: Bool, formatter: PathFormatter, stop: StopSignal, textfile: TextfileExporter? = nil) {
    self.json = json
    self.formatter = formatter
    self.stop = stop
    self.textfile = textfile
  }

  /// Runs the watch on the calling thread until a stop signal, or until standard output's reader goes away.
  static func run(_ options: CommandLineOptions) -> NetStatusCommand.ExitCode {
    #if os(Linux)
      StandardOutput.ignoreBrokenPipeSignal()
      let stop = StopSignal { _ in .success }
      StandardOutput.watchForClose { stop.fire(.success) }
      let textfile = options.textfile.map { TextfileExporter(path: $0, netns: nil) }
      // The file exists from the start, with netstatus's own metrics, whether or not any namespace does.
      if let failure = textfile?.refresh() {
        StandardOutput.error(failure)
        return .failure
      }
      let watch = AllNamespacesWatch(
        json: options.json, formatter: PathFormatter(style: NetStatusCommand.outputStyle), stop: stop,
        textfile: textfile)
      let present = NamedNetworkNamespaces.list()
      watch.state.withLockedValue { $0.initial = Set(present) }
      let namespaces: NamedNetworkNamespaces
      do throws(NetworkMonitorError) {
        namespaces = try NamedNetworkNamespaces { change in watch.apply(change) }
      } catch {
        StandardOutput.error(CommandMessages.describe(error))
        return .failure
      }
      let code = textfile?.refreshBlocking(until: stop) ?? stop.waitBlocking()
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
        start(name, retry: false)
        settleInitial(name)
      case .disappeared(let name):
        settleInitial(name)
        let gone = state.withLockedValue { state -> Watched? in
          state.starved.remove(name)
          return state.watched.removeValue(forKey: name)
        }
        guard let gone else { return }
        gone.monitor.removeSynchronousSubscriber(gone.subscriber)
        gone.monitor.stopMonitoring()
        printDeleted(name)
        retryStarved()
      }
    }

    /// Starts the monitor of `name`. A failure is said once (not again when a retry fails the same way), and a
    /// failure for want of descriptors is tried again later.
    private func start(_ name: String, retry: Bool) {
      let monitor: NetworkMonitor
      do throws(NetworkMonitorError) {
        monitor = try NetworkMonitor(networkNamespace: name)
        // Nothing here observes notifications, and the main queue they are posted on never runs.
        monitor.postsNotifications = false
        try monitor.start()
      } catch {
        let starved = Self.isDescriptorShortage(error)
        let known = state.withLockedValue { state -> Bool in
          guard starved else { return false }
          return !state.starved.insert(name).inserted
        }
        let kept = state.withLockedValue { state -> Bool in
          guard state.initial.contains(name) else { return false }
          state.initialFailures.append((name, error, Self.isPermissionRefused(error)))
          return true
        }
        // Gone again already, or not enterable: said once, and the watch goes on.
        if !kept, !(retry && known) { StandardOutput.error(Self.failureLine(name, error)) }
        return
      }
      state.withLockedValue {
        $0.starved.remove(name)
        $0.anyStarted = true
      }
      // The subscriber sees the monitor's failure (set before the path is sent) and reports it, instead of the
      // `offline` path a failed monitor sends.
      let subscriber = monitor.addSynchronousSubscriber { [self, weak monitor] path in
        if let error = monitor?.lastError {
          self.failed(name, error)
        } else {
          self.print(path, in: name)
        }
      }
      state.withLockedValue { $0.watched[name] = Watched(monitor: monitor, subscriber: subscriber) }
    }

    /// `name`, present at start, has been tried (or is gone). Once all have been: if namespaces were there, none
    /// could be watched and every one refused permission, the watch ends with one line (exit 2), as `show --netns`
    /// does; otherwise the failures kept are said, one line each, and the watch goes on.
    private func settleInitial(_ name: String) {
      let settled = state.withLockedValue { state -> [(name: String, error: NetworkMonitorError, refused: Bool)]? in
        guard state.initial.remove(name) != nil else { return nil }
        // A name deleted between the listing and the watch's start is never reported: once few are left, those that
        // are gone are not waited for.
        if state.initial.count <= 16 {
          state.initial = state.initial.filter { access("/run/netns/" + $0, F_OK) == 0 }
        }
        guard state.initial.isEmpty else { return nil }
        defer { state.initialFailures = [] }
        return state.initialFailures
      }
      guard let failures = settled, !failures.isEmpty else { return }
      let started = state.withLockedValue { $0.anyStarted }
      if !started, failures.allSatisfy(\.refused) {
        let what =
          failures.count == 1
          ? "the only named network namespace cannot be entered"
          : "none of the \(failures.count) named network namespaces can be entered"
        stop.fire(
          .failure, message: "watch --all-netns: \(what) (the first: \(CommandMessages.text(failures[0].error)))")
        return
      }
      for failure in failures { StandardOutput.error(Self.failureLine(failure.name, failure.error)) }
    }

    /// One namespace's failure, in the CLI's words.
    static func failureLine(_ name: String, _ error: NetworkMonitorError) -> String {
      "\(name.escapingControlCharacters()): \(CommandMessages.text(error))"
    }

    /// Whether `error` is a refusal to enter a namespace (`EPERM`, `EACCES`).
    static func isPermissionRefused(_ error: NetworkMonitorError) -> Bool {
      switch error {
      case .systemCall(_, let errno), .namespaceNotEnterable(_, let errno): errno == EPERM || errno == EACCES
      default: false
      }
    }

    /// The monitor of `name` failed: deleted (or the process its link points at gone), or another failure, said on
    /// standard error. Either way it is no longer watched, and its descriptors are free for a starved namespace.
    private func failed(_ name: String, _ error: NetworkMonitorError) {
      guard let gone = state.withLockedValue({ $0.watched.removeValue(forKey: name) }) else { return }
      gone.monitor.removeSynchronousSubscriber(gone.subscriber)
      gone.monitor.stopMonitoring()
      switch error {
      case .namespaceDeleted, .namespaceNotFound: printDeleted(name)
      default:
        StandardOutput.error(Self.failureLine(name, error))
        forget(name)
      }
      retryStarved()
    }

    /// Tries again, in name order, the namespaces that could not start for want of descriptors.
    private func retryStarved() {
      let names = state.withLockedValue { $0.starved.sorted() }
      for name in names where stop.code == nil {
        // Still starved after this one: the rest would be too.
        start(name, retry: true)
        if state.withLockedValue({ $0.starved.contains(name) }) { break }
      }
    }

    /// Whether `error` is a shortage of descriptors (`EMFILE`, `ENFILE`), which another monitor's end may relieve.
    static func isDescriptorShortage(_ error: NetworkMonitorError) -> Bool {
      switch error {
      case .systemCall(_, let errno), .namespaceNotEnterable(_, let errno), .limitReached(_, let errno, _):
        errno == EMFILE || errno == ENFILE
      default: false
      }
    }
  #endif

  /// Stops every monitor (after the namespaces are no longer followed).
  func stopAll() {
    let all = state.withLockedValue { state in
      defer { state.watched = [:] }
      return Array(state.watched.values)
    }
    for entry in all {
      entry.monitor.removeSynchronousSubscriber(entry.subscriber)
      entry.monitor.stopMonitoring()
    }
  }

  private func print(_ path: NetworkPath, in name: String) {
    guard stop.code == nil else { return }
    if let failure = textfile?.update(namespace: name, path: path, connectivity: nil) {
      stop.fire(.failure, message: failure)
      return
    }
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

  /// Takes `name`'s series out of the textfile.
  private func forget(_ name: String) {
    if let failure = textfile?.remove(namespace: name) { stop.fire(.failure, message: failure) }
  }

  private func printDeleted(_ name: String) {
    forget(name)
    guard stop.code == nil else { return }
    let line =
      json
      ? #"{"netns":"# + NetworkPath.jsonString(name) + #","deleted":true,"time":"# + JSONTimestamp.now().jsonString
        + "}"
      : Timestamp.now() + " " + name.escapingControlCharacters() + ": deleted"
    _ = PlainWatch.handle(StandardOutput.line(line), stop: stop)
  }
}
