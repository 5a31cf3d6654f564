#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusConnectivity

  @testable import NetStatusLinuxSource

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
    /// A captive portal's answer to the probe: `302 Found` to `http://p.test/login`.
    static let redirect = HTTPResponse(
      version: "HTTP/1.1", status: 302, reason: "Found",
      headers: [.init(name: "Location", value: "http://p.test/login")], body: [], isBodyComplete: true)

    @Test("files created, replaced by rename, deleted, and the folder made later: each followed within one event")
    func followsTheFolder() async throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      let namespace = try TestNamespace("nd")
      defer { namespace.delete() }
      // Only the files of links the namespace has are read: links 5, 7 and 8 exist, 9 comes later.
      for index in [5, 7, 8] {
        try namespace.ip("link add a\(index) index \(index) type veth peer b\(index) index 1\(index)")
      }
      let seen = Recorder<NetworkdStatus>()
      var options = NetlinkPathSource.Options()
      options.networkdObserver = { seen.append($0) }
      let source = try NetlinkPathSource(networkNamespace: namespace.name, networkdRoot: fake.root, options: options)
      #expect(source.networkd.use == .notStarted)
      let session = try source.start(filter: .unrestricted, sink: PathRecorder().sink)
      #expect(source.networkd == NetworkdStatus(root: fake.root, use: .folderMissing), "\(source.networkd)")

      // networkd starts: the root and its links folder appear.
      try fake.makeFolders()
      try await seen.waitUntil("the folder in use") { $0.last?.use == .inUse && $0.last?.links.isEmpty == true }
      #expect(
        source.sourceDiagnostics.map(\.description) == [
          "rtnetlink (paths): active", "systemd-networkd (link states, advertised captive portal): active",
        ], "\(source.sourceDiagnostics)")

      try fake.write(7, FakeNetif.file(oper: "degraded", online: "offline"))
      try await seen.waitUntil("link 7 degraded") { $0.last?.links[7]?.operationalState == "degraded" }
      try fake.write(7, FakeNetif.file(oper: "routable", online: "online"))
      try await seen.waitUntil("link 7 replaced by rename") { $0.last?.links[7]?.onlineState == "online" }
      #expect(source.networkd.links[7]?.operationalState == "routable")
      try fake.write(8, FakeNetif.file(oper: "no-carrier", online: "offline"))
      try await seen.waitUntil("link 8 too") { $0.last?.links.keys.sorted() == [7, 8] }
      try fake.remove(7)
      try await seen.waitUntil("link 7 deleted") { $0.last?.links.keys.sorted() == [8] }

      // A file for a link the namespace does not have is not read; once the link comes, it is.
      try fake.write(9, FakeNetif.file(oper: "carrier", online: "offline"))
      try fake.write(8, FakeNetif.file(oper: "carrier", online: "offline"))
      try await seen.waitUntil("link 8 rewritten") { $0.last?.links[8]?.operationalState == "carrier" }
      #expect(source.networkd.links[9] == nil, "no link 9 yet: \(source.networkd)")
      try namespace.ip("link add a9 index 9 type veth peer b9 index 19")
      try await seen.waitUntil("link 9 read once it exists") { $0.last?.links[9]?.operationalState == "carrier" }
      // A link that goes takes its state with it, even while its file stays.
      try namespace.ip("link del a8")
      try await seen.waitUntil("link 8 gone with its link") { $0.last?.links.keys.sorted() == [9] }

      // networkd's folder goes (a tmpfs unmounted, the folder removed), then comes back with a file already in it.
      try FileManager.default.removeItem(atPath: fake.root)
      try await seen.waitUntil("the folder missing") { $0.last?.use == .folderMissing }
      let staged = fake.parent + "/staged"
      try FileManager.default.createDirectory(atPath: staged + "/links", withIntermediateDirectories: true)
      try FakeNetif.file(oper: "carrier", online: "partial").write(
        toFile: staged + "/links/5", atomically: true, encoding: .utf8)
      try FileManager.default.moveItem(atPath: staged, toPath: fake.root)
      try await seen.waitUntil("the folder back, read whole") {
        $0.last?.links[5]?.onlineState == "partial" && $0.last?.links[9] == nil
      }

      session.stop()
      #expect(source.networkd.use == .notStarted, "\(source.networkd)")
      #expect(seen.values.allSatisfy { $0.root == fake.root })
    }

    @Test("a links folder that is missing, not a folder, or unreadable says so; a FIFO in it is not read")
    func unreadableFolder() throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try FileManager.default.createDirectory(atPath: fake.root, withIntermediateDirectories: true)
      #expect(NetworkdLinkWatcher.status(root: fake.root, links: [1, 3]).use == .folderMissing)
      try "x".write(toFile: fake.links, atomically: true, encoding: .utf8)
      #expect(
        NetworkdLinkWatcher.status(root: fake.root, links: [1, 3]).use == .folderMissing, "not a folder (ENOTDIR)")
      try FileManager.default.removeItem(atPath: fake.links)
      try FileManager.default.createDirectory(atPath: fake.links, withIntermediateDirectories: true)
      #expect(mkfifo(fake.links + "/3", 0o600) == 0)
      let status = NetworkdLinkWatcher.status(root: fake.root, links: [1, 3])
      #expect(status.use == .inUse && status.links.isEmpty, "a FIFO is not read (nor blocks): \(status)")
      // A folder that cannot be opened for another reason than its absence (root reads any folder, so: a loop of
      // symbolic links).
      try FileManager.default.removeItem(atPath: fake.links)
      #expect(symlink("links", fake.links) == 0)
      #expect(NetworkdLinkWatcher.status(root: fake.root, links: [1, 3]).use == .unreadable(errno: ELOOP))
      #expect(NetworkdStatus.Use.unreadable(errno: EACCES).description == "unreadable: EACCES (Permission denied)")
    }

    @Test("a session that ends after the next one started does not undo the next one's reading")
    func laterSessionWins() {
      let seen = Recorder<NetworkdStatus>()
      let record = NetworkdRecord(root: "/r", observer: { seen.append($0) })
      let newer = NetworkdStatus(root: "/r", use: .inUse, links: [2: NetworkdLinkState(index: 2, values: [:])])
      record.update(NetworkdStatus(root: "/r", use: .folderMissing), session: 4)
      record.update(newer, session: 5)
      record.update(NetworkdStatus(root: "/r", use: .folderMissing), session: 4)
      record.end(session: 4)
      #expect(record.status == newer)
      record.end(session: 5)
      #expect(record.status == NetworkdStatus(root: "/r", use: .notStarted))
      #expect(seen.values.map(\.use) == [.folderMissing, .inUse, .notStarted])
    }

    @Test("another namespace does not read the host's networkd unless a root is given; the own one does by default")
    func defaultRoots() throws {
      let namespace = try TestNamespace("ndroot")
      defer { namespace.delete() }
      #expect(
        try NetlinkPathSource(networkNamespace: namespace.name).networkd
          == NetworkdStatus(root: nil, use: .otherNamespace))
      #expect(NetlinkPathSource().networkd == NetworkdStatus(root: "/run/systemd/netif", use: .notStarted))
      #expect(try NetlinkPathSource(networkNamespace: namespace.name, networkdRoot: "/x").networkd.root == "/x")
    }

    @Test("an oversized folder costs nothing: only existing links' files are read, small ones, and not too many")
    func oversizedFolder() throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try fake.makeFolders()
      // 200 files of 64 KiB (networkd's are under 2 KiB): a huge unknown key in each.
      let padding = "HOSTNAME=" + String(repeating: "x", count: 64 * 1024) + "\n"
      for index in 1...200 { try fake.write(index, FakeNetif.file(oper: "routable", online: "online") + padding) }
      // Small files for links 2 and 3 and 1,500; a large one with only known keys for 4.
      for index in [2, 3, 1500] { try fake.write(index, FakeNetif.file(oper: "carrier", online: "partial")) }
      try fake.write(4, FakeNetif.file(oper: "carrier", online: "partial") + "OPER_STATE=\(padding)")
      let some = NetworkdLinkWatcher.status(root: fake.root, links: [1, 2, 3, 4, 999])
      #expect(some.use == .inUse)
      #expect(
        some.links.keys.sorted() == [2, 3], "only existing links, each file at most 32 KiB: \(some.links.keys.sorted())"
      )
      #expect(some.links[2]?.values.count == 7, "the known keys only: \(some.links[2]?.values.keys.sorted() ?? [])")
      // The files of at most 1,024 links, the lowest indexes: link 1,500's is not read.
      let many = NetworkdLinkWatcher.status(root: fake.root, links: 1...3000)
      #expect(many.links.keys.sorted() == [2, 3], "\(many.links.keys.sorted().prefix(10))")
      let fewer = NetworkdLinkWatcher.status(root: fake.root, links: [2, 1500])
      #expect(fewer.links.keys.sorted() == [2, 1500])
    }

    /// networkd and NetworkManager manage PID 1's namespace. A process in a loopback-only namespace that sees
    /// networkd's files (the same /run) must not show their state: it cannot read /proc/1/ns/net without privileges,
    /// but the list of PID 1's netlink sockets tells it is elsewhere; and when even that list is hidden (`hidepid`) it
    /// cannot tell, so it does not apply them either, and says so.
    @Test("a loopback-only namespace with networkd's files visible, unprivileged: their state is not applied")
    func loopbackOnlyNamespaceWithNetworkdFilesVisible() async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-unpriv-\(UUID().uuidString)")
        .path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      // An unprivileged user may not reach the build folder (under /root on some machines): a copy it can run.
      let binary = folder + "/netstatus"
      try FileManager.default.copyItem(atPath: NetstatusProcess.binaryPath, toPath: binary)
      #expect(chmod(folder, 0o755) == 0 && chmod(binary, 0o755) == 0)
      let script = """
        mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/netif/links \\
          && printf '%s' "$NETWORKD_FILE" > /run/systemd/netif/links/1 || exit 99
        run() { setpriv --reuid=65534 --regid=65534 --clear-groups "$BINARY" show --all; }
        run
        echo "-- hidepid"
        mount -t proc -o hidepid=2 proc /proc || exit 98
        run
        exit 0
        """
      let run = try ChildProcess(
        executable: "/usr/bin/unshare", ["--mount", "--net", "sh", "-c", script],
        environment: [
          "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "NO_COLOR": "1", "BINARY": binary,
          "NETWORKD_FILE": FakeNetif.file(oper: "routable", online: "online"),
        ])
      #expect(try await run.waitForExit() == .exited(0), "\(run.errorOutput)")
      let lines = run.lines.values
      let split = try #require(lines.firstIndex(of: "-- hidepid"), "\(lines)")
      let readable = lines[..<split]
      let hidden = lines[(split + 1)...]
      for part in [readable, hidden] {
        let lo = try #require(part.first { $0.hasPrefix("  1  lo ") }, "\(lines)")
        #expect(!lo.contains("networkd"), "networkd's state applied to another namespace: \(lo)")
      }
      #expect(
        readable.contains {
          $0.hasPrefix("  systemd-networkd (link states, advertised captive portal): unavailable: not applied: ")
            && $0.contains("is not the one systemd-networkd and NetworkManager manage")
        }, "\(lines)")
      #expect(
        hidden.contains {
          $0.hasPrefix("  systemd-networkd (link states, advertised captive portal): unavailable: not applied: ")
            && $0.contains("cannot be shown to be the one")
        }, "\(lines)")
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
      transport.answer(.response(Self.redirect))
      try await states.waitUntil("portal") { $0.contains { $0 != .unknown } }
      #expect(connectivity.state == .portal(redirect: "https://portal.test/api"), "\(connectivity.state)")
      let detail = connectivity.lastCheck?.detail ?? ""
      #expect(detail.contains("http://p.test/login") && detail.contains("https://portal.test/api"), "\(detail)")

      // Without an advertised URL, the redirect stays the portal's address.
      try fake.write(index, FakeNetif.file(oper: "routable", online: "online"))
      try await seen.waitUntil("the portal gone") { $0.last?.links[Int32(index)]?.captivePortal == nil }
      connectivity.recheck()
      try await transport.requests.waitFor(count: 2, "the recheck")
      transport.answer(.response(Self.redirect))
      try await states.waitUntil("the redirect") { $0.last == .portal(redirect: "http://p.test/login") }
    }
    @Test("netstatus show --all --json --networkd-root DIR: each link gains networkd's state")
    func showAllWithRoot() async throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try fake.makeFolders()
      let namespace = try TestNamespace("ndshow")
      defer { namespace.delete() }
      try namespace.ip("link add v0 type veth peer name v1")
      let index = try #require(
        Int(namespace.ip("-o link show v0").split(separator: ":").first?.trimmingCharacters(in: .whitespaces) ?? ""))
      try fake.write(index, FakeNetif.file(oper: "no-carrier", online: "offline", portal: "https://portal.test/"))
      var environment = ProcessInfo.processInfo.environment
      environment["NO_COLOR"] = "1"
      let json = try ChildProcess(
        executable: NetstatusProcess.binaryPath,
        ["show", "--all", "--json", "-n", namespace.name, "--networkd-root", fake.root], environment: environment)
      #expect(try await json.waitForExit() == .exited(0), "\(json.errorOutput)")
      let line = try #require(json.lines.values.first)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let links = try #require(object["links"] as? [[String: Any]])
      let v0 = try #require(links.first { $0["name"] as? String == "v0" }, "\(links)")
      #expect(
        Array(v0.keys).sorted() == [
          "addresses", "carrier", "index", "kind", "name", "networkd", "speed", "type", "up",
        ], "\(v0)")
      #expect(line.contains(#""addresses":[],"networkd":{"#), "networkd follows the documented keys: \(line)")
      let networkd = try #require(v0["networkd"] as? [String: Any], "\(v0)")
      #expect(networkd["operationalState"] as? String == "no-carrier")
      #expect(networkd["onlineState"] as? String == "offline")
      #expect(networkd["requiredForOnline"] as? Bool == true)
      #expect(networkd["administrativeState"] as? String == "configured")
      #expect(networkd["captivePortal"] as? String == "https://portal.test/")
      let v1 = try #require(links.first { $0["name"] as? String == "v1" })
      #expect(v1["networkd"] is NSNull, "no file for v1: \(v1)")

      let text = try ChildProcess(
        executable: NetstatusProcess.binaryPath, ["show", "--all", "-n", namespace.name, "--networkd-root", fake.root],
        environment: environment)
      #expect(try await text.waitForExit() == .exited(0), "\(text.errorOutput)")
      let lines = text.lines.values
      #expect(
        lines.contains { $0.contains(" v0 ") && $0.hasSuffix("networkd no-carrier, offline, required for online") },
        "\(lines)")
      #expect(lines.contains("  systemd-networkd (link states, advertised captive portal): active"), "\(lines)")
    }

    @Test("netstatus --probe: a portal's address is the URL networkd recorded for the path's interface")
    func probeReportsTheAdvertisedPortal() async throws {
      let fake = try FakeNetif()
      defer { fake.delete() }
      try fake.makeFolders()
      let site = try ProbeSite("ndprobe")
      defer { site.delete() }
      let server = try await site.startServer("redirect", ["--location", "http://198.51.100.1/login"])
      defer { server.stop() }
      let index = try #require(
        Int(site.target.ip("-o link show v0").split(separator: ":").first?.trimmingCharacters(in: .whitespaces) ?? ""))
      try fake.write(index, FakeNetif.file(oper: "routable", online: "online", portal: "https://portal.test/api"))
      let run = try ChildProcess(
        executable: NetstatusProcess.binaryPath,
        ["--json", "--netns", site.target.name, "--probe", site.url(), "--networkd-root", fake.root])
      #expect(try await run.waitForExit() == .exited(0), "stderr: \(run.errorOutput)")
      let line = try #require(run.lines.values.first)
      #expect(
        line.hasSuffix(
          #","connectivity":{"state":"portal","redirect":"https://portal.test/api","ipv4":"portal","ipv6":null}}"#),
        "\(line)")
    }

    @Test(
      "the real systemd-networkd, in the test's namespace with private mounts: its files followed",
      .timeLimit(.minutes(1)))
    func realNetworkd() async throws {
      guard FileManager.default.isExecutableFile(atPath: RealNetworkd.binary), let ip = KernelTestSupport.ipPath,
        ["/usr/bin/unshare", "/bin/unshare"].contains(where: FileManager.default.isExecutableFile(atPath:)),
        let user = getpwnam("systemd-network")
      else {
        try #require(
          ProcessInfo.processInfo.environment["CI"] == nil,
          "systemd-networkd (or unshare) is missing: .ci/run installs systemd and util-linux")
        return
      }
      let (uid, gid) = (user.pointee.pw_uid, user.pointee.pw_gid)
      let lab = try VethLab("ndreal")
      defer { lab.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-networkd-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let netif = folder.appendingPathComponent("netif").path
      let config = folder.appendingPathComponent("network").path
      for path in [netif, config] {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      }
      // networkd drops its privileges to systemd-network and writes its files as that user.
      #expect(chown(netif, uid, gid) == 0)
      try """
      [Match]
      Name=veth0

      [Network]
      Address=192.0.2.10/24
      Gateway=192.0.2.1
      LinkLocalAddressing=no

      """.write(toFile: config + "/10-nstest.network", atomically: true, encoding: .utf8)

      let seen = Recorder<NetworkdStatus>()
      var options = NetlinkPathSource.Options()
      options.networkdObserver = { seen.append($0) }
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name, networkdRoot: netif, options: options)
      let paths = PathRecorder()
      let session = try source.start(filter: .unrestricted, sink: paths.sink)
      defer { session.stop() }
      // networkd makes its links folder when it starts: until then the folder is missing, and watched.
      #expect(source.networkd.use == .folderMissing, "\(source.networkd)")
      // The reason is one of the source's diagnostics (what `show --all` lists), never an error.
      let missing = source.sourceDiagnostics.first { $0.name == "systemd-networkd" }
      #expect(
        missing?.unavailableReason?.contains("systemd-networkd is not running") == true,
        "\(String(describing: missing))")

      let networkd = try RealNetworkd.start(ip: ip, namespace: lab.watched.name, netif: netif, config: config)
      defer { networkd.terminate() }

      let configured = try await seen.waitUntil(timeout: .seconds(30), "veth0 routable and online") { values in
        values.last?.links.values.contains {
          $0.networkFile?.hasSuffix("10-nstest.network") == true && $0.operationalState == "routable"
            && $0.onlineState == "online"
        } == true
      }
      let veth0 = try #require(configured.last?.links.values.first { $0.networkFile != nil })
      #expect(veth0.isRequiredForOnline == true && veth0.isManaged, "\(veth0.values)")
      #expect(veth0.ipv4AddressState == "routable" && veth0.ipv6AddressState == "off", "\(veth0.values)")
      #expect(
        configured.last?.links[1]?.administrativeState == "unmanaged", "lo: \(configured.last?.links[1]?.values ?? [:])"
      )
      // networkd configured the address and the gateway: the kernel's path goes through the same link.
      await paths.awaitPath("satisfied via veth0") { $0.isConnected && $0.availableInterfaces.first?.name == "veth0" }
      #expect(paths.latest?.availableInterfaces.first?.index == Int(veth0.index))

      // The peer goes down: networkd sees the carrier go, and says so in the file.
      try lab.peer.ip("link set veth1 down")
      try await seen.waitUntil(timeout: .seconds(30), "veth0 without carrier") { values in
        values.last?.links[veth0.index].map { $0.operationalState == "no-carrier" && $0.onlineState == "offline" }
          == true
      }
      await paths.awaitPath("unsatisfied") { !$0.isConnected }
      #expect(networkd.errorOutput.contains("veth0"), "networkd's log: \(networkd.errorOutput)")

      // networkd stops: it removes its link files on the way out.
      networkd.signal(SIGTERM)
      _ = try await networkd.waitForExit(timeout: .seconds(20))
      try await seen.waitUntil(timeout: .seconds(10), "networkd's files removed") { $0.last?.links[veth0.index] == nil }
    }
  }

  /// Whose namespace NetworkManager and networkd manage: PID 1's. A process moved out of it ignores them.
  @Suite("SystemNamespace: the namespace the system's network managers manage")
  struct SystemNamespaceTests {
    @Test func identitiesDecideOnlyWhenBothAreKnown() {
      let own = SystemNamespace.Identity(device: 4, inode: 4_026_531_833)
      let other = SystemNamespace.Identity(device: 4, inode: 4_026_532_500)
      #expect(SystemNamespace.relation(own: own, system: own) == .same)
      #expect(SystemNamespace.relation(own: own, system: other) == .other)
      // PID 1's namespace unreadable (no ptrace access to it): not taken for the own one.
      #expect(SystemNamespace.relation(own: own, system: nil) == .unknown)
      #expect(SystemNamespace.relation(own: nil, system: other) == .unknown)
      #expect(SystemNamespace.relation(socketListed: true) == .same)
      #expect(SystemNamespace.relation(socketListed: false) == .other)
      #expect(SystemNamespace.relation(socketListed: nil) == .unknown)
    }

    /// A NetworkManager-fed ConnectivityMonitor that cannot follow it says why: another namespace only when it is
    /// known to be one.
    @Test func theReasonNetworkManagerIsNotFollowedSaysWhetherTheNamespaceIsKnownToBeAnother() {
      #expect(
        SystemNamespace.networkManagerNotFollowed(namespaceGiven: true, relation: .same)
          == "the monitor watches another network namespace than the one NetworkManager manages")
      #expect(
        SystemNamespace.networkManagerNotFollowed(namespaceGiven: false, relation: .other)
          == "this process's network namespace is not the one NetworkManager manages (PID 1's)")
      let unknown = SystemNamespace.networkManagerNotFollowed(namespaceGiven: false, relation: .unknown)
      #expect(
        unknown
          == "this process's network namespace cannot be shown to be the one NetworkManager manages (PID 1's: "
          + "/proc/1/ns/net and /proc/1/net/netlink unreadable)")
      #expect(!unknown.contains("another") && !unknown.contains(" is not "))
    }

    @Test func aSocketListIsMatchedByItsLastColumn() {
      let text = """
        sk               Eth Pid        Groups   Rmem     Wmem     Dump  Locks    Drops    Inode
        00000000c73fa17d 0   0          00000000 0        0        0     2        0        4
        0000000012345678 0   4242       00000551 0        0        0     2        0        36145
        """
      #expect(SystemNamespace.listsSocket(text, inode: 36145))
      #expect(!SystemNamespace.listsSocket(text, inode: 4242), "a port ID is not an inode")
      #expect(!SystemNamespace.listsSocket(text, inode: 3614))
    }

    /// Without privileges (no ptrace access to PID 1), the check by socket list tells the namespaces apart.
    @Test func aBoundSocketIsListedInItsOwnNamespaceOnly() async throws {
      #expect(SystemNamespace.ownSocketIsListed(in: "/proc/self/net/netlink") == true)
      #expect(SystemNamespace.ownSocketIsListed(in: "/proc/self/net/no-such-list") == nil)
      let namespace = try TestNamespace("sysns")
      defer { namespace.delete() }
      let other = try ChildProcess(
        executable: "/usr/bin/ip", ["netns", "exec", namespace.name, "sh", "-c", "echo entered; exec sleep 600"])
      defer { other.terminate() }
      try await other.lines.waitFor(count: 1, "the child inside the namespace")
      // The child's namespace is another one: a socket of this process is not in its list. (It sleeps far longer than
      // a stalled test process takes to get here: read after it ended, its list would be gone.)
      #expect(SystemNamespace.ownSocketIsListed(in: "/proc/\(other.processIdentifier)/net/netlink") == false)
    }

    @Test func theOwnNamespaceFileHasAnIdentity() {
      #expect(SystemNamespace.identity(of: "/proc/self/ns/net") != nil)
      #expect(SystemNamespace.identity(of: "/proc/self/ns/no-such-namespace") == nil)
    }
  }
#endif
