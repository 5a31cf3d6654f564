#if os(Linux)
  import Foundation
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// A fake `/run/systemd/netif` in a temporary folder, written as networkd writes it: each file to a temporary name
  /// in the same folder, then renamed into place.
  struct FakeNetif {
    /// The folder holding the root (watched for the root appearing).
    let parent: String
    var root: String { parent + "/netif" }
    var links: String { root + "/links" }

    init() throws {
      parent = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-netif-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }

    func makeFolders() throws {
      try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
    }

    /// Writes link `index`'s file the way networkd does: `.#INDEXrandom`, then rename.
    func write(_ index: Int, _ text: String) throws {
      let temporary = links + "/.#\(index)\(UUID().uuidString.prefix(6))"
      try text.write(toFile: temporary, atomically: false, encoding: .utf8)
      guard rename(temporary, links + "/\(index)") == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    func remove(_ index: Int) throws { try FileManager.default.removeItem(atPath: links + "/\(index)") }

    func delete() { try? FileManager.default.removeItem(atPath: parent) }

    static func file(oper: String, online: String, portal: String? = nil) -> String {
      var text = """
        # This is private data. Do not parse.
        ADMIN_STATE=configured
        OPER_STATE=\(oper)
        CARRIER_STATE=carrier
        ADDRESS_STATE=routable
        ONLINE_STATE=\(online)
        REQUIRED_FOR_ONLINE=yes
        NETWORK_FILE=/etc/systemd/network/test.network

        """
      if let portal { text += "CAPTIVE_PORTAL=\(portal)\n" }
      return text
    }
  }

  @Suite("networkd's state files followed with inotify", .serialized)
  struct NetworkdWatchKernelTests {
    @Test("files created, replaced by rename, deleted, and the folder made later: each followed within one event")
    func followsTheFolder() async throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      let namespace = try TestNamespace("nd")
      defer { namespace.delete() }
      let seen = Recorder<NetworkdStatus>()
      var options = NetlinkPathSource.Options()
      options.networkdObserver = { seen.append($0) }
      let source = try NetlinkPathSource(networkNamespace: namespace.name, networkdRoot: fake.root, options: options)
      #expect(source.networkd.use == .notStarted)
      let session = try source.start(filter: .none, sink: PathRecorder().sink)
      #expect(source.networkd == NetworkdStatus(root: fake.root, use: .folderMissing), "\(source.networkd)")

      // networkd starts: the root and its links folder appear.
      try fake.makeFolders()
      try await seen.waitUntil("the folder in use") { $0.last?.use == .inUse && $0.last?.links.isEmpty == true }

      try fake.write(7, FakeNetif.file(oper: "degraded", online: "offline"))
      try await seen.waitUntil("link 7 degraded") { $0.last?.links[7]?.operationalState == "degraded" }
      try fake.write(7, FakeNetif.file(oper: "routable", online: "online"))
      try await seen.waitUntil("link 7 replaced by rename") { $0.last?.links[7]?.onlineState == "online" }
      #expect(source.networkd.links[7]?.operationalState == "routable")
      try fake.write(8, FakeNetif.file(oper: "no-carrier", online: "offline"))
      try await seen.waitUntil("link 8 too") { $0.last?.links.keys.sorted() == [7, 8] }
      try fake.remove(7)
      try await seen.waitUntil("link 7 deleted") { $0.last?.links.keys.sorted() == [8] }

      // networkd's folder goes (a tmpfs unmounted, the folder removed), then comes back with a file already in it.
      try FileManager.default.removeItem(atPath: fake.root)
      try await seen.waitUntil("the folder missing") { $0.last?.use == .folderMissing }
      let staged = fake.parent + "/staged"
      try FileManager.default.createDirectory(atPath: staged + "/links", withIntermediateDirectories: true)
      try FakeNetif.file(oper: "carrier", online: "partial").write(
        toFile: staged + "/links/5", atomically: true, encoding: .utf8)
      try FileManager.default.moveItem(atPath: staged, toPath: fake.root)
      try await seen.waitUntil("the folder back, read whole") { $0.last?.links[5]?.onlineState == "partial" }

      session.stop()
      #expect(source.networkd.use == .notStarted, "\(source.networkd)")
      #expect(seen.values.allSatisfy { $0.root == fake.root })
    }

    @Test("an unreadable links folder says why")
    func unreadableFolder() throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try FileManager.default.createDirectory(atPath: fake.root, withIntermediateDirectories: true)
      // A file where the folder should be reads as missing; a folder without permission (for root, only when it is
      // not a folder at all, since root reads any folder) is tested with a name that is a FIFO.
      #expect(NetworkdLinkWatcher.status(root: fake.root).use == .folderMissing)
      try "x".write(toFile: fake.links, atomically: true, encoding: .utf8)
      #expect(NetworkdLinkWatcher.status(root: fake.root).use == .folderMissing, "not a folder (ENOTDIR)")
      try FileManager.default.removeItem(atPath: fake.links)
      try FileManager.default.createDirectory(atPath: fake.links, withIntermediateDirectories: true)
      #expect(mkfifo(fake.links + "/3", 0o600) == 0)
      let status = NetworkdLinkWatcher.status(root: fake.root)
      #expect(status.use == .inUse && status.links.isEmpty, "a FIFO is not read (nor blocks): \(status)")
      #expect(NetworkdStatus.Use.unreadable(errno: EACCES).description == "unreadable: EACCES (Permission denied)")
    }

    @Test("another namespace does not read the host's networkd unless a root is given; the own one does by default")
    func defaultRoots() throws {
      let namespace = try TestNamespace("ndroot")
      defer { namespace.delete() }
      if getenv("NETSTATUS_NETWORKD_ROOT") == nil {
        #expect(
          try NetlinkPathSource(networkNamespace: namespace.name).networkd
            == NetworkdStatus(root: nil, use: .otherNamespace))
        #expect(NetlinkPathSource().networkd == NetworkdStatus(root: "/run/systemd/netif", use: .notStarted))
      }
      #expect(try NetlinkPathSource(networkNamespace: namespace.name, networkdRoot: "/x").networkd.root == "/x")
    }

    @Test("a portal's address is the captive-portal URL networkd recorded for the path's interface")
    func advertisedPortal() async throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try fake.makeFolders()
      let lab = try VethLab("ndportal")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let seen = Recorder<NetworkdStatus>()
      var options = NetlinkPathSource.Options()
      options.networkdObserver = { seen.append($0) }
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name, networkdRoot: fake.root, options: options)
      let monitor = NetworkMonitor(source: source)
      try monitor.start()
      defer { monitor.stopMonitoring() }
      let index = try #require(monitor.currentPath?.availableInterfaces.first?.index, "a path over veth0")
      try fake.write(index, FakeNetif.file(oper: "routable", online: "online", portal: "https://portal.test/api"))
      try await seen.waitUntil("the portal recorded") { $0.last?.links[Int32(index)]?.captivePortal != nil }

      let transport = ScriptedTransport()
      let connectivity = ConnectivityMonitor(
        monitor: monitor, probe: try ConnectivityProbe(url: "http://probe.test/"), transport: transport)
      let states = Recorder<ConnectivityState>()
      connectivity.handlerQueue = DispatchQueue(label: "nstest-portal")
      connectivity.connectivityUpdateHandler = { states.append($0) }
      connectivity.startMonitoring()
      defer { connectivity.stopMonitoring() }
      try await transport.requests.waitFor(count: 1, "the first probe")
      transport.answer(.response(ConnectivityMonitorTests.redirect))
      try await states.waitUntil("portal") { $0.contains { $0 != .unknown } }
      #expect(connectivity.state == .portal(redirect: "https://portal.test/api"), "\(connectivity.state)")
      let detail = connectivity.lastCheck?.detail ?? ""
      #expect(detail.contains("http://p.test/login") && detail.contains("https://portal.test/api"), "\(detail)")

      // Without an advertised URL, the redirect stays the portal's address.
      try fake.write(index, FakeNetif.file(oper: "routable", online: "online"))
      try await seen.waitUntil("the portal gone") { $0.last?.links[Int32(index)]?.captivePortal == nil }
      connectivity.recheck()
      try await transport.requests.waitFor(count: 2, "the recheck")
      transport.answer(.response(ConnectivityMonitorTests.redirect))
      try await states.waitUntil("the redirect") { $0.last == .portal(redirect: "http://p.test/login") }
    }
  }
#endif
