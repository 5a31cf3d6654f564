#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Synchronization
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  @testable import NetStatusNetlink

  /// A watched namespace and a peer namespace joined by a veth pair: `veth0` (watched) ↔ `veth1` (peer).
  /// Both are deleted by ``delete()``, which every test calls in a `defer`.
  struct VethLab {
    let watched: TestNamespace
    let peer: TestNamespace

    init(_ label: String) throws {
      watched = try TestNamespace(label)
      do {
        peer = try TestNamespace(label + "p")
      } catch {
        watched.delete()
        throw error
      }
      do {
        try watched.ip("link add veth0 type veth peer name veth1 netns \(peer.name)")
        try watched.ip("link set veth0 up")
        try peer.ip("link set veth1 up")
      } catch {
        delete()
        throw error
      }
    }

    func delete() {
      watched.delete()
      peer.delete()
    }

    /// Starts a source on the watched namespace with a recorder as its sink.
    func start(
      filter: InterfaceFilter = .unrestricted, options: NetlinkPathSource.Options = .init()
    ) throws -> (source: NetlinkPathSource, session: any PathSourceSession, recorder: PathRecorder) {
      let source = try NetlinkPathSource(networkNamespace: watched.name, options: options)
      let recorder = PathRecorder()
      let session = try source.start(filter: filter, sink: recorder.sink)
      return (source, session, recorder)
    }
  }

  /// Kernel tests: real namespaces, real changes, watched through `NetlinkPathSource(networkNamespace:)`.
  ///
  /// Serialized: the resource test counts this process's descriptors, which other kernel tests would
  /// change concurrently.
  @Suite(
    "rtnetlink source against the kernel", .serialized,
    // Skipped, visibly, where namespaces cannot be made (not root, no iproute2, no permission).
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NetlinkKernelTests {
    @Test("the first path is sent before start returns, and is the truth")
    func firstPath() throws {
      let lab = try VethLab("first")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      let (source, session, recorder) = try lab.start()
      defer { session.stop() }
      let first = try #require(recorder.paths.first)
      #expect(first.status == .satisfied)
      #expect(first.availableInterfaces.map(\.name) == ["veth0"])
      #expect(first.interfaceType == .other)  // veth is virtual
      #expect(first.supportsIPv4 && !first.supportsIPv6)
      #expect(first.gateways == ["192.0.2.1"])
      #expect(!first.isExpensive && !first.isConstrained)
      #expect(source.statistics.dumps == 1 && source.statistics.resyncs == 0)
    }

    @Test("carrier loss on the peer, and the link going down and up")
    func carrierAndLinkState() async throws {
      let lab = try VethLab("link")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      #expect(recorder.latest?.isConnected == true)

      try lab.peer.ip("link set veth1 down")  // veth0 loses carrier; the kernel keeps the route
      await recorder.awaitPath("veth0 has no carrier") { $0.status == .unsatisfied }
      try lab.peer.ip("link set veth1 up")
      await recorder.awaitPath("carrier is back") { $0.isConnected && $0.gateways == ["192.0.2.1"] }

      try lab.watched.ip("link set veth0 down")  // the kernel flushes the IPv4 default without a message
      await recorder.awaitPath("veth0 is down") { $0.status == .unsatisfied }
      try lab.watched.ip("link set veth0 up")
      try lab.watched.ip("route add default via 192.0.2.254 dev veth0 metric 200")
      // Only the new default: the flushed one must not come back with the link.
      await recorder.awaitPath("only the new default counts") { $0.isConnected && $0.gateways == ["192.0.2.254"] }
      #expect(try lab.watched.ip("-4 route show default").split(separator: "\n").count == 1)
    }

    @Test("adding and removing addresses")
    func addresses() async throws {
      let lab = try VethLab("addr")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      try lab.watched.ip("-6 route add default via fe80::1 dev veth0")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      #expect(recorder.latest?.supportsIPv4 == true)
      #expect(recorder.latest?.supportsIPv6 == false)  // only a link-local IPv6 address

      try lab.watched.ip("addr add 2001:db8::10/64 dev veth0 nodad")
      await recorder.awaitPath("a global IPv6 address") { $0.supportsIPv6 && $0.supportsIPv4 }
      try lab.watched.ip("addr del 2001:db8::10/64 dev veth0")
      await recorder.awaitPath("the IPv6 address is gone") { !$0.supportsIPv6 && $0.supportsIPv4 }

      // Removing the last IPv4 address makes the kernel drop the IPv4 default silently. IPv6's default remains,
      // but with only a link-local address the kernel has no usable source for it: no path.
      try lab.watched.ip("addr del 192.0.2.10/24 dev veth0")
      await recorder.awaitPath("IPv4 is gone; IPv6 has only a link-local source") { $0.status == .unsatisfied }
      #expect(try lab.watched.ip("-4 route show default").isEmpty)
      try lab.watched.ip("addr add 2001:db8::10/64 dev veth0 nodad")
      await recorder.awaitPath("IPv6 through the link-local gateway") {
        $0.isConnected && !$0.supportsIPv4 && $0.supportsIPv6 && $0.gateways == ["fe80::1"]
      }
    }

    @Test("adding, replacing and removing default routes, and changing metrics (veth and macvlan)")
    func defaultRoutes() async throws {
      let lab = try VethLab("route")
      defer { lab.delete() }
      try lab.watched.ip("link add mv0 link veth0 type macvlan mode bridge")
      try lab.watched.ip("link set mv0 up")
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("addr add 198.51.100.10/24 dev mv0")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      #expect(recorder.latest?.status == .unsatisfied)

      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      await recorder.awaitPath("a default via veth0") { $0.availableInterfaces.map(\.name) == ["veth0"] }
      try lab.watched.ip("route add default via 198.51.100.1 dev mv0 metric 50")
      await recorder.awaitPath("mv0's lower metric wins") {
        $0.availableInterfaces.map(\.name) == ["mv0", "veth0"] && $0.gateways == ["198.51.100.1", "192.0.2.1"]
          && $0.interfaceType == .other
      }
      try lab.watched.ip("route add default via 198.51.100.1 dev mv0 metric 300")
      try lab.watched.ip("route del default via 198.51.100.1 dev mv0 metric 50")
      await recorder.awaitPath("mv0's metric is now higher") { $0.availableInterfaces.map(\.name) == ["veth0", "mv0"] }
      // Replace matches table, destination, TOS and metric: veth0's metric-100 default becomes mv0's. mv0's
      // metric-300 default is not used by any lookup: the kernel takes the metric-100 one through mv0.
      try lab.watched.ip("route replace default via 198.51.100.254 dev mv0 metric 100")
      await recorder.awaitPath("veth0's default was replaced") {
        $0.availableInterfaces.map(\.name) == ["mv0"] && $0.gateways == ["198.51.100.254"]
      }
      try lab.watched.ip("route del default via 198.51.100.254 dev mv0 metric 100")
      try lab.watched.ip("route del default via 198.51.100.1 dev mv0 metric 300")
      await recorder.awaitPath("no default left") { $0.status == .unsatisfied && $0.unsatisfiedReason == .notAvailable }
    }

    @Test("a bridge: carrier follows its port, and a port leaving it is not a deleted link")
    func bridge() async throws {
      let lab = try VethLab("bridge")
      defer { lab.delete() }
      try lab.watched.ip("link add br0 type bridge stp_state 0 forward_delay 0")
      try lab.watched.ip("link set veth0 master br0")
      try lab.watched.ip("link set br0 up")
      try lab.watched.ip("addr add 192.0.2.10/24 dev br0")
      try lab.watched.ip("route add default via 192.0.2.1 dev br0")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      await recorder.awaitPath("a path over br0") { $0.availableInterfaces.map(\.name) == ["br0"] }

      try lab.peer.ip("link set veth1 down")
      await recorder.awaitPath("br0's only port lost carrier") { $0.status == .unsatisfied }
      try lab.peer.ip("link set veth1 up")
      await recorder.awaitPath("carrier is back") { $0.availableInterfaces.map(\.name) == ["br0"] }

      // Leaving the bridge sends an AF_BRIDGE RTM_DELLINK for veth0, which must not remove veth0.
      try lab.watched.ip("link set veth0 nomaster")
      try lab.watched.ip("addr add 203.0.113.10/24 dev veth0")
      try lab.watched.ip("route add default via 203.0.113.1 dev veth0 metric 10")
      // br0, without a port and so without carrier, keeps its metric-0 default: the kernel still routes there.
      #expect(try lab.watched.ip("route get 8.8.8.8").contains("dev br0"))
      try lab.watched.ip("link set br0 down")
      await recorder.awaitPath("a path over the former port") { $0.availableInterfaces.map(\.name) == ["veth0"] }
    }

    @Test("a namespace with only IPv6")
    func ipv6Only() async throws {
      let lab = try VethLab("v6")
      defer { lab.delete() }
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      #expect(recorder.latest?.status == .unsatisfied)
      try lab.watched.ip("addr add 2001:db8::10/64 dev veth0 nodad")
      try lab.watched.ip("-6 route add default via 2001:db8::1 dev veth0 metric 1024")
      // The kernel announces a new IPv6 address from its DAD work, after the route may have been announced.
      let path = await recorder.awaitPath("IPv6 only") { $0.isConnected && $0.supportsIPv6 }
      #expect(path?.supportsIPv4 == false)
      #expect(path?.gateways == ["2001:db8::1"])
      #expect(path?.availableInterfaces.map(\.name) == ["veth0"])
    }

    @Test("a burst of thousands of route changes into a tiny receive buffer: ENOBUFS, re-dump, the truth")
    func burst() async throws {
      let lab = try VethLab("burst")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      var options = NetlinkPathSource.Options()
      options.receiveBufferSize = 1  // the kernel rounds it up to its minimum, a few kilobytes
      options.recordsKernelState = true
      // Hold the event thread until the whole burst has been made: the changes pile up and overflow.
      let gate = DispatchSemaphore(value: 0)
      options.eventGate = gate
      let (source, session, recorder) = try lab.start(options: options)
      var gateOpened = false
      defer {
        if !gateOpened { gate.signal() }
        session.stop()
      }

      var lines: [String] = []
      for index in 0..<4000 { lines.append("route add 10.\(index / 256).\(index % 256).0/24 via 192.0.2.1 dev veth0") }
      for index in stride(from: 0, to: 4000, by: 2) {
        lines.append("route del 10.\(index / 256).\(index % 256).0/24 via 192.0.2.1 dev veth0")
      }
      lines.append("route add default via 192.0.2.254 dev veth0 metric 42")
      lines.append("route del default via 192.0.2.1 dev veth0 metric 100")
      try lab.watched.batch(lines)
      gate.signal()
      gateOpened = true

      let path = await recorder.awaitPath("the burst's last change") { $0.gateways == ["192.0.2.254"] }
      let statistics = source.statistics
      if path == nil { Issue.record("statistics: \(statistics); failures: \(recorder.failures)") }
      #expect(statistics.overflows > 0, "a tiny buffer and 6,000 changes must overflow")
      #expect(statistics.resyncs > 0)

      // The path equals what `ip` says.
      let defaults = try lab.watched.ip("route show default table all").split(separator: "\n")
      #expect(defaults.count == 1 && defaults[0].contains("via 192.0.2.254 dev veth0"))
      #expect(path?.availableInterfaces.map(\.name) == ["veth0"])
      #expect(path?.supportsIPv4 == true)

      // The rebuilt mirror holds exactly the kernel's links and IPv4 addresses, and no route at all: the burst's
      // 6,000 route changes cost only a few lookups after the re-dump.
      let state = try #require(source.testHooks.recordedKernelState)
      let links = try lab.watched.ip("-o link show").split(separator: "\n").map {
        String($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces).split(separator: "@")[0])
      }
      #expect(Set(state.links.values.map(\.name)) == Set(links))
      let addresses = try lab.watched.ip("-o -4 addr show").split(separator: "\n").map {
        String($0.split(separator: " ", omittingEmptySubsequences: true)[3].split(separator: "/")[0])
      }
      #expect(Set(state.addresses.values.filter(\.address.isIPv4).map(\.address.description)) == Set(addresses))
      #expect(try lab.watched.ip("route get 8.8.8.8").contains("via 192.0.2.254 dev veth0"))
    }

    @Test("the namespace deleted while watched: a failure, no hang, no crash")
    func namespaceDeleted() async throws {
      let lab = try VethLab("gone")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }
      lab.watched.delete()
      let failure = await recorder.awaitFailure()
      #expect(failure == .namespaceDeleted(path: "/run/netns/\(lab.watched.name)"))
      #expect(!(try KernelTestSupport.run(["netns", "list"])).contains(lab.watched.name))
    }

    @Test("a missing namespace and a file that is not a namespace give clear errors")
    func badNamespaces() throws {
      #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/nstest-absent-\(getpid())")) {
        try NetlinkPathSource(networkNamespace: "nstest-absent-\(getpid())")
      }
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-not-a-namespace-\(getpid())")
      try "".write(to: file, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(at: file) }
      #expect(throws: NetworkMonitorError.namespaceNotEnterable(path: file.path, errno: Errno(rawValue: ENOTTY))) {
        try NetlinkPathSource(networkNamespace: file.path)
      }
      // Deleted between init (checked then) and start.
      let namespace = try TestNamespace("late")
      defer { namespace.delete() }
      let source = try NetlinkPathSource(networkNamespace: namespace.name)
      namespace.delete()
      #expect(throws: NetworkMonitorError.namespaceNotFound(path: "/run/netns/\(namespace.name)")) {
        _ = try source.start(filter: .unrestricted, sink: PathRecorder().sink)
      }
    }

    @Test("stop releases the thread and every descriptor; the source restarts")
    func stopReleasesEverything() throws {
      let lab = try VethLab("stop")
      defer { lab.delete() }
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name)
      // The sockets of this test's namespace, told apart by its cookie: other suites running in parallel open and
      // close sockets of their own (in their own namespaces, or in this process's) at any moment, and counting
      // every socket of the process once failed with three more after than before and no leak.
      let cookie = try Self.cookie(of: lab.watched.name)
      func sessionSockets() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap(Int32.init).count { Self.cookie(ofSocket: $0) == cookie }
      }
      func threads() throws -> Int { try KernelTestSupport.sessionThreadCount() }
      let threadsBefore = try threads()
      #expect(sessionSockets() == 0, "no socket in the namespace before the first start")
      for _ in 0..<25 {
        let recorder = PathRecorder()
        let session = try source.start(filter: .unrestricted, sink: recorder.sink)
        #expect(recorder.paths.count == 1)
        #expect(sessionSockets() >= 1, "the running session's socket is counted")
        #expect(try threads() >= 1, "the running session's thread is counted")
        session.stop()
        session.stop()  // a second stop does nothing
        #expect(sessionSockets() == 0, "stop closed every socket of the session")
      }
      // Session threads of monitors in other suites may come and go meanwhile; a leak would add 25.
      #expect(try threads() <= threadsBefore + 2, "no session thread is left behind")
      #expect(source.statistics.sessionsStarted == 25)
    }

    /// The cookie of namespace `name` (`SO_NETNS_COOKIE`, Linux 5.14), which every socket made in it carries: read
    /// from a socket made inside it, on the short-lived thread the sources make their sockets on.
    static func cookie(of name: String) throws -> UInt64 {
      let namespace = try NetworkNamespace(name)
      let handle = try namespace.open()
      defer { close(handle.fd) }
      return try NetworkNamespace.run(inside: handle, path: namespace.path) { () throws(NetworkMonitorError) in
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { if socket >= 0 { close(socket) } }
        guard let cookie = cookie(ofSocket: socket) else {
          throw .systemCall(call: "getsockopt(SO_NETNS_COOKIE)", errno: Errno(rawValue: errno))
        }
        return cookie
      }
    }

    /// The namespace cookie of the socket `descriptor`, or `nil` when it is no socket.
    static func cookie(ofSocket descriptor: Int32) -> UInt64? {
      var cookie: UInt64 = 0
      var length = socklen_t(MemoryLayout<UInt64>.size)
      let soNetnsCookie: Int32 = 71  // SO_NETNS_COOKIE (asm-generic/socket.h), which Glibc's module does not export
      guard getsockopt(descriptor, SOL_SOCKET, soNetnsCookie, &cookie, &length) == 0 else { return nil }
      return cookie
    }

    @Test("stop from inside the sink, on the session's own thread")
    func stopFromSink() async throws {
      let lab = try VethLab("selfstop")
      defer { lab.delete() }
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name)
      let holder = SessionHolder()
      let recorder = PathRecorder()
      let sink = PathSink { event in
        recorder.sink.send(event.path ?? .offline)
        if case .path(let path) = event, path.isConnected { holder.stop() }
      }
      let started = try source.start(filter: .unrestricted, sink: sink)
      let session = try #require(started as? NetlinkPathSession, "a NetlinkPathSource session")
      holder.set(session)
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      await recorder.awaitPath("connected") { $0.isConnected }
      // The sink's stop closes the session once the sink returns, on the rtnetlink thread; nobody else stops it.
      let closed = await Task.detached { session.waitUntilClosed(timeout: .seconds(10)) }.value
      #expect(closed, "the session stopped from its own sink was closed")
      holder.stop()
    }

    @Test("one session or two: the one event thread waits in epoll_wait, with no relay; no change lost")
    func eventThreadWaitsInEpoll() async throws {
      let lab = try VethLab("sole")
      defer { lab.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-sole-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      // In a process of its own: sessions of other suites running in this one would share the event thread
      // (Tests/NetStatusTestChild/main.swift has the steps).
      let run = try await TestChild.run(
        ["sole-session", "--netns", lab.watched.name, "--resolv", folder.appendingPathComponent("resolv.conf").path])
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      #expect(run.lines.last == "ok", "\(run.lines)")
    }

    @Test(
      "a stop after setuid returns, and a monitor started after it gets every change",
      arguments: [false, true])
    func stopAfterSetuid(stopFirst: Bool) async throws {
      let lab = try VethLab("setuid")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-setuid-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      // The child rewrites the file after dropping to uid 65534.
      try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
      let ip = try #require(KernelTestSupport.ipPath)
      // Inside the namespace from the start (`ip netns exec`): a process without privileges cannot enter one, and
      // the second monitor starts after the drop (Tests/NetStatusTestChild/main.swift has the steps).
      let run = try await TestChild.run(
        ["setuid-stop", "--resolv", folder.appendingPathComponent("resolv.conf").path]
          + (stopFirst ? ["--stop-first"] : []),
        launcher: [ip, "netns", "exec", lab.watched.name])
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      #expect(run.lines.last == "ok", "\(run.lines)")
    }

    @Test("a stop right after start leaves the hub's inotify instance open: freeing it would wait for the kernel")
    func stopRightAfterStartIsQuick() async throws {
      let namespace = try TestNamespace("stoptime")
      defer { namespace.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-stoptime-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let ip = try #require(KernelTestSupport.ipPath)
      // In a process of its own: the hub's thread ends with the last session only where no other suite has one.
      let run = try await TestChild.run(
        ["stop-time", "--resolv", folder.appendingPathComponent("resolv.conf").path],
        launcher: [ip, "netns", "exec", namespace.name])
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      // The child checks that each stop left the same instance open; the times are for the record (they depend
      // on the machine's load: a stop waits for the hub's thread to end).
      let fields = TestChild.fields(run.lines.last ?? "")
      #expect(fields["stop"] != nil && fields["close"] != nil, "\(run.lines)")
      print(
        "stop right after start: median \(fields["stop"] ?? -1) µs; closing a watched inotify instance: \(fields["close"] ?? -1) µs"
      )
    }

    @Test("the resolver configuration is watched: replaced by rename, the path follows")
    func resolverWatch() async throws {
      let lab = try VethLab("dns")
      defer { lab.delete() }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-resolv-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let resolv = folder.appendingPathComponent("resolv.conf")
      try "search lan\n".write(to: resolv, atomically: true, encoding: .utf8)
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let source = try NetlinkPathSource(networkNamespace: lab.watched.name, resolverConfigurationPath: resolv.path)
      let recorder = PathRecorder()
      let session = try source.start(filter: .unrestricted, sink: recorder.sink)
      defer { session.stop() }
      #expect(recorder.latest?.supportsDNS == false)
      // atomically: written to a temporary file and renamed over, as resolvers do.
      try "nameserver 192.0.2.53\n".write(to: resolv, atomically: true, encoding: .utf8)
      await recorder.awaitPath("a resolver") { $0.supportsDNS }
      try FileManager.default.removeItem(at: resolv)
      await recorder.awaitPath("no resolver") { !$0.supportsDNS }
    }

    @Test("a required interface type filters inside the evaluator")
    func filtered() throws {
      let lab = try VethLab("filter")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let (_, wifiSession, wifi) = try lab.start(filter: InterfaceFilter(requiredInterfaceType: .wifi))
      defer { wifiSession.stop() }
      #expect(wifi.latest?.status == .unsatisfied && wifi.latest?.unsatisfiedReason == .notAvailable)
      #expect(wifi.latest?.availableInterfaces == [] && wifi.latest?.gateways == [])
      let (_, loopbackSession, loopback) = try lab.start(filter: InterfaceFilter(requiredInterfaceType: .loopback))
      defer { loopbackSession.stop() }
      #expect(loopback.latest?.availableInterfaces.map(\.name) == ["lo"])
    }
  }

  /// Holds a session so that the sink can stop it.
  final class SessionHolder: Sendable {
    private let session = Mutex<(any PathSourceSession)?>(nil)
    func set(_ value: any PathSourceSession) { session.withLockedValue { $0 = value } }
    func stop() { session.withLockedValue { $0 }?.stop() }
  }

  extension PathSink.Event {
    var path: NetworkPath? {
      if case .path(let path) = self { return path }
      return nil
    }
  }
#endif
