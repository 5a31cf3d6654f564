#if os(Linux)
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// ``NetworkMonitor/settled(offlineAfter:onlineAfter:clock:)`` against the kernel: a veth whose carrier flaps.
  @Suite(
    "settled paths against the kernel",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct SettledPathKernelTests {
    /// The hold: far longer than one flap (the time for the unsettled monitor to see it, milliseconds), so that no
    /// flap can last it, however slow the machine.
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
      let settled = monitor.settled(offlineAfter: Self.hold, onlineAfter: Self.hold)
      let (raw, steady) = (Recorder<NetworkPath>(), Recorder<NetworkPath>())
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

      // Each flap waits for the unsettled monitor to see it, so that it sees every one (none coalesced): the burst
      // takes a few milliseconds per flap.
      let clock = ContinuousClock()
      let burstStart = clock.now
      for flap in 1...20 {
        try lab.peer.ip("link set veth1 down")
        try await raw.waitUntil("flap \(flap): no carrier") { $0.last?.status == .unsatisfied }
        try lab.peer.ip("link set veth1 up")
        try await raw.waitUntil("flap \(flap): carrier back") { $0.last?.isConnected == true }
      }
      let burst = burstStart.duration(to: clock.now)
      let changes = raw.count - before
      #expect(changes >= 40, "the unsettled monitor saw \(changes) changes in \(burst)")
      #expect(steady.count == 1, "the settled monitor reported a flap: \(steady.values)")

      // A loss that lasts: reported once it has held, and not before.
      let lossStart = clock.now
      try lab.peer.ip("link set veth1 down")
      let seen = try await steady.waitUntil("the held loss") { $0.count >= 2 }
      let waited = lossStart.duration(to: clock.now)
      #expect(seen.count == 2 && seen[1].status == .unsatisfied, "settled: \(seen)")
      #expect(waited >= Self.hold, "reported after \(waited), before the hold of \(Self.hold)")
      #expect(steady.count == 2, "one change in all: \(steady.values)")
      print("settled paths: \(changes) unsettled changes in a burst of \(burst); the settled loss after \(waited)")
    }
  }
#endif
