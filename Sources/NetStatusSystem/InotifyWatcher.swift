#if os(Linux)
  import CNetStatusShim
  import Glibc
  import NetStatusNetlink

  /// An inotify instance watching folders for entries being created, replaced, removed or changed.
  ///
  /// Folders, not files, are watched: resolv.conf is usually replaced by a rename or is a symbolic link,
  /// and `ip netns delete` unlinks its /run/netns entry.
  ///
  /// Owns its descriptor (``FileDescriptor``): closed exactly once, by ``close()`` or when the owner goes.
  package struct InotifyWatcher: ~Copyable, Sendable {
    /// One event: the watch it came from, its mask, and the name of the entry in the folder.
    package struct Event: Equatable, Sendable {
      package var watch: Int32
      package var mask: UInt32
      package var name: String

      /// An overflow of no watch: events were lost, anything may have changed (what the kernel sends when its queue
      /// overflows; the hub hands it to a session that missed events while it started).
      package static let overflow = Event(watch: -1, mask: InotifyWatcher.overflow, name: "")
    }

    /// The descriptor.
    package let descriptor: FileDescriptor

    /// The descriptor's number, for `epoll_ctl(2)`.
    package var fd: Int32 { descriptor.rawValue }

    /// What a folder is watched for.
    package enum Interest: Sendable {
      /// Its entries' names: created, renamed in or out, removed, and the folder itself going away. Enough for a
      /// folder of namespace names (/run/netns), whose entries are made, bind-mounted and unlinked, never written.
      case names
      /// Its entries' contents too: also written (closed after writing) and changed attributes. For the resolver's
      /// folders, where resolv.conf may be rewritten in place.
      case contents

      /// The inotify mask. Events on entries' contents cost the kernel a walk over every cached name in the
      /// folder when the watch is added (`fsnotify_set_children_dentry_flags`, which marks each child as watched
      /// by its parent): on a container host's /run/netns, where namespaces come and go, that is millions of
      /// forgotten names and milliseconds per watch, where `.names` costs microseconds. Only
      /// `.contents` asks for them. `IN_MASK_ADD`: one inotify instance serves every session, and a folder
      /// watched for both keeps the union rather than the last caller's mask.
      package var mask: UInt32 {
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
    package static let overflow = UInt32(IN_Q_OVERFLOW)

    /// The watch is gone (removed, or its folder deleted): the kernel may give its number to a new watch.
    package static let ignored = UInt32(IN_IGNORED)

    /// Creates a non-blocking inotify instance.
    ///
    /// - Throws: ``Errno`` of `inotify_init1` (NetStatusCore tells the user's inotify instance limit from the
    ///   process's descriptor limit with ``canOpenDescriptor()``).
    package static func open() throws(Errno) -> InotifyWatcher {
      let flags = Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)
      return InotifyWatcher(descriptor: FileDescriptor(adopting: try SystemCall.attempt { inotify_init1(flags) }))
    }

    /// Whether this process can open one more descriptor: an eventfd, closed at once, does not fail with EMFILE.
    package static func canOpenDescriptor() -> Bool {
      let probe = eventfd(0, Int32(EFD_CLOEXEC))
      guard probe >= 0 else { return errno != EMFILE }
      SystemCall.close(probe)
      return true
    }

    /// Watches a folder for `interest`. A folder that does not exist (yet) or cannot be watched (not a folder, not readable)
    /// is not an error: `nil`.
    ///
    /// - Throws: ``SystemCallError`` when the user's inotify watches are at their limit (ENOSPC) or the kernel is
    ///   out of memory (ENOMEM).
    package func watch(folder: String, for interest: Interest) throws(SystemCallError) -> Int32? {
      let result = SystemName.withCString(folder) { inotify_add_watch(fd, $0, interest.mask) }
      if result >= 0 { return result }
      let error = Errno(rawValue: errno)
      guard error == .noSpace || error == .outOfMemory else { return nil }
      throw SystemCallError(call: "inotify_add_watch(\(folder))", errno: error)
    }

    /// Removes a watch. A watch the kernel already removed (its folder is gone) is not an error.
    package func remove(_ watch: Int32) { _ = inotify_rm_watch(fd, watch) }

    /// Reads every pending event, without blocking.
    package func readEvents() throws(SystemCallError) -> [Event] {
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
          throw SystemCallError(call: "read(inotify)", errno: error)
        }
        if count == 0 { return events }
        events += Self.parse(buffer[0..<count])
      }
    }

    /// Parses `struct inotify_event { int wd; u32 mask; u32 cookie; u32 len; char name[len]; }` records;
    /// stops at anything inconsistent rather than reading out of bounds.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> [Event] {
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
          let name = SystemName.decode(buffer[(offset + 16)..<end])
          events.append(Event(watch: watch, mask: mask, name: name))
          offset += 16 + length
        }
      }
      return events
    }

    /// Closes the instance (and all its watches), now.
    package consuming func close() { descriptor.close() }
  }
#endif
