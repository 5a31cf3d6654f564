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

/// `netstatus watch --all-netns`: the path of every network namespace named in a folder (`ip netns list`'s
/// `/run/netns`, Docker's `/run/docker/netns` when `/run/docker` exists, and each `--netns-dir DIR`), following
/// namespaces as they appear and disappear. Linux only.
///
/// One monitor per namespace, all served by the library's one rtnetlink thread, with no thread of its own per
/// namespace; the folders are followed with one ``NamedNetworkNamespaces`` each, whose changes (and so the monitors'
/// starts and stops) are handled off that thread, one at a time. A namespace named in several places (one bind-mounted
/// twice) is watched once, under its first name (``NamespaceCatalog``). Each line names its namespace: `"netns":"NAME"`
/// after the documented keys in JSON, `NAME:` after the time otherwise. A namespace that goes away ends with a line
/// saying so (`{"netns":"NAME","deleted":true}`, or `NAME: deleted`), and with nothing else: its monitor's failure (the
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
    var catalog: NamespaceCatalog<NamespaceInode>
    /// By label.
    var watched: [String: Watched] = [:]
    /// Namespaces whose monitor could not start for want of descriptors, to try again: label and what to open.
    var starved: [String: String] = [:]
    /// The starved namespaces a retry is starting now.
    var retrying: Set<String> = []
    /// The names present at start (folder and name) not settled yet: until they all are, failures are kept, not
    /// printed.
    var initial: Set<NamespaceCatalog<NamespaceInode>.Holder> = []
    /// The failures of the namespaces present at start: their labels, errors, and whether permission was refused.
    var initialFailures: [(name: String, error: NetworkMonitorError, refused: Bool)] = []
    /// Whether any monitor started.
    var anyStarted = false
  }

  /// Where `ip netns` names namespaces.
  static let namedFolder = "/run/netns"
  /// Where Docker bind-mounts its containers' namespaces (sandbox keys).
  static let dockerFolder = "/run/docker/netns"

  private let json: Bool
  private let formatter: PathFormatter
  private let stop: StopSignal
  private let textfile: TextfileExporter?
  /// The folders followed, in order (``NamespaceCatalog/folders``).
  private let folders: [String]
  private let state: Locked<State>
  /// The failed monitors being stopped off the rtnetlink thread (``failed(_:_:)``); ``stopAll()`` waits for them.
  private let stopping = DispatchGroup()
  /// Standard output, which never makes the rtnetlink thread wait for the reader (WatchOutput.swift).
  private let lines: WatchOutput

  init(
    json: Bool, formatter: PathFormatter, stop: StopSignal, textfile: TextfileExporter? = nil,
    folders: [String] = [AllNamespacesWatch.namedFolder]
  ) {
    self.json = json
    self.formatter = formatter
    self.stop = stop
    self.textfile = textfile
    self.folders = folders
    self.state = Locked(State(catalog: NamespaceCatalog(folders: folders)))
    self.lines = WatchOutput { _ = PlainWatch.handle($0, stop: stop) }
  }

  /// The folders to follow, in order: `/run/netns`, `/run/docker/netns` when Docker's `/run/docker` exists, then
  /// each `--netns-dir`, each once.
  static func folders(_ options: CommandLineOptions, dockerPresent: Bool) -> [String] {
    var folders = [namedFolder]
    if dockerPresent { folders.append(dockerFolder) }
    for folder in options.namespaceFolders {
      var trimmed = folder
      while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
      if !folders.contains(trimmed) { folders.append(trimmed) }
    }
    return folders
  }

  /// The folder a path is in (`/run` for `/run/netns`, `.` for a bare name). Pure.
  static func parent(of path: String) -> String {
    guard let slash = path.dropLast().lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Runs the watch on the calling thread until a stop signal, or until standard output's reader goes away.
  static func run(_ options: CommandLineOptions) -> NetStatusCommand.ExitCode {
    #if os(Linux)
      StandardOutput.ignoreBrokenPipeSignal()
      let stop = StopSignal { _ in .success }
      StandardOutput.watchForClose { stop.fire(.success) }
      let folders = Self.folders(options, dockerPresent: access("/run/docker", F_OK) == 0)
      for folder in options.namespaceFolders
      where SystemName.withCString(Self.parent(of: folder), { access($0, F_OK) }) != 0 {
        StandardOutput.error("--netns-dir \(folder.escapingControlCharacters()): neither it nor its parent exists")
        return .failure
      }
      if let textfile = options.textfile, let problem = TextfileFolder.problem(for: textfile) {
        StandardOutput.error(problem)
        return .failure
      }
      let textfile = options.textfile.map { TextfileExporter(path: $0, netns: nil) }
      // The file exists from the start, with netstatus's own metrics, whether or not any namespace does.
      if let failure = textfile?.flush() {
        StandardOutput.error(failure)
        return .failure
      }
      textfile?.start(stoppingOnFailure: stop)
      let watch = AllNamespacesWatch(
        json: options.json, formatter: PathFormatter(style: NetStatusCommand.outputStyle), stop: stop,
        textfile: textfile, folders: folders)
      let present = folders.enumerated().flatMap { index, folder in
        NamedNetworkNamespaces.list(folder: folder).map {
          NamespaceCatalog<NamespaceInode>.Holder(folder: index, name: $0)
        }
      }
      watch.state.withLockedValue { $0.initial = Set(present) }
      // Made in the folders' order: each reports the names present first, in this order, so that a namespace named
      // twice is first seen under its first folder's name.
      var followed: [NamedNetworkNamespaces] = []
      for (index, folder) in folders.enumerated() {
        do throws(NetworkMonitorError) {
          followed.append(try NamedNetworkNamespaces(folder: folder) { change in watch.apply(change, folder: index) })
        } catch {
          StandardOutput.error("\(folder): \(CommandMessages.describe(error))")
          for namespaces in followed { namespaces.stop() }
          watch.stopAll()
          return .failure
        }
      }
      let code = textfile?.keepBlocking(until: stop) ?? stop.waitBlocking()
      for namespaces in followed { namespaces.stop() }
      watch.stopAll()
      if let message = stop.message { StandardOutput.error(message) }
      return stop.finish(code)
    #else
      StandardOutput.error("watch --all-netns: network namespaces exist only on Linux")
      return .failure
    #endif
  }

  #if os(Linux)
    /// Records a change of folder `folder`, and starts and stops monitors as the catalog says (on the folder's own
    /// thread: NamedNetworkNamespaces.swift).
    private func apply(_ change: NamedNetworkNamespaces.Change, folder: Int) {
      typealias Catalog = NamespaceCatalog<NamespaceInode>
      let changed: String
      switch change {
      case .appeared(let name), .disappeared(let name): changed = name
      }
      // After the change is applied: a name present at start is then settled.
      defer { settleInitial(.init(folder: folder, name: changed)) }
      let actions: [Catalog.Action]
      switch change {
      case .appeared(let name):
        let holder = Catalog.Holder(folder: folder, name: name)
        // Read outside the lock. Gone again already: its disappearance follows.
        guard let identity = NamespaceFolderWatcher.namespaceIdentity(folders[folder] + "/" + name) else { return }
        actions = state.withLockedValue {
          $0.catalog.appeared(holder, identity: NamespaceInode(device: identity.device, inode: identity.inode))
        }
      case .disappeared(let name):
        actions = state.withLockedValue { $0.catalog.disappeared(.init(folder: folder, name: name)) }
      }
      for action in actions {
        switch action {
        case .start(let holder, let label):
          // A name in /run/netns is opened by name, as `ip netns exec` does (its /etc/netns/NAME/resolv.conf).
          let folder = folders[holder.folder]
          let target = folder == Self.namedFolder ? holder.name : folder + "/" + holder.name
          start(label, target: target, retry: false)
        case .stop(_, let label):
          let gone = state.withLockedValue { state -> Watched? in
            state.starved[label] = nil
            return state.watched.removeValue(forKey: label)
          }
          guard let gone else { continue }
          gone.monitor.removeSynchronousSubscriber(gone.subscriber)
          gone.monitor.stopMonitoring()
          printDeleted(label)
          retryStarved()
        }
      }
    }

    /// Starts the monitor of `target` (a name in /run/netns, or a path), labelled `name`. A failure is said once
    /// (not again when a retry fails the same way), and a failure for want of descriptors is tried again later.
    private func start(_ name: String, target: String, retry: Bool) {
      let monitor: NetworkMonitor
      do throws(NetworkMonitorError) {
        monitor = try NetworkMonitor(networkNamespace: target)
        try monitor.start()
      } catch {
        let starved = Self.isDescriptorShortage(error)
        let known = state.withLockedValue { state -> Bool in
          guard starved else { return false }
          return state.starved.updateValue(target, forKey: name) != nil
        }
        let kept = state.withLockedValue { state -> Bool in
          guard !state.initial.isEmpty, !retry else { return false }
          state.initialFailures.append((name, error, Self.isPermissionRefused(error)))
          return true
        }
        // Gone again already, or not enterable: said once, and the watch goes on.
        if !kept, !(retry && known) { StandardOutput.error(Self.failureLine(name, error)) }
        return
      }
      state.withLockedValue {
        $0.starved.removeValue(forKey: name)
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

    /// A name present at start has been tried (or is gone). Once all have been: if namespaces were there, none
    /// could be watched and every one refused permission, the watch ends with one line (exit 2), as `show --netns`
    /// does; otherwise the failures kept are said, one line each, and the watch goes on.
    private func settleInitial(_ holder: NamespaceCatalog<NamespaceInode>.Holder) {
      let folders = self.folders
      let settled = state.withLockedValue { state -> [(name: String, error: NetworkMonitorError, refused: Bool)]? in
        guard state.initial.remove(holder) != nil else { return nil }
        // A name deleted between the listing and the watch's start is never reported: once few are left, those that
        // are gone are not waited for.
        if state.initial.count <= 16 {
          state.initial = state.initial.filter {
            SystemName.withCString(folders[$0.folder] + "/" + $0.name) { access($0, F_OK) } == 0
          }
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
      case .systemCall(_, let errno), .namespaceNotEnterable(_, let errno):
        errno == .notPermitted || errno == .permissionDenied
      default: false
      }
    }

    /// The monitor of `name` failed: deleted (or the process its link points at gone), or another failure, said on
    /// standard error. Either way it is no longer watched, and once stopped its descriptors are free for a starved
    /// namespace.
    ///
    /// Called on the rtnetlink thread, inside the failing session's delivery, where a stop cannot wait for that
    /// session: the thread closes its descriptors only once the delivery returns. So the monitor is stopped from
    /// another thread, where `stopMonitoring()` returns once they are closed, and the starved namespaces are tried
    /// after that; tried at once, they found the descriptors still open and waited for a next stop that may never
    /// come.
    private func failed(_ name: String, _ error: NetworkMonitorError) {
      guard let gone = state.withLockedValue({ $0.watched.removeValue(forKey: name) }) else { return }
      gone.monitor.removeSynchronousSubscriber(gone.subscriber)
      switch error {
      case .namespaceDeleted, .namespaceNotFound: printDeleted(name)
      default:
        StandardOutput.error(Self.failureLine(name, error))
        forget(name)
      }
      let monitor = gone.monitor
      stopping.enter()
      // On a thread of its own, not Dispatch's pool, which a process out of descriptors cannot start
      // (Sources/NetStatusPathSource/Support/DetachedWork.swift).
      runDetached(name: "netstatus-stop") { [self] in
        monitor.stopMonitoring()
        retryStarved()
        stopping.leave()
      }
    }

    /// Tries again, in name order, the namespaces that could not start for want of descriptors.
    ///
    /// Two retries may run at once (one after a failed monitor's stop, one after a namespace went): each namespace
    /// is claimed under the lock before it is started, so that one of them starts it, once.
    private func retryStarved() {
      while stop.code == nil {
        let next = state.withLockedValue { state -> (name: String, target: String)? in
          let candidates = state.starved.filter { !state.retrying.contains($0.key) }
          guard let first = candidates.min(by: { $0.key < $1.key }) else { return nil }
          state.retrying.insert(first.key)
          return (first.key, first.value)
        }
        guard let next else { return }
        start(next.name, target: next.target, retry: true)
        let stillStarved = state.withLockedValue { state -> Bool in
          state.retrying.remove(next.name)
          return state.starved[next.name] != nil
        }
        // Still starved after this one: the rest would be too.
        if stillStarved { return }
      }
    }

    /// Whether `error` is a shortage of descriptors (`EMFILE`, `ENFILE`), which another monitor's end may relieve.
    static func isDescriptorShortage(_ error: NetworkMonitorError) -> Bool {
      switch error {
      case .systemCall(_, let errno), .namespaceNotEnterable(_, let errno), .limitReached(_, let errno, _):
        errno == .tooManyOpenFiles || errno == .tooManyOpenFilesInSystem
      default: false
      }
    }
  #endif

  /// Stops every monitor (after the namespaces are no longer followed), once the failed ones being stopped are, and
  /// any starved namespace their stop let start.
  func stopAll() {
    stopping.wait()
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
    textfile?.update(namespace: name, path: path, connectivity: nil)
    if json {
      var outcome = StandardOutput.Outcome.written
      path.withJSONLine(extra: NetworkPathJSONExtra(netns: name, time: .now())) {
        outcome = lines.write($0, key: name)
      }
      _ = PlainWatch.handle(outcome, stop: stop)
    } else {
      let time = Timestamp.now() + " " + name.escapingControlCharacters() + ":"
      _ = PlainWatch.handle(lines.line(formatter.line(path, time: time), key: name), stop: stop)
    }
  }

  /// Takes `name`'s series out of the textfile.
  private func forget(_ name: String) {
    textfile?.remove(namespace: name)
  }

  private func printDeleted(_ name: String) {
    forget(name)
    guard stop.code == nil else { return }
    let line =
      json
      ? #"{"netns":"# + NetworkPath.jsonString(name) + #","deleted":true,"time":"# + JSONTimestamp.now().jsonString
        + "}"
      : Timestamp.now() + " " + name.escapingControlCharacters() + ": deleted"
    _ = PlainWatch.handle(lines.line(line, key: name, isLast: true), stop: stop)
  }
}
