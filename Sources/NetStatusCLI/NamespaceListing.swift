import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `netstatus show --all-netns`: every network namespace the host has, as `lsns -t net` finds them, with its path.
/// Linux only.
///
/// The namespaces named in the folders `watch --all-netns` follows (`/run/netns`, Docker's `/run/docker/netns`,
/// each `--netns-dir`), labelled as it labels them, and those only processes hold (found through `/proc/*/ns/net`),
/// unlabelled; each once (by nsfs identity), with the lowest PID of the processes in it (none for a namespace only a
/// bind mount keeps) and its nsfs inode. Named ones first, by label; then the others, by PID.
enum NamespaceListing {
  /// One namespace to show.
  struct Entry: Equatable {
    /// Its name in a folder (or its path, when another namespace has the name), or `nil` when none names it.
    var label: String?
    /// What to open to watch it: a name in `/run/netns`, or a path.
    var target: String
    /// The lowest PID of the processes in it, if any.
    var pid: Int32?
    var identity: NamespaceInode
  }

  /// Merges the named namespaces (in the folders' order, each name in order) and the processes' namespaces. Pure.
  ///
  /// - Parameters:
  ///   - named: Each name in each folder, in order, with the target to open it by and its identity.
  ///   - processes: Each process's PID and the identity of its network namespace.
  static func entries(
    named: [(name: String, path: String, target: String, identity: NamespaceInode)],
    processes: [(pid: Int32, identity: NamespaceInode)]
  ) -> [Entry] {
    var lowest: [NamespaceInode: Int32] = [:]
    for (pid, identity) in processes where lowest[identity].map({ pid < $0 }) ?? true { lowest[identity] = pid }
    var entries: [Entry] = []
    var seen: Set<NamespaceInode> = []
    var labels: Set<String> = []
    for (name, path, target, identity) in named where seen.insert(identity).inserted {
      // As watch --all-netns labels them (NamespaceCatalog): the name, or the path when the name is taken.
      let label = labels.contains(name) ? path : name
      labels.insert(label)
      entries.append(Entry(label: label, target: target, pid: lowest[identity], identity: identity))
    }
    entries.sort { ($0.label ?? "") < ($1.label ?? "") }
    let unnamed = lowest.filter { !seen.contains($0.key) }.sorted { $0.value < $1.value }
    for (identity, pid) in unnamed {
      entries.append(Entry(label: nil, target: "/proc/\(pid)/ns/net", pid: pid, identity: identity))
    }
    return entries
  }

  /// One line for `entry` and its path: the path's JSON with `"netns"` (when named), `"pid"` (when a process is in
  /// it) and `"inode"` after its keys, or the human line after `LABEL pid PID:`.
  static func line(_ entry: Entry, _ path: NetworkPath, json: Bool, formatter: PathFormatter) -> String {
    if json {
      var text = path.jsonRepresentation(with: NetworkPathJSONExtra(netns: entry.label))
      guard text.last == "}" else { return text }
      text.removeLast()
      return text + (entry.pid.map { #","pid":\#($0)"# } ?? "") + #","inode":\#(entry.identity.inode)}"#
    }
    let name = entry.label?.escapingControlCharacters() ?? "-"
    return formatter.line(path, time: name + (entry.pid.map { " pid \($0)" } ?? "") + ":")
  }

  /// Lists every namespace, with its path, on standard output.
  static func run(_ options: CommandLineOptions) -> NetStatusCommand.ExitCode {
    #if os(Linux)
      StandardOutput.ignoreBrokenPipeSignal()
      // A stop signal ends the listing between namespaces (128 + its number, as `show` ends), and one that came while
      // it listed wins over its own end.
      let stop = StopSignal { .stopped(by: $0) }
      let folders = AllNamespacesWatch.folders(options, dockerPresent: access("/run/docker", F_OK) == 0)
      var named: [(name: String, path: String, target: String, identity: NamespaceInode)] = []
      for folder in folders {
        for name in NamespaceFolderWatcher.names(in: folder).sorted() {
          let path = folder + "/" + name
          guard let identity = NamespaceFolderWatcher.namespaceIdentity(path) else { continue }
          let target = folder == AllNamespacesWatch.namedFolder ? name : path
          named.append((name, path, target, NamespaceInode(device: identity.device, inode: identity.inode)))
        }
      }
      let formatter = PathFormatter(style: NetStatusCommand.outputStyle)
      var shown = 0
      var failed = 0
      for entry in entries(named: named, processes: processNamespaces()) {
        if let code = stop.code { return code }
        let path: NetworkPath
        do throws(NetworkMonitorError) {
          let monitor = try NetworkMonitor(networkNamespace: entry.target)
          try monitor.start()
          defer { monitor.stopMonitoring() }
          // Known when start() returns, unless the monitor failed (the namespace went meanwhile).
          guard let current = monitor.currentPath, monitor.lastError == nil else {
            throw monitor.lastError ?? .sourceFailed("no path")
          }
          path = current
        } catch {
          // Gone since it was listed (its process exited), or not enterable: said, and the list goes on.
          StandardOutput.error("\((entry.label ?? entry.target).escapingControlCharacters()): \(error.description)")
          failed += 1
          continue
        }
        shown += 1
        if let code = NetStatusCommand.emit(line(entry, path, json: options.json, formatter: formatter), stop: stop) {
          return stop.finish(code)
        }
      }
      // Namespaces there, none of which could be shown (not root, say): a failure, not an empty success.
      return stop.finish(shown == 0 && failed > 0 ? .failure : .success)
    #else
      StandardOutput.error("show --all-netns: network namespaces exist only on Linux")
      return .failure
    #endif
  }

  #if os(Linux)
    /// Each process's PID and network namespace, from `/proc/*/ns/net` (as `lsns -t net` finds them); processes
    /// that cannot be read (gone, or another user's without the right to look) are left out.
    static func processNamespaces() -> [(pid: Int32, identity: NamespaceInode)] {
      var found: [(pid: Int32, identity: NamespaceInode)] = []
      for name in NamespaceFolderWatcher.names(in: "/proc") {
        guard let pid = Int32(name), pid > 0 else { continue }
        var info = stat()
        guard stat("/proc/\(pid)/ns/net", &info) == 0 else { continue }
        found.append((pid, NamespaceInode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))))
      }
      return found
    }
  #endif
}
