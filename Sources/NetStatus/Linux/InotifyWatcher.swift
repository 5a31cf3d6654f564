#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// An inotify instance watching folders for entries being created, replaced, removed or changed.
  ///
  /// Folders, not files, are watched: resolv.conf is usually replaced by a rename or is a symbolic link,
  /// and `ip netns delete` unlinks its /run/netns entry.
  struct InotifyWatcher {
    /// One event: the watch it came from, its mask, and the name of the entry in the folder.
    struct Event: Equatable {
      var watch: Int32
      var mask: UInt32
      var name: String
    }

    /// The descriptor. The owner closes it with ``close()``.
    let fd: Int32

    /// What a folder watch reports: entries created, written, renamed in or out, removed or changed
    /// (attributes), and the folder itself going away.
    static let folderMask: UInt32 =
      UInt32(IN_CREATE) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_DELETE)
      | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    /// The event queue overflowed: events were lost.
    static let overflow = UInt32(IN_Q_OVERFLOW)

    /// Creates a non-blocking inotify instance.
    static func open() throws(NetworkMonitorError) -> InotifyWatcher {
      let flags = Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)
      return InotifyWatcher(fd: try SystemCall.run("inotify_init1") { inotify_init1(flags) })
    }

    /// Watches a folder. A folder that does not exist (yet) is not an error: `nil`.
    func watch(folder: String) -> Int32? {
      let result = inotify_add_watch(fd, folder, Self.folderMask)
      return result >= 0 ? result : nil
    }

    /// Reads every pending event, without blocking.
    func readEvents() throws(NetworkMonitorError) -> [Event] {
      var events: [Event] = []
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count: Int
        let result = buffer.withUnsafeMutableBytes { raw in
          Result { () throws(NetworkMonitorError) in
            try SystemCall.run("read(inotify)") { read(fd, raw.baseAddress, raw.count) }
          }
        }
        do throws(NetworkMonitorError) {
          count = try result.get()
        } catch {
          if case .systemCall(_, let code) = error, code == EAGAIN { return events }
          throw error
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
