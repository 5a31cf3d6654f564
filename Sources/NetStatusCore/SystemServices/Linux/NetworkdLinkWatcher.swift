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
  /// what now exists. Files are read non-blocking, regular files only, at most 64 KiB (``LocalFile/read(_:limit:)``).
  ///
  /// Owned by one session's worker, used on the thread that runs it (the starting thread, then the hub's).
  struct NetworkdLinkWatcher {
    let root: String
    let record: NetworkdRecord
    /// The folder watches, and what each watches: the parent of the root, the root, or the links folder.
    private var watches: [Int32: Level] = [:]
    private var links: [Int32: NetworkdLinkState] = [:]
    private var use = NetworkdStatus.Use.notStarted
    /// The session reading, once started (its hub reservation's ID).
    private var session: UInt64?

    private enum Level { case parent, root, links }

    /// The most of a state file read: networkd's are under 2 KiB.
    static let fileLimit = 64 * 1024

    init(root: String, record: NetworkdRecord) {
      self.root = root
      self.record = record
    }

    private var linksFolder: String { root + "/links" }

    /// Watches the folders and reads every file. Fails only when a watch hits a limit.
    mutating func start(for reservation: NetlinkEventHub.Reservation) throws(NetworkMonitorError) {
      session = reservation.id
      try watchFolders(for: reservation)
      reloadAll()
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
          } else if let index = Self.index(named: event.name) {
            changed.insert(index)
          }
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
      use = .notStarted
      if let session { record.end(session: session) }
      session = nil
    }

    private mutating func watchFolders(for reservation: NetlinkEventHub.Reservation) throws(NetworkMonitorError) {
      for (folder, level) in [(LocalFile.directory(of: root), Level.parent), (root, .root), (linksFolder, .links)] {
        if let watch = try NetlinkEventHub.watch(folder: folder, .names, for: reservation) { watches[watch] = level }
      }
    }

    /// Reads every file of the links folder.
    private mutating func reloadAll() {
      (use, links) = Self.readFolder(linksFolder)
      publish()
    }

    /// What the links folder says, read once: every file's state, or why none can be read.
    static func readFolder(_ linksFolder: String) -> (NetworkdStatus.Use, [Int32: NetworkdLinkState]) {
      guard let directory = opendir(linksFolder) else {
        let code = errno
        return (code == ENOENT || code == ENOTDIR ? .folderMissing : .unreadable(errno: code), [:])
      }
      var names: [String] = []
      while let entry = readdir(directory) {
        names.append(
          withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
      }
      closedir(directory)
      var links: [Int32: NetworkdLinkState] = [:]
      for name in names {
        guard let index = index(named: name) else { continue }
        links[index] = read(linksFolder + "/" + name, index: index)
      }
      return (.inUse, links)
    }

    /// The status of networkd's files under `root` (`nil`: none is read, another namespace), read once: what
    /// `netstatus show --all` prints.
    static func status(root: String?) -> NetworkdStatus {
      guard let root else { return NetworkdStatus(root: nil, use: .otherNamespace) }
      let (use, links) = readFolder(root + "/links")
      return NetworkdStatus(root: root, use: use, links: links)
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

    /// The state in the file at `path`, or `nil` when it is gone (or not a regular file).
    static func read(_ path: String, index: Int32) -> NetworkdLinkState? {
      guard let bytes = LocalFile.read(path, limit: fileLimit) else { return nil }
      return NetworkdLinkState(index: index, fileContents: String(decoding: bytes, as: UTF8.self))
    }
  }
#endif
