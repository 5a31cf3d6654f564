#if os(Linux)
  import NetStatusNetlink
  import NetStatusSystem
  import CNetStatusShim
  import Glibc

  /// Follows the named network namespaces, the ones `ip netns list` shows: each that appears and each that
  /// disappears, as it happens. For an agent that watches every container's network (`netstatus watch --all-netns`).
  ///
  /// ```swift
  /// let namespaces = try NamedNetworkNamespaces { change in
  ///   switch change {
  ///   case .appeared(let name): print("new namespace", name)   // e.g. start a NetworkMonitor(networkNamespace:)
  ///   case .disappeared(let name): print("gone", name)
  ///   }
  /// }
  /// // …
  /// namespaces.stop()
  /// ```
  ///
  /// Event-driven: the rtnetlink thread every Linux monitor of the process shares waits for inotify on the folder
  /// (`/run/netns`, or `/run` until `ip netns add` makes it) and for the mount table's change notification, because
  /// `ip netns add` creates the file first and bind-mounts the namespace on it afterwards. A name is reported once
  /// it is a namespace (a file on nsfs), never before; `.disappeared` when the name is removed or is no namespace
  /// any more. A name is judged by the namespace it points at, not by the name: one that now names another
  /// namespace (a bind mount replaced, a link pointed elsewhere) disappears and appears again.
  ///
  /// That thread only hands the events over: reading the folder and the mount table, and the handler, run on a
  /// thread made when a folder changes and ended once the change is handled (none while nothing happens; one for
  /// every followed folder of the process, NamespaceFolderQueue.swift), so that neither a large folder nor a slow
  /// handler holds any monitor's events. The handler is called one change at a time, in order: the names present
  /// at start first, and the folders followed first before those followed later. It may start and stop monitors (a
  /// monitor's first dump takes a while: only the folders' next changes wait for it).
  package final class NamedNetworkNamespaces: Sendable {
    /// A change of the set of named namespaces.
    package enum Change: Sendable, Hashable {
      /// A namespace with this name exists now (or existed when watching started).
      case appeared(String)
      /// The name no longer names a namespace.
      case disappeared(String)
    }

    private let watcher: NamespaceFolderWatcher

    /// Starts following the namespaces in `folder`. `handler` is called with `.appeared` for each namespace
    /// present, soon after this returns, then with each change.
    ///
    /// - Parameters:
    ///   - folder: Where `ip netns` keeps named namespaces: `/run/netns`.
    ///   - handler: Called with each change, on the folder's own thread.
    /// - Throws: ``NetworkMonitorError`` when the watches cannot be made (an inotify limit, for example).
    package init(
      folder: String = "/run/netns", handler: @escaping @Sendable (Change) -> Void
    ) throws(NetworkMonitorError) {
      let reservation = try NetlinkEventHub.shared.reserve()
      let watcher = NamespaceFolderWatcher(folder: folder, handler: handler, reservation: reservation)
      do throws(NetworkMonitorError) {
        try watcher.startUp()
      } catch {
        watcher.close()
        NetlinkEventHub.shared.cancel(reservation)
        throw error
      }
      NetlinkEventHub.shared.register(reservation, client: watcher)
      try NetlinkEventHub.shared.activate(reservation)
      self.watcher = watcher
    }

    deinit { stop() }

    /// Stops following: the handler is not called after this returns (unless this is called from the handler, which
    /// then finishes its change, or from the rtnetlink thread, where a change under way finishes without reporting
    /// more). From another thread, a change being handled is waited for.
    package func stop() {
      watcher.stopReporting()
      NetlinkEventHub.shared.stop(watcher.reservation)
    }

    /// The names of the namespaces in `folder` now, sorted (what `ip netns list` shows, without the ids).
    package static func list(folder: String = "/run/netns") -> [String] {
      NamespaceFolderWatcher.names(in: folder).filter { NamespaceFolderWatcher.isNamespace(folder + "/" + $0) }.sorted()
    }
  }

  /// The hub client behind ``NamedNetworkNamespaces``.
  ///
  /// `@unchecked Sendable`: the event loop's thread only queues its work (``handle(_:)``, into
  /// ``NamespaceFolderQueue``); the rest of its mutable state (the names known, the watches) is used by that queue's
  /// draining thread alone, one thread at a time (each ends under the queue's lock before the next begins). The mount
  /// table's descriptor is opened before the loop knows the client, and closed by the loop after
  /// ``stopReporting()``, which waits for the work being handled.
  package final class NamespaceFolderWatcher: NetlinkHubClient, @unchecked Sendable {
    let reservation: NetlinkEventHub.Reservation
    /// ``stopReporting()`` was called: nothing more is handled or reported.
    private let stopped = Locked(false)
    /// The first scan is queued by the loop right after enabling (`resume`), so that every change comes from the
    /// queue's thread.
    let startedUnsettled = true

    private let folder: String
    private let handler: @Sendable (NamedNetworkNamespaces.Change) -> Void
    /// `/proc/self/mountinfo`, which reports a priority event when the mount table changes.
    private var mountTable: Int32 = -1
    private var folderWatch: Int32?
    private var parentWatch: Int32?
    /// Namespaces reported as present, and the identity (device and inode on nsfs) of the namespace each names.
    private var known: [String: NamespaceIdentity] = [:]
    /// Names in the folder that are not namespaces (yet): `ip netns add` mounts the namespace after creating
    /// the file.
    private var pending: Set<String> = []

    init(
      folder: String, handler: @escaping @Sendable (NamedNetworkNamespaces.Change) -> Void,
      reservation: NetlinkEventHub.Reservation
    ) {
      self.folder = folder
      self.handler = handler
      self.reservation = reservation
    }

    var descriptors: [NetlinkHubDescriptor] {
      mountTable >= 0 ? [.init(fd: mountTable, kind: .mountTable)] : []
    }

    /// Watches the folder (or its parent, until the folder exists) and opens the mount table.
    func startUp() throws(NetworkMonitorError) {
      parentWatch = try NetlinkEventHub.shared.watch(folder: LocalFile.directory(of: folder), .names, for: reservation)
      folderWatch = try NetlinkEventHub.shared.watch(folder: folder, .names, for: reservation)
      mountTable = try SystemCall.invoke("open(/proc/self/mountinfo)") {
        open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
      }
    }

    func close() {
      SystemCall.close(mountTable)
      mountTable = -1
    }

    /// On the loop's thread: queues `work` for the folder queue's thread.
    func handle(_ work: NetlinkHubWork) -> NetlinkHubOutcome {
      switch work {
      case .netlinkReadable, .wirelessReadable, .processExited, .deadlinePassed: return .idle
      case .resume, .mountTableChanged, .folderEvents: break
      }
      if !isStopped { NamespaceFolderQueue.enqueue(work, for: self) }
      return .idle
    }

    /// Ends reporting: nothing queued is handled any more, and the handler is not called again. From the handler,
    /// returns at once; from the event loop's thread too (a monitor's synchronous subscriber), since the handler may
    /// be waiting for that thread (starting a monitor): a change under way finishes, reporting nothing more. From any
    /// other thread, returns once the work being handled (if it is this folder's) has ended.
    func stopReporting() {
      stopped.withLockedValue { $0 = true }
      NamespaceFolderQueue.forget(self, waiting: !reservation.loop.isCurrentThread)
    }

    /// Whether reporting stopped.
    private var isStopped: Bool { stopped.withLockedValue { $0 } }

    /// Handles one piece of work, on the folder queue's thread.
    func perform(_ work: NetlinkHubWork) {
      guard !isStopped else { return }
      switch work {
      case .resume:
        rescan()
      case .mountTableChanged:
        // Only the folder's mount points can have become namespaces, and known ones stopped being ones: not every
        // plain file the folder holds. Without the table, every name seen (as before).
        if let mounted = mountedNames() {
          check(mounted.union(known.keys))
        } else {
          check(pending.union(known.keys))
        }
      case .folderEvents(let events):
        if events.contains(where: { $0.mask & InotifyWatcher.overflow != 0 }) {
          rescan()
          return
        }
        var names: Set<String> = []
        for event in events {
          if event.mask & InotifyWatcher.ignored != 0 {
            if event.watch == folderWatch { folderWatch = nil }
            if event.watch == parentWatch { parentWatch = nil }
          }
          if event.watch == folderWatch, !event.name.isEmpty { names.insert(event.name) }
          if event.watch == folderWatch, event.name.isEmpty { names.formUnion(known.keys) }  // the folder itself went
          if event.watch == parentWatch, event.name == LocalFile.lastComponent(of: folder) {
            // The folder was made (or removed): watch it now, and read it whole.
            folderWatch = try? NetlinkEventHub.shared.watch(folder: folder, .names, for: reservation)
            names.formUnion(Self.names(in: folder))
            names.formUnion(known.keys)
          }
        }
        check(names)
      case .netlinkReadable, .wirelessReadable, .processExited, .deadlinePassed:
        break
      }
    }

    /// The names of the folder with something mounted on them, from the mount table (read through the descriptor
    /// the hub polls: `pread`, which leaves its change note alone), or `nil` when it cannot be read.
    private func mountedNames() -> Set<String>? {
      guard mountTable >= 0 else { return nil }
      var table: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 64 * 1024)
      while table.count < 16 * 1024 * 1024 {
        let count = chunk.withUnsafeMutableBytes { pread(mountTable, $0.baseAddress, $0.count, off_t(table.count)) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { break }
        table += chunk[..<count]
      }
      // As the mount table writes it: links resolved (/var/run is /run).
      guard let resolved = SystemName.withCString(folder, { realpath($0, nil) }) else { return [] }
      defer { free(resolved) }
      return MountInfo.mountedNames(
        in: table, under: SystemName.decode(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }

    /// Checks every name in the folder and every known one.
    private func rescan() {
      check(Set(Self.names(in: folder)).union(known.keys))
    }

    /// Reports the names among `names` that became namespaces or stopped being ones, in name order.
    private func check(_ names: Set<String>) {
      for name in names.sorted() {
        let path = folder + "/" + name
        if let identity = Self.namespaceIdentity(path) {
          pending.remove(name)
          guard known[name] != identity else { continue }
          if known[name] != nil { report(.disappeared(name)) }
          known[name] = identity
          report(.appeared(name))
        } else {
          if SystemName.withCString(path, { access($0, F_OK) }) == 0 {
            pending.insert(name)
          } else {
            pending.remove(name)
          }
          if known.removeValue(forKey: name) != nil { report(.disappeared(name)) }
        }
      }
    }

    private func report(_ change: NamedNetworkNamespaces.Change) {
      guard !isStopped else { return }
      handler(change)
    }

    /// A namespace's identity: its nsfs device and inode (what `lsns` shows as NS). One namespace bind-mounted in
    /// two places has one identity.
    package struct NamespaceIdentity: Hashable, Sendable {
      package var device: UInt64
      package var inode: UInt64
    }

    /// Whether the file is a namespace: on nsfs (a bind mount of one, or a link to `/proc/PID/ns/net`), not the
    /// empty file under it.
    package static func isNamespace(_ path: String) -> Bool {
      var type = 0
      return SystemName.withCString(path) { cns_statfs_type($0, &type) } == 0 && type == cns_nsfs_magic()
    }

    /// The identity of the namespace at `path` (links followed), or `nil` when it is none.
    package static func namespaceIdentity(_ path: String) -> NamespaceIdentity? {
      guard isNamespace(path) else { return nil }
      var info = stat()
      guard SystemName.withCString(path, { stat($0, &info) }) == 0 else { return nil }
      return NamespaceIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The entries of a folder (none when it cannot be read).
    package static func names(in folder: String) -> [String] {
      guard let directory = SystemName.withCString(folder, { opendir($0) }) else { return [] }
      defer { closedir(directory) }
      var names: [String] = []
      while let entry = readdir(directory) {
        // Bytes, not text: `x\xff` and `x\xfe` are two namespaces (SystemName).
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in SystemName.decode(raw.prefix { $0 != 0 }) }
        if name != "." && name != ".." { names.append(name) }
      }
      return names
    }
  }
#endif
