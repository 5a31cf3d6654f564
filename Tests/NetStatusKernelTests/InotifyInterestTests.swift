#if os(Linux)
  import Foundation
  import Glibc
  import Testing

  @testable import NetStatusCore
  import NetStatusSystem

  /// One inotify instance serves every session: a folder watched for names by one and for contents by another must
  /// report both, and a watch for names alone must not ask for the events that cost a walk over the folder's cached
  /// names.
  @Suite("inotify interests")
  struct InotifyInterestTests {
    @Test func namesAloneAskForNoEventOnAnEntrysContents() {
      let names = InotifyWatcher.Interest.names.mask
      #expect(names & UInt32(IN_CLOSE_WRITE) == 0)
      #expect(names & UInt32(IN_ATTRIB) == 0)
      #expect(names & UInt32(IN_CREATE) != 0 && names & UInt32(IN_DELETE) != 0)
      let contents = InotifyWatcher.Interest.contents.mask
      #expect(contents & UInt32(IN_CLOSE_WRITE) != 0 && contents & UInt32(IN_ATTRIB) != 0)
    }

    /// Without `IN_MASK_ADD` the second `inotify_add_watch` replaces the first one's mask: a write inside the
    /// folder would go unseen by the session that asked for contents.
    @Test(arguments: [
      [InotifyWatcher.Interest.contents, .names], [InotifyWatcher.Interest.names, .contents],
    ])
    func aFolderWatchedForBothReportsBoth(_ order: [InotifyWatcher.Interest]) throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-inotify-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let existing = folder + "/resolv.conf"
      #expect(FileManager.default.createFile(atPath: existing, contents: Data("nameserver 10.0.0.1\n".utf8)))

      let watcher = try InotifyWatcher.open()  // closed when it goes out of scope
      let first = try #require(try watcher.watch(folder: folder, for: order[0]))
      let second = try #require(try watcher.watch(folder: folder, for: order[1]))
      #expect(first == second, "one folder, one watch")

      // Rewritten in place: only a contents watch sees it.
      let handle = try #require(FileHandle(forWritingAtPath: existing))
      handle.write(Data("nameserver 10.0.0.2\n".utf8))
      try handle.close()
      // A new entry: both see it.
      let created = open(folder + "/new", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
      #expect(created >= 0, "open(O_CREAT): errno \(errno)")
      Glibc.close(created)

      let events = try watcher.readEvents()
      #expect(
        events.contains { $0.name == "resolv.conf" && $0.mask & UInt32(IN_CLOSE_WRITE) != 0 },
        "the write in place was lost: \(events)")
      #expect(events.contains { $0.name == "new" && $0.mask & UInt32(IN_CREATE) != 0 }, "\(events)")
    }
  }
#endif
