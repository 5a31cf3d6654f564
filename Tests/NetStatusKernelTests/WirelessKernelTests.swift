#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusLinuxSource
  @testable import NetStatusNetlink

  /// nl80211's reading of a Wi-Fi link's signal (NetlinkSessionWorker+Wireless.swift) against the kernel: its
  /// generic netlink socket opened inside the namespace when a Wi-Fi link is there, its requests answered, its group
  /// joined, the socket closed when the reading has nothing to do. No Wi-Fi device can be made here, so a veth is
  /// followed as one (``NetlinkPathSource/Options/followedAsWiFi``); what the kernel answers about a real station
  /// is covered by decoded captures (WirelessSignalTrackerTests).
  @Suite("nl80211 reading against the kernel", .enabled(if: KernelTestSupport.namespacesAvailable))
  struct WirelessKernelTests {
    /// The generic netlink sockets of this process in `namespace` (`/proc/net/netlink` read inside it: protocol 16,
    /// a non-zero port), with their joined groups' bitmap.
    static func genericSockets(in namespace: TestNamespace) throws -> [(port: UInt32, groups: UInt32)] {
      try namespace.exec(["cat", "/proc/net/netlink"]).split(separator: "\n").dropFirst().compactMap { line in
        let fields = line.split(separator: " ")
        guard fields.count > 3, fields[1] == "16", let port = UInt32(fields[2]), port != 0,
          let groups = UInt32(fields[3], radix: 16)
        else { return nil }
        return (port, groups)
      }
    }

    /// Whether this kernel has nl80211 (cfg80211 loaded), as `genl` says (family ids are the whole kernel's).
    static func kernelHasNL80211(_ namespace: TestNamespace) -> Bool {
      (try? namespace.exec(["genl", "ctrl", "get", "name", "nl80211"])) != nil
    }

    static func namespaceWithWiFi(_ label: String) throws -> TestNamespace {
      let namespace = try TestNamespace(label)
      try namespace.ip("link add wl0 type veth peer wl1")
      try namespace.ip("addr add 192.0.2.2/24 dev wl0")
      try namespace.ip("link set wl0 up")
      try namespace.ip("link set wl1 up")
      try namespace.ip("route add default via 192.0.2.1 dev wl0")
      return namespace
    }

    @Test("without nl80211 the reading asks once, says so, and keeps no socket")
    func withoutNL80211() throws {
      let namespace = try Self.namespaceWithWiFi("wifi")
      defer { namespace.delete() }
      var options = NetlinkPathSource.Options()
      options.followedAsWiFi = ["wl0"]
      let source = try NetlinkPathSource(networkNamespace: namespace.name, options: options)
      let session = try source.start(filter: .unrestricted, sink: PathRecorder().sink)
      defer { session.stop() }
      // Start-up follows the links before the first path: the controller has answered already.
      let statistics = source.statistics
      if Self.kernelHasNL80211(namespace) {
        #expect(statistics.wirelessFamily.map { if case .resolved = $0 { true } else { false } } == true)
      } else {
        #expect(statistics.wirelessFamily == .missing(errno: ENOENT), "\(statistics)")
        #expect(statistics.wirelessRequests == 1)
        #expect(try Self.genericSockets(in: namespace).isEmpty, "the socket is closed once nl80211 is missing")
        #expect(
          source.sourceDiagnostics.map(\.description).last
            == "nl80211 (Wi-Fi signal): unavailable: not in this kernel (cfg80211 is not loaded): Wi-Fi links are "
            + "rated unknown")
      }
    }

    @Test("a followed link opens a socket in its namespace, joins the group, reads again on a change, closes when gone")
    func socketLifetime() async throws {
      let namespace = try Self.namespaceWithWiFi("wifi")
      defer { namespace.delete() }
      var options = NetlinkPathSource.Options()
      options.followedAsWiFi = ["wl0"]
      // The controller itself is a generic netlink family every kernel has: "nlctrl", its group "notify". It answers
      // the station request (a command it does not have) with an error, which ends the read as a dump's end would.
      options.wirelessFamilyName = "nlctrl"
      options.wirelessGroupName = "notify"
      let source = try NetlinkPathSource(networkNamespace: namespace.name, options: options)
      let recorder = PathRecorder()
      let session = try source.start(filter: .unrestricted, sink: recorder.sink)
      defer { session.stop() }

      #expect(source.statistics.wirelessFamily == .resolved(id: GENL.GENL_ID_CTRL))
      #expect(source.statistics.wirelessRequests == 2, "the family, then wl0's stations")
      #expect(source.sourceDiagnostics.map(\.description).last == "nl80211 (Wi-Fi signal): active")
      let sockets = try Self.genericSockets(in: namespace)
      try #require(sockets.count == 1, "one socket, in the link's namespace: \(sockets)")
      // nlctrl's "notify" group is id 0x10: bit 15 of the first 32 groups' bitmap.
      #expect(sockets[0].groups == 1 << 15, "joined: \(String(sockets[0].groups, radix: 16))")
      let first = try #require(recorder.paths.first)
      #expect(first.status == .satisfied)
      #expect(first.linkQuality == .unknown, "a veth is no Wi-Fi link: its type rates it")

      // The link changes (carrier lost): its stations are read again, on the event loop.
      try namespace.ip("link set wl1 down")
      let reread = try await poll(timeout: .seconds(120), every: .milliseconds(20)) {
        source.statistics.wirelessRequests >= 3 ? true : nil
      }
      #expect(reread == true, "\(source.statistics)")

      // The last followed link goes: the socket closes (out of the loop's epoll set first).
      try namespace.ip("link del wl0")
      let closed = try await poll(timeout: .seconds(120), every: .milliseconds(20)) {
        try Self.genericSockets(in: namespace).isEmpty ? true : nil
      }
      #expect(closed == true, "\((try? Self.genericSockets(in: namespace)) ?? [])")
      #expect(source.statistics.wirelessFamily == .unknown, "nothing to ask for")

      // A followed link again: the family is asked for anew and the socket reopened.
      try namespace.ip("link add wl0 type veth peer wl2")
      let reopened = try await poll(timeout: .seconds(120), every: .milliseconds(20)) {
        try Self.genericSockets(in: namespace).count == 1 ? true : nil
      }
      #expect(reopened == true)
      session.stop()
      let gone = try await poll(timeout: .seconds(120), every: .milliseconds(20)) {
        try Self.genericSockets(in: namespace).isEmpty ? true : nil
      }
      #expect(gone == true, "a stopped session closes its socket")
    }
  }
#endif
