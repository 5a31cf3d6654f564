#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  @testable import NetStatusPathSource

  /// Files that are not what they claim: a FIFO, a device, a directory or a huge file where a namespace or a
  /// resolver configuration is expected. Each must give a clear answer at once, never a hang. No root needed.
  @Suite("files that are not what they claim")
  struct UntrustedFileTests {
    /// A folder of its own for a test's files, removed with it.
    final class Scratch {
      let path: String

      init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      }

      deinit { try? FileManager.default.removeItem(atPath: path) }

      /// Makes a FIFO named `name` and returns its path.
      func fifo(_ name: String) throws -> String {
        let fifo = path + "/" + name
        guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return fifo
      }
    }

    /// Runs `body` on a thread of its own (it makes blocking calls) and returns its result. After `timeout` it
    /// throws ``TimedOut`` and opens `fifo` for writing, which lets a reader blocked on it go, so that a
    /// regression fails the test loudly instead of hanging the run.
    static func answer<Value: Sendable>(
      within timeout: Duration = .seconds(5), _ what: String, unblocking fifo: String,
      _ body: @escaping @Sendable () -> Value
    ) async throws -> Value {
      let results = Recorder<Value>()
      Thread { results.append(body()) }.start()
      do {
        try await results.waitFor(count: 1, timeout: timeout, what)
      } catch {
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if writer >= 0 { close(writer) }
        throw error
      }
      return results.values[0]
    }

    @Test("a FIFO as the namespace: a clear error at once, no hang")
    func fifoNamespace() async throws {
      let scratch = try Scratch()
      let fifo = try scratch.fifo("netns")
      let outcome = try await Self.answer("NetlinkPathSource(networkNamespace: FIFO) to answer", unblocking: fifo) {
        Result { () throws(NetworkMonitorError) in try NetlinkPathSource(networkNamespace: fifo) }.map { _ in () }
      }
      #expect(throws: NetworkMonitorError.namespaceNotEnterable(path: fifo, errno: Errno(rawValue: ENOTTY))) {
        try outcome.get()
      }
      let description = NetworkMonitorError.namespaceNotEnterable(path: fifo, errno: Errno(rawValue: ENOTTY))
        .description
      #expect(description.contains(fifo) && description.contains("not a namespace file"), "\(description)")
      #expect(description.contains("/proc/PID/ns/net"), "says what to give instead: \(description)")
    }

    @Test(
      "a device, a directory, and a namespace of another type are refused as network namespaces",
      arguments: [("/dev/zero", ENOTTY), ("/dev/null", ENOTTY), ("/tmp", ENOTTY), ("/proc/self/ns/mnt", EINVAL)])
    func otherFilesAsNamespaces(path: String, errno expected: Int32) {
      #expect(throws: NetworkMonitorError.namespaceNotEnterable(path: path, errno: Errno(rawValue: expected))) {
        try NetlinkPathSource(networkNamespace: path)
      }
    }

    @Test("a FIFO and a character device read as no file, at once")
    func fifoAndDeviceReadAsNothing() async throws {
      let scratch = try Scratch()
      let fifo = try scratch.fifo("resolv.conf")
      let read = try await Self.answer("LocalFile.read(FIFO) to answer", unblocking: fifo) { LocalFile.read(fifo) }
      #expect(read == nil)
      #expect(LocalFile.read("/dev/zero") == nil, "a character device is not a file to read")
      #expect(LocalFile.read("/dev/null") == nil)
      #expect(LocalFile.read(scratch.path) == nil, "nor is a directory")
    }

    @Test("a large regular file is read up to the bound, no further")
    func largeFileIsBounded() throws {
      let scratch = try Scratch()
      let path = scratch.path + "/large"
      let size = 3 * LocalFile.defaultLimit + 123
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let read = try #require(LocalFile.read(path))
      #expect(LocalFile.defaultLimit == 1 << 20)
      #expect(read.count == LocalFile.defaultLimit)
      #expect(read == Array(bytes[0..<LocalFile.defaultLimit]), "the file's first MiB")
      #expect(LocalFile.read(path, limit: 5000) == Array(bytes[0..<5000]), "a limit that is not a chunk's multiple")
      #expect(LocalFile.read(path, limit: size * 2) == bytes, "a limit above the size reads it all")
    }

    @Test("a FIFO or /dev/zero as the resolver configuration: no DNS, at once")
    func fifoAndDeviceAsResolverConfiguration() async throws {
      let scratch = try Scratch()
      let fifo = try scratch.fifo("resolv.conf")
      let loaded = try await Self.answer("ResolverConfiguration.load(FIFO) to answer", unblocking: fifo) {
        ResolverConfiguration.load(path: fifo)
      }
      #expect(!loaded.supportsDNS)
      #expect(!ResolverConfiguration.load(path: "/dev/zero").supportsDNS)
      // resolved's stub followed to an upstream list that is a FIFO: the stub itself counts, as when unreadable.
      let stub = scratch.path + "/stub-resolv.conf"
      try "nameserver 127.0.0.53\n".write(toFile: stub, atomically: true, encoding: .utf8)
      let followed = try await Self.answer("the upstream FIFO to be skipped", unblocking: fifo) {
        ResolverConfiguration.load(path: stub, upstreamPath: fifo)
      }
      #expect(followed.nameservers == ["127.0.0.53"])
    }

    @Test("a source whose resolver configuration is a FIFO or /dev/zero starts, and says no DNS")
    func sourceWithUnreadableResolverConfiguration() async throws {
      let scratch = try Scratch()
      let fifo = try scratch.fifo("resolv.conf")
      for resolver in [fifo, "/dev/zero"] {
        let first = try await Self.answer("a source with resolver \(resolver) to start", unblocking: fifo) {
          () -> Result<NetworkPath?, NetworkMonitorError> in
          Result { () throws(NetworkMonitorError) in
            // This process's own namespace: no root needed.
            let source = try NetlinkPathSource(resolverConfigurationPath: resolver)
            let recorder = PathRecorder()
            let session = try source.start(filter: .unrestricted, sink: recorder.sink)
            session.stop()
            return recorder.paths.first
          }
        }
        let path = try #require(try first.get(), "the first path, with \(resolver)")
        #expect(!path.supportsDNS, "\(resolver)")
      }
    }
  }
#endif
