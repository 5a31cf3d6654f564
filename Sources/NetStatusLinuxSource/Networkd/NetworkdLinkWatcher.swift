#if os(Linux)
  import NetStatusSystem
  import Glibc

  /// Follows systemd-networkd's per-link state files (`ROOT/links/IFINDEX`) for a session, with the hub's one inotify
  /// instance: no thread and no polling of its own.
  ///
  /// networkd writes each file to a temporary name and renames it into place, and removes it with its link; the folder
  /// may not exist yet (networkd not running) and appear later. So three folders are watched for names only
  /// (`ROOT`'s parent, `ROOT` and `ROOT/links`: ARCHITECTURE.md, "Kernel and platform facts", says why names only),
  /// a renamed-in or removed file is read again alone, and a change higher up reads the folder again and watches
  /// what now exists.
  ///
  /// Anything in the folder costs bounded time and memory: only the files of links the session's namespace has are
  /// read (the session tells it which, ``follow(links:)``), at most ``fileCountLimit`` of them, each non-blocking, a
  /// regular file only and skipped when larger than ``fileLimit`` (``LocalFile/read(_:limit:)``), and only the keys
  /// NetStatus knows are kept (``NetworkdLinkState/knownKeys``).
  ///
  /// Owned by one session's worker, used on the thread that runs it (the starting thread, then the hub's).
  struct NetworkdLinkWatcher {
    let root: String
    let record: NetworkdRecord
    /// The folder watches, and what each watches: the parent of the root, the root, or the links folder.
    private var watches: [Int32: Level] = [:]
    private var links: [Int32: NetworkdLinkState] = [:]
    /// The links the namespace has whose files are read (at most ``fileCountLimit``).
    private var existing: Set<Int32> = []
    private var use = NetworkdStatus.Use.notStarted
    /// The session reading, once started (its hub reservation's ID).
    private var session: UInt64?

    private enum Level { case parent, root, links, units }

    /// Whether the folder is the default one, whose files count only while networkd runs (``NetworkdProcess``); one
    /// given by the caller (`--networkd-root`, tests) is taken as it is.
    private var checksProcess: Bool { Self.checksProcess(root: root) }

    static func checksProcess(root: String) -> Bool { root == "/run/systemd/netif" }

    /// The largest state file read: networkd's are under 2 KiB. A larger one is skipped whole (not networkd's).
    static let fileLimit = 32 * 1024

    /// The most files read: those of the links with the lowest indexes.
    static let fileCountLimit = 1024

    init(root: String, record: NetworkdRecord) {
      self.root = root
      self.record = record
    }

    private var linksFolder: String { root + "/links" }

    /// Watches the folders and reads the files of `links`, the links the namespace has (as first dumped). Fails only
    /// when a watch hits a limit.
    mutating func start(for reservation: NetlinkEventHub.Reservation, links: [Int32: some Any])
      throws(NetworkMonitorError)
    {
      session = reservation.id
      existing = Self.readable(links)
      try watchFolders(for: reservation)
      reloadAll()
    }

    /// The namespace's links may have changed (called after every change that may move the path, which every link
    /// change is): a new link's file is read, a gone link's state dropped. Cheap when the set is the same.
    mutating func follow(links: [Int32: some Any]) {
      guard session != nil else { return }
      let limited = links.count > Self.fileCountLimit
      guard limited || links.count != existing.count || !links.keys.allSatisfy(existing.contains) else { return }
      let now = Self.readable(links)
      guard now != existing else { return }
      for gone in existing.subtracting(now) { self.links[gone] = nil }
      if use == .inUse {
        for new in now.subtracting(existing) {
          self.links[new] = Self.read(linksFolder + "/" + String(new), index: new)
        }
      }
      existing = now
      publish()
    }

    /// The indexes whose files are read: all of `links`', or the ``fileCountLimit`` lowest.
    private static func readable(_ links: [Int32: some Any]) -> Set<Int32> {
      guard links.count > fileCountLimit else { return Set(links.keys) }
      return Set(links.keys.sorted().prefix(fileCountLimit))
    }

    /// Handles the session's folder events: those of its own watches read what changed. Fails only when a watch
    /// hits a limit.
    mutating func handle(_ events: [InotifyWatcher.Event], for reservation: NetlinkEventHub.Reservation)
      throws(NetworkMonitorError)
    {
      var everything = false
      var changed: Set<Int32> = []
      for event in events {
        if event.mask & InotifyWatcher.overflow != 0 {
          everything = true
          continue
        }
        guard let level = watches[event.watch] else { continue }
        if event.mask & InotifyWatcher.ignored != 0 {
          watches[event.watch] = nil
          everything = true
          continue
        }
        switch level {
        case .parent:
          if event.name == LocalFile.lastComponent(of: root) { everything = true }
        case .root:
          if event.name.isEmpty || event.name == "links" { everything = true }
        case .links:
          if event.name.isEmpty {
            everything = true
          } else if let index = Self.index(named: event.name), existing.contains(index) {
            changed.insert(index)
          }
        case .units:
          // networkd's unit started or stopped: its files start or stop counting.
          if event.name.isEmpty || event.name == NetworkdProcess.invocationName { everything = true }
        }
      }
      if everything {
        try watchFolders(for: reservation)
        reloadAll()
      } else if !changed.isEmpty {
        for index in changed { links[index] = Self.read(linksFolder + "/" + String(index), index: index) }
        publish()
      }
    }

    /// The session ended: nothing is read any more.
    mutating func stop() {
      watches = [:]
      links = [:]
      existing = []
      use = .notStarted
      if let session { record.end(session: session) }
      session = nil
    }

    private mutating func watchFolders(for reservation: NetlinkEventHub.Reservation) throws(NetworkMonitorError) {
      var folders = [(LocalFile.directory(of: root), Level.parent), (root, .root), (linksFolder, .links)]
      if checksProcess { folders.append((NetworkdProcess.unitsFolder, .units)) }
      for (folder, level) in folders {
        if let watch = try NetlinkEventHub.shared.watch(folder: folder, .names, for: reservation) {
          watches[watch] = level
        }
      }
    }

    /// Reads every file of the links folder.
    private mutating func reloadAll() {
      (use, links) = Self.readFolder(linksFolder, links: existing, checksProcess: checksProcess)
      publish()
    }

    /// What the links folder says about `links` (interface indexes), read once: each one's state, or why none can
    /// be read. The folder is opened, never listed: whatever else it holds is not read. With `checksProcess` (the
    /// default folder), nothing is read unless networkd runs: files it left behind say nothing now.
    static func readFolder(_ linksFolder: String, links indexes: Set<Int32>, checksProcess: Bool) -> (
      NetworkdStatus.Use, [Int32: NetworkdLinkState]
    ) {
      guard let directory = opendir(linksFolder) else {
        let code = errno
        return (code == ENOENT || code == ENOTDIR ? .folderMissing : .unreadable(errno: code), [:])
      }
      closedir(directory)
      if checksProcess, !NetworkdProcess.isRunning() { return (.notRunning, [:]) }
      var links: [Int32: NetworkdLinkState] = [:]
      for index in indexes {
        links[index] = read(linksFolder + "/" + String(index), index: index)
      }
      return (.inUse, links)
    }

    /// The status of networkd's files under `root` (`nil`: none is read, another namespace) for the links `links`
    /// (the namespace's interface indexes), read once: what `netstatus show --all` prints.
    static func status(root: String?, unused: NetworkdStatus.Use = .otherNamespace, links: some Sequence<Int32>)
      -> NetworkdStatus
    {
      guard let root else { return NetworkdStatus(root: nil, use: unused) }
      let indexes = Array(links)
      let readable =
        indexes.count > fileCountLimit ? Set(indexes.sorted().prefix(fileCountLimit)) : Set(indexes)
      let (use, states) = readFolder(root + "/links", links: readable, checksProcess: checksProcess(root: root))
      return NetworkdStatus(root: root, use: use, links: states)
    }

    private func publish() {
      guard let session else { return }
      record.update(NetworkdStatus(root: root, use: use, links: use == .inUse ? links : [:]), session: session)
    }

    /// The interface index a file name stands for: decimal digits only, a positive `Int32` (networkd's temporary
    /// files, `.#…`, are not).
    static func index(named name: String) -> Int32? {
      guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let index = Int32(name), index > 0 else {
        return nil
      }
      return index
    }

    /// The state in the file at `path`, or `nil` when it is gone, not a regular file, or larger than ``fileLimit``.
    static func read(_ path: String, index: Int32) -> NetworkdLinkState? {
      guard let bytes = LocalFile.read(path, limit: fileLimit + 1), bytes.count <= fileLimit else { return nil }
      return NetworkdLinkState(index: index, fileContents: String(decoding: bytes, as: UTF8.self))
    }
  }
#endif
