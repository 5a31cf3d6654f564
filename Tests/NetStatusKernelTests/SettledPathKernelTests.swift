#if os(Linux)
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// ``NetworkMonitor/settled(offlineAfter:onlineAfter:clock:)`` against the kernel: a veth whose carrier flaps.
  ///
  /// The settled monitor runs on a ``TestClock``: the kernel's changes are real, time moves only when the test says.
  /// A flap cannot outlast the hold on a slow machine (under a sanitizer, one flap has taken seconds), and the held
  /// loss is reported exactly when the hold has passed, not before.
  @Suite(
    "settled paths against the kernel",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct SettledPathKernelTests {
    /// The hold, on the test clock.
    static let hold = Duration.seconds(5)

    /// A watched namespace and a peer joined by a veth pair (`veth0` ↔ `veth1`), whose two ends have different interface indexes: the kernel reports a veth's carrier change at
    /// once only when the link's index differs from its peer's (`linkwatch_urgent_event`); two fresh namespaces
    /// would give both ends index 2, and each change would wait up to a second in the kernel's link-watch batch.
    static func lab() throws -> (watched: TestNamespace, peer: TestNamespace, delete: @Sendable () -> Void) {
      let watched = try TestNamespace("settle")
      let peer: TestNamespace
      do { peer = try TestNamespace("settlep") } catch {
        watched.delete()
        throw error
      }
      let lab = (
        watched: watched, peer: peer,
        delete: { @Sendable in
          watched.delete()
          peer.delete()
        }
      )
      do {
        // Indexes 2 and 3 in the peer (no dummy driver here): veth1 gets 4, veth0 2.
        try peer.ip("link add x0 type veth peer name x1")
        try watched.ip("link add veth0 type veth peer name veth1 netns \(peer.name)")
        try watched.ip("link set veth0 up")
        try peer.ip("link set veth1 up")
      } catch {
        lab.delete()
        throw error
      }
      return lab
    }

    @Test(
      "carrier down and up 20 times: the unsettled stream sees all 40 changes, the settled one none; a loss that holds is reported once it has held"
    )
    func flappingCarrier() async throws {
      let lab = try Self.lab()
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let monitor = try NetworkMonitor(networkNamespace: lab.watched.name)
      let clock = TestClock()
      let settled = monitor.settled(offlineAfter: Self.hold, onlineAfter: Self.hold, clock: clock)
      let (raw, steady) = (Recorder<NetworkPath>(), Recorder<NetworkPath>())
      // Registered first, so that each of the monitor's publications reaches `raw` before the settled monitor: when
      // `raw` has a path, the settled monitor has every earlier one (both are called on the rtnetlink thread).
      let rawID = monitor.addSynchronousSubscriber { raw.append($0) }
      let steadyID = settled.addSynchronousSubscriber { steady.append($0) }
      defer {
        settled.removeSynchronousSubscriber(steadyID)
        monitor.removeSynchronousSubscriber(rawID)
        settled.stop()
        monitor.stop()
      }
      try await raw.waitUntil("the first path, satisfied") { $0.last?.isConnected == true }
      try await steady.waitUntil("the settled first path, at once") { $0.last?.isConnected == true }
      let before = raw.count

      // Each flap waits for the unsettled monitor to see it, so that it sees every one (none coalesced). The test
      // clock stands still meanwhile: however long the burst takes, no flap lasts the hold.
      for flap in 1...20 {
        try lab.peer.ip("link set veth1 down")
        try await raw.waitUntil("flap \(flap): no carrier") { $0.last?.status == .unsatisfied }
        try lab.peer.ip("link set veth1 up")
        try await raw.waitUntil("flap \(flap): carrier back") { $0.last?.isConnected == true }
      }
      let changes = raw.count - before
      #expect(changes >= 40, "the unsettled monitor saw \(changes) changes")

      // A loss that lasts. Once `raw` has it, the settled monitor has had every flap's return (each cancelled its
      // timer) and receives the loss next, which starts the one timer: await its sleeper, then move the clock.
      try lab.peer.ip("link set veth1 down")
      try await raw.waitUntil("the lasting loss") { $0.last?.status == .unsatisfied }
      try await clock.sleeperCounts.waitUntil("the settled monitor's timer for the loss") { _ in
        clock.sleeperCount == 1
      }
      #expect(steady.count == 1, "the settled monitor reported a flap: \(steady.values)")
      clock.advance(by: Self.hold - .milliseconds(1))
      #expect(clock.sleeperCount == 1, "the timer fired before the hold")
      #expect(steady.count == 1, "reported before the hold: \(steady.values)")
      clock.advance(by: .milliseconds(1))
      let seen = try await steady.waitUntil("the held loss") { $0.count >= 2 }
      #expect(seen.count == 2 && seen[1].status == .unsatisfied, "settled: \(seen)")
      #expect(steady.count == 2, "one change in all: \(steady.values)")
    }
  }
#endif
