#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// An inotify instance watching folders for entries being created, replaced, removed or changed.
  ///
  /// Folders, not files, are watched: resolv.conf is usually replaced by a rename or is a symbolic link,
  /// and `ip netns delete` unlinks its /run/netns entry.
  struct InotifyWatcher: Sendable {
    /// One event: the watch it came from, its mask, and the name of the entry in the folder.
    struct Event: Equatable {
      var watch: Int32
      var mask: UInt32
      var name: String
    }

    /// The descriptor. The owner closes it with ``close()``.
    let fd: Int32

    /// What a folder is watched for.
    enum Interest: Sendable {
      /// Its entries' names: created, renamed in or out, removed, and the folder itself going away. Enough for a
      /// folder of namespace names (/run/netns), whose entries are made, bind-mounted and unlinked, never written.
      case names
      /// Its entries' contents too: also written (closed after writing) and changed attributes. For the resolver's
      /// folders, where resolv.conf may be rewritten in place.
      case contents

      /// The inotify mask. Events on entries' contents cost the kernel a walk over every cached name in the
      /// folder when the watch is added (`fsnotify_set_children_dentry_flags`, which marks each child as watched
      /// by its parent): on a container host's /run/netns, where namespaces come and go, that is millions of
      /// forgotten names and milliseconds per watch (3.6 ms measured here, against 5 µs for `.names`). Only
      /// `.contents` asks for them. `IN_MASK_ADD`: one inotify instance serves every session, and a folder
      /// watched for both keeps the union rather than the last caller's mask.
      var mask: UInt32 {
        let names =
          UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF)
          | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD)
        switch self {
        case .names: return names
        case .contents: return names | UInt32(IN_CLOSE_WRITE) | UInt32(IN_ATTRIB)
        }
      }
    }

    /// The event queue overflowed: events were lost.
    static let overflow = UInt32(IN_Q_OVERFLOW)

    /// The watch is gone (removed, or its folder deleted): the kernel may give its number to a new watch.
    static let ignored = UInt32(IN_IGNORED)

    /// Creates a non-blocking inotify instance.
    ///
    /// - Throws: ``NetworkMonitorError/limitReached(call:errno:limit:)`` when the user's inotify instances are
    ///   at their limit, ``NetworkMonitorError/systemCall(call:errno:)`` otherwise.
    static func open() throws(NetworkMonitorError) -> InotifyWatcher {
      let flags = Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)
      do throws(Errno) {
        return InotifyWatcher(fd: try SystemCall.attempt { inotify_init1(flags) })
      } catch {
        throw initFailure(error, descriptorAvailable: canOpenDescriptor)
      }
    }

    /// What an `inotify_init1` failure means. Its EMFILE stands for two limits: this process's descriptors
    /// (RLIMIT_NOFILE, `ulimit -n`) or the user's inotify instances (`fs.inotify.max_user_instances`, shared by
    /// all of the user's processes). It is the instances when the process can still open a descriptor.
    static func initFailure(_ error: Errno, descriptorAvailable: () -> Bool) -> NetworkMonitorError {
      guard error == .tooManyOpenFiles, descriptorAvailable() else {
        return .systemCall(call: "inotify_init1", errno: error.rawValue)
      }
      return .limitReached(call: "inotify_init1", errno: error.rawValue, limit: .inotifyInstances)
    }

    /// Whether this process can open one more descriptor: an eventfd, closed at once, does not fail with EMFILE.
    static func canOpenDescriptor() -> Bool {
      let probe = eventfd(0, Int32(EFD_CLOEXEC))
      guard probe >= 0 else { return errno != EMFILE }
      SystemCall.close(probe)
      return true
    }

    /// Watches a folder for `interest`. A folder that does not exist (yet) or cannot be watched (not a folder, not readable)
    /// is not an error: `nil`.
    ///
    /// - Throws: ``NetworkMonitorError/limitReached(call:errno:limit:)`` when the user's inotify watches are at
    ///   their limit (ENOSPC), ``NetworkMonitorError/systemCall(call:errno:)`` when the kernel is out of memory.
    func watch(folder: String, for interest: Interest) throws(NetworkMonitorError) -> Int32? {
      let result = inotify_add_watch(fd, folder, interest.mask)
      if result >= 0 { return result }
      if let error = Self.watchFailure(errno: errno, folder: folder) { throw error }
      return nil
    }

    /// The error an `inotify_add_watch` failure is, or `nil` for a folder that is simply not watchable.
    static func watchFailure(errno code: Int32, folder: String) -> NetworkMonitorError? {
      let call = "inotify_add_watch(\(folder))"
      switch code {
      case ENOSPC: return .limitReached(call: call, errno: code, limit: .inotifyWatches)
      case ENOMEM: return .systemCall(call: call, errno: code)
      default: return nil
      }
    }

    /// Removes a watch. A watch the kernel already removed (its folder is gone) is not an error.
    func remove(_ watch: Int32) { _ = inotify_rm_watch(fd, watch) }

    /// Reads every pending event, without blocking.
    func readEvents() throws(NetworkMonitorError) -> [Event] {
      var events: [Event] = []
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count: Int
        let result = buffer.withUnsafeMutableBytes { raw in
          Result { () throws(Errno) in try SystemCall.attempt { read(fd, raw.baseAddress, raw.count) } }
        }
        do throws(Errno) {
          count = try result.get()
        } catch {
          if error == .resourceTemporarilyUnavailable { return events }
          throw .systemCall(call: "read(inotify)", errno: error.rawValue)
        }
        if count == 0 { return events }
        events += Self.parse(buffer[0..<count])
      }
    }

    /// Parses `struct inotify_event { int wd; u32 mask; u32 cookie; u32 len; char name[len]; }` records;
    /// stops at anything inconsistent rather than reading out of bounds.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
      var events: [Event] = []
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while buffer.count - offset >= 16 {
          let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
          let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          guard length <= buffer.count - offset - 16 else { break }
          let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)]
          let end = nameBytes.firstIndex(of: 0) ?? nameBytes.endIndex
          let name = String(decoding: buffer[(offset + 16)..<end], as: UTF8.self)
          events.append(Event(watch: watch, mask: mask, name: name))
          offset += 16 + length
        }
      }
      return events
    }

    /// Closes the instance (and all its watches).
    func close() { SystemCall.close(fd) }
  }
#endif
