#if os(Linux)
  import Dispatch
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  /// The event loop never waits for one session's kernel: a session whose requests are never answered (a stand-in
  /// that swallows them, ``NetlinkPathSource/Options/swallowsRequestsAfterStart``) waits with a deadline, while the
  /// loop goes on reporting another namespace's changes.
  @Suite(
    "a session whose kernel never answers", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct HungSessionKernelTests {
    /// What the hung session was waiting for when the other namespace's changes came.
    enum Awaited: String, CustomTestStringConvertible, CaseIterable {
      /// The answers to its route lookups, after a route change.
      case lookups
      /// The parts of a re-dump, after the kernel dropped notifications.
      case dump

      var testDescription: String { rawValue }
    }

    /// Reads `source`'s statistics every 10 ms until `condition` holds, for at most 30 s (then fails, with them): for
    /// what no event announces.
    static func until(
      _ what: String, _ source: NetlinkPathSource, _ condition: (NetlinkSourceStatistics) -> Bool
    ) async throws {
      let deadline = ContinuousClock.now + .seconds(30)
      while !condition(source.statistics) {
        try #require(ContinuousClock.now < deadline, "\(what) within 30 s: \(source.statistics)")
        try await Task.sleep(for: .milliseconds(10))
      }
    }

    /// A lab with an address and a default route through its veth.
    static func routedLab(_ label: String) throws -> VethLab {
      let lab = try VethLab(label)
      do {
        try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
        try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      } catch {
        lab.delete()
        throw error
      }
      return lab
    }

    @Test("another namespace's changes are reported while it waits", arguments: Awaited.allCases)
    func anotherNamespaceIsServed(awaited: Awaited) async throws {
      let hung = try Self.routedLab("hung")
      defer { hung.delete() }
      let live = try Self.routedLab("live")
      defer { live.delete() }

      var options = NetlinkPathSource.Options()
      options.swallowsRequestsAfterStart = true
      options.replyTimeoutMilliseconds = 600_000  // it cannot give up during the test: it must still be waiting
      let gate = DispatchSemaphore(value: 0)
      var gateOpened = true
      if awaited == .dump {
        // Changes pile up in a tiny buffer until the gate opens: ENOBUFS, and a re-dump nobody answers.
        options.receiveBufferSize = 1
        options.eventGate = gate
        gateOpened = false
      }
      let (hungSource, hungSession, hungRecorder) = try hung.start(options: options)
      defer {
        if !gateOpened { gate.signal() }
        hungSession.stop()
      }
      let (liveSource, liveSession, liveRecorder) = try live.start()
      defer { liveSession.stop() }

      switch awaited {
      case .lookups:
        try hung.watched.ip("route del default")
      case .dump:
        try hung.watched.batch(
          (0..<2000).map { "route add 10.\($0 / 256).\($0 % 256).0/24 via 192.0.2.1 dev veth0" })
        gate.signal()
        gateOpened = true
      }

      // The hung session's socket is readable before the first of these changes is made: a loop that waited for
      // its kernel would report none of them until it gave up.
      var latencies: [Duration] = []
      for round in 0..<10 {
        for (command, want) in [
          ("route del default", NetworkPath.Status.unsatisfied),
          ("route add default via 192.0.2.1 dev veth0", .satisfied),
        ] {
          try live.watched.ip(command)
          let began = ContinuousClock.now
          let path = await liveRecorder.awaitPath("round \(round): \(want)") { $0.status == want }
          // What each session did, should a change go unreported.
          if path == nil { Issue.record("live: \(liveSource.statistics)\nhung: \(hungSource.statistics)") }
          try #require(path != nil)
          latencies.append(began.duration(to: .now))
        }
      }

      let statistics = hungSource.statistics
      #expect(statistics.kernelWaits == 1, "the hung session waits, once, and is still waiting: \(statistics)")
      // (An evaluation without lookups may have run: folder events of other tests' namespaces reach every session.)
      #expect(hungRecorder.paths.count == 1, "no path since its first: it has no answer to evaluate")
      if awaited == .dump {
        #expect(statistics.overflows > 0 && statistics.resyncs > 0 && statistics.dumps == 1, "\(statistics)")
      }
      if ProcessInfo.processInfo.environment["NETSTATUS_PRINT_FIGURES"] != nil {
        let sorted = latencies.sorted()
        print(
          "hung session figure (\(awaited)): another namespace's change, from ip's exit to its path:",
          "p50 \(sorted[sorted.count / 2]), max \(sorted.last ?? .zero)")
      }

      // Stopped while it waits: closed at once, and its deadline goes with it.
      let session = try #require(hungSession as? NetlinkPathSession)
      session.stop()
      #expect(session.waitUntilClosed(timeout: .seconds(10)))
      try live.watched.ip("route del default")
      await liveRecorder.awaitPath("the loop serves on") { $0.status == .unsatisfied }
    }

    @Test("a re-dump whose deadline passes starts over on a new socket, and the loop serves on")
    func aDumpStartsOverOnANewSocket() async throws {
      let hung = try Self.routedLab("redump")
      defer { hung.delete() }
      let live = try Self.routedLab("beside")
      defer { live.delete() }
      var options = NetlinkPathSource.Options()
      options.swallowsRequestsAfterStart = true
      options.replyTimeoutMilliseconds = 50
      options.receiveBufferSize = 1
      let gate = DispatchSemaphore(value: 0)
      options.eventGate = gate
      let (hungSource, hungSession, _) = try hung.start(options: options)
      var gateOpened = false
      defer {
        if !gateOpened { gate.signal() }
        hungSession.stop()
      }
      let (_, liveSession, liveRecorder) = try live.start()
      defer { liveSession.stop() }

      try hung.watched.batch((0..<2000).map { "route add 10.\($0 / 256).\($0 % 256).0/24 via 192.0.2.1 dev veth0" })
      gate.signal()
      gateOpened = true
      // Each deadline starts the dump over on a new socket (the loop waits on it instead of the old one). No event
      // says so: the statistics are read until three restarts are counted, for at most 30 s.
      try await Self.until("three restarts", hungSource) { $0.resyncs >= 4 }
      // (Not the port ID: a socket opened after two restarts may get the first one's port back.)
      #expect(
        hungSource.statistics.lastResyncReason == "no answer to the links dump request before its deadline",
        "restarted by its deadline, on a new socket: \(hungSource.statistics)")
      #expect(hungSource.statistics.dumps == 1, "none completes: the kernel never answers")

      for round in 0..<3 {
        try live.watched.ip("route del default")
        await liveRecorder.awaitPath("round \(round): offline") { $0.status == .unsatisfied }
        try live.watched.ip("route add default via 192.0.2.1 dev veth0")
        await liveRecorder.awaitPath("round \(round): online") { $0.status == .satisfied }
      }
      let session = try #require(hungSession as? NetlinkPathSession)
      session.stop()
      #expect(session.waitUntilClosed(timeout: .seconds(10)))
    }

    @Test("a resolver change while it waits goes out with the path its wait ends with")
    func aResolverChangeWhileWaiting() async throws {
      let hung = try Self.routedLab("dnswait")
      defer { hung.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-resolv-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let resolv = folder.appendingPathComponent("resolv.conf")
      try "search lan\n".write(to: resolv, atomically: true, encoding: .utf8)
      var options = NetlinkPathSource.Options()
      options.swallowsRequestsAfterStart = true
      options.replyTimeoutMilliseconds = 5_000  // two deadlines, 10 s: the file is changed and read well within
      let source = try NetlinkPathSource(
        networkNamespace: hung.watched.name, resolverConfigurationPath: resolv.path, options: options)
      let recorder = PathRecorder()
      let session = try source.start(filter: .unrestricted, sink: recorder.sink)
      defer { session.stop() }
      #expect(recorder.latest?.status == .satisfied && recorder.latest?.supportsDNS == false)

      try hung.watched.ip("route del default")
      // The lookups wait first: the inotify instance is shared with every session of the process, so a turn reading
      // other folders' events could otherwise take this change before the route's notification. No event says the
      // session waits, nor that it read the file again: the statistics are read, for at most 30 s each.
      try await Self.until("the lookups wait", source) { $0.kernelWaits >= 1 }
      try "nameserver 192.0.2.53\n".write(to: resolv, atomically: true, encoding: .utf8)
      try await Self.until("the resolver read again", source) { $0.resolverReloads >= 1 }
      #expect(recorder.paths.count == 1, "nothing sent while the lookups wait: \(recorder.paths)")
      let path = await recorder.awaitPath("offline, with DNS") { $0.status == .unsatisfied && $0.supportsDNS }
      #expect(path != nil)
      #expect(recorder.paths.count == 2, "one path for both changes: \(recorder.paths)")
    }

    @Test("when its deadline passes, it asks again, then evaluates with the lookups failed")
    func theDeadlineEndsTheWait() async throws {
      let hung = try Self.routedLab("late")
      defer { hung.delete() }
      var options = NetlinkPathSource.Options()
      options.swallowsRequestsAfterStart = true
      options.replyTimeoutMilliseconds = 100
      let (source, session, recorder) = try hung.start(options: options)
      defer { session.stop() }
      #expect(recorder.latest?.status == .satisfied)

      try hung.watched.ip("route del default")
      // Each lookup asked twice (RouteLookupExchange.attempts), each time with a deadline of its own, then failed
      // (EIO): no route, the path the kernel would give as well.
      let path = await recorder.awaitPath("offline, once the lookups failed") { $0.status == .unsatisfied }
      let statistics = source.statistics
      #expect(path != nil)
      #expect(statistics.kernelWaits >= 2, "one wait per attempt: \(statistics)")
    }
  }
#endif
