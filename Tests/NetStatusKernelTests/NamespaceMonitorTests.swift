#if os(Linux)
  import Foundation
  import NetStatus
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  @testable import NetStatusNetworkManager

  /// `NetworkMonitor(networkNamespace:)`: the public way to watch a namespace, end to end through the monitor.
  @Suite(
    "NetworkMonitor watching a namespace", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NamespaceMonitorTests {
    @Test func knowsThePathWhenStartReturnsAndFollowsChanges() async throws {
      let lab = try VethLab("monitor")
      defer { lab.delete() }
      try lab.watched.ip("addr add 198.51.100.2/24 dev veth0")
      try lab.watched.ip("route add default via 198.51.100.1 dev veth0")
      let monitor = try NetworkMonitor(networkNamespace: lab.watched.name)
      try monitor.start()
      defer { monitor.stopMonitoring() }
      #expect(monitor.isConnected, "known when start() returns")
      #expect(monitor.currentPath?.gateways == ["198.51.100.1"])

      let seen = Recorder<NetworkPath>()
      let consumer = Task { for await path in monitor.paths { seen.append(path) } }
      defer { consumer.cancel() }
      try await seen.waitFor(count: 1)
      try lab.watched.ip("route del default")
      try await seen.waitFor(count: 2, timeout: .seconds(10), "the unsatisfied path")
      #expect(seen.values.last?.isConnected == false)
      #expect(!monitor.isConnected)
    }

    @Test func deletedNamespaceIsReportedToObservers() async throws {
      let lab = try VethLab("mgone")
      defer { lab.delete() }
      try lab.watched.ip("addr add 198.51.100.2/24 dev veth0")
      try lab.watched.ip("route add default via 198.51.100.1 dev veth0")
      let monitor = try NetworkMonitor(networkNamespace: lab.watched.name)
      monitor.handlerQueue = DispatchQueue(label: "observer")
      let errors = Recorder<NetworkMonitorError>()
      let stops = Recorder<Void>()
      monitor.errorHandler = { errors.append($0) }
      monitor.didStopMonitoringHandler = { stops.append(()) }
      try monitor.start()
      #expect(monitor.isConnected)

      lab.watched.delete()
      try await errors.waitFor(count: 1, timeout: .seconds(10), "the deletion error")
      try await stops.waitFor(count: 1)
      let expected = NetworkMonitorError.namespaceDeleted(path: "/run/netns/\(lab.watched.name)")
      #expect(errors.values == [expected])
      #expect(monitor.lastError == expected)
      #expect(!monitor.isConnected, "the path becomes unsatisfied")
      #expect(!monitor.isMonitoring)
      #expect(monitor.currentPath == .offline)
    }

    /// A sequence ends when its monitor can no longer deliver: the loop over `paths` of a namespace that is deleted
    /// gets the unsatisfied path, then ends, and so does `networkUpdates()`.
    @Test func deletingTheWatchedNamespaceEndsTheLoops() async throws {
      let lab = try VethLab("mends")
      defer { lab.delete() }
      try lab.watched.ip("addr add 198.51.100.2/24 dev veth0")
      try lab.watched.ip("route add default via 198.51.100.1 dev veth0")
      let monitor = try NetworkMonitor(networkNamespace: lab.watched.name)
      monitor.postsNotifications = false
      defer { monitor.stop() }
      let seen = Recorder<NetworkPath>()
      let connectivity = Recorder<Bool>()
      let paths = Task { for await path in monitor.paths { seen.append(path) } }
      let booleans = Task { for await connected in monitor.networkUpdates() { connectivity.append(connected) } }
      try await seen.waitFor(count: 1, "the first path")
      try await connectivity.waitFor(count: 1, "the first boolean")
      #expect(seen.values.first?.isConnected == true)

      lab.watched.delete()
      try await withTimeout(.seconds(10), "the paths loop to end once the namespace is deleted") { await paths.value }
      try await withTimeout(.seconds(10), "the networkUpdates loop to end once the namespace is deleted") {
        await booleans.value
      }
      #expect(seen.values.last == .offline, "the unsatisfied path comes before the end")
      #expect(connectivity.values == [true, false])
      #expect(monitor.lastError == .namespaceDeleted(path: "/run/netns/\(lab.watched.name)"))
      #expect(!monitor.isMonitoring)
    }

    /// One answer however you ask: every public way to a monitor of a named namespace reads that namespace's own
    /// resolver configuration, `/etc/netns/NAME/resolv.conf`, as `ip netns exec` would; the way the command-line
    /// tool makes its monitor does too.
    @Test func everyWayToANamespaceMonitorReadsItsOwnResolverConfiguration() throws {
      let namespace = try TestNamespace("resolv")
      defer { namespace.delete() }
      let folder = "/etc/netns/\(namespace.name)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      try "nameserver 192.0.2.53\n".write(toFile: folder + "/resolv.conf", atomically: true, encoding: .utf8)

      let monitors = [
        try NetworkMonitor(networkNamespace: namespace.name),
        try NetworkMonitor(networkNamespace: namespace.name, requiredInterfaceType: .wifi),
        try NetworkMonitor(networkNamespace: namespace.name, networkdRoot: nil),
      ]
      for monitor in monitors {
        let source = try #require(monitor.source as? NetlinkPathSource, "another namespace: rtnetlink alone")
        #expect(source.resolverConfigurationPath == folder + "/resolv.conf")
        #expect(source.networkNamespacePath == "/run/netns/" + namespace.name)
      }
    }

    /// One answer however you ask: the process's own namespace is watched with the same source whether the monitor
    /// is `NetworkMonitor()`, `.shared`'s kind, or the command-line tool's: NetworkManager's metered view applied
    /// wherever the process runs in the namespace NetworkManager manages.
    @Test func everyWayToTheOwnNamespaceAppliesNetworkManagersView() throws {
      let monitors = [
        NetworkMonitor(), NetworkMonitor(requiredInterfaceType: .wifi), try NetworkMonitor(networkNamespace: nil),
      ]
      for monitor in monitors {
        let wrapped = monitor.source is NetworkManagerPathSource
        #expect(wrapped == SystemNamespace.followsSystemNetworkManager, "\(type(of: monitor.source))")
        let netlink = try #require(
          (monitor.source as? NetworkManagerPathSource)?.inner as? NetlinkPathSource
            ?? monitor.source as? NetlinkPathSource)
        #expect(netlink.resolverConfigurationPath == "/etc/resolv.conf")
        #expect(netlink.networkNamespacePath == nil)
      }
    }

    @Test func missingNamespaceFailsAtCreationWithWhatToDo() {
      let name = "nstest-missing-\(getpid())"
      #expect {
        _ = try NetworkMonitor(networkNamespace: name)
      } throws: { error in
        guard let error = error as? NetworkMonitorError else { return false }
        return error == .namespaceNotFound(path: "/run/netns/\(name)") && error.description.contains("ip netns list")
      }
    }

    @Test func readsTheNamespacesOwnResolverConfiguration() throws {
      let lab = try VethLab("mdns")
      defer { lab.delete() }
      try lab.watched.ip("addr add 198.51.100.2/24 dev veth0")
      try lab.watched.ip("route add default via 198.51.100.1 dev veth0")
      // As `ip netns exec` would: /etc/netns/NAME/resolv.conf, here with no nameserver.
      let folder = "/etc/netns/\(lab.watched.name)"
      let parentExisted = FileManager.default.fileExists(atPath: "/etc/netns")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer {
        try? FileManager.default.removeItem(atPath: folder)
        if !parentExisted { try? FileManager.default.removeItem(atPath: "/etc/netns") }
      }
      try "search example.invalid\n".write(toFile: folder + "/resolv.conf", atomically: true, encoding: .utf8)
      #expect(ResolverConfiguration.configurationPath(forNamespace: lab.watched.name) == folder + "/resolv.conf")
      #expect(
        ResolverConfiguration.configurationPath(forNamespace: "/proc/1/ns/net") == "/proc/1/root/etc/resolv.conf")

      let monitor = try NetworkMonitor(networkNamespace: lab.watched.name)
      try monitor.start()
      defer { monitor.stopMonitoring() }
      #expect(monitor.isConnected)
      #expect(monitor.currentPath?.supportsDNS == false, "no nameserver in the namespace's resolv.conf")
    }

    /// A container host's view: the namespace of a process, its resolver, and its exit.
    @Test func watchesAProcesssNamespaceWithItsResolverUntilItExits() async throws {
      let lab = try VethLab("mproc")
      defer { lab.delete() }
      try lab.watched.ip("addr add 198.51.100.2/24 dev veth0")
      try lab.watched.ip("route add default via 198.51.100.1 dev veth0")
      // The process's /etc/resolv.conf is /etc/netns/NAME/resolv.conf, which `ip netns exec` mounts over it in
      // the process's mount namespace. It says the opposite of the host's, so that reading the host's shows.
      let hostHasDNS = ResolverConfiguration.load(path: "/etc/resolv.conf").supportsDNS
      let folder = "/etc/netns/\(lab.watched.name)"
      let parentExisted = FileManager.default.fileExists(atPath: "/etc/netns")
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer {
        try? FileManager.default.removeItem(atPath: folder)
        if !parentExisted { try? FileManager.default.removeItem(atPath: "/etc/netns") }
      }
      let text = hostHasDNS ? "search example.invalid\n" : "nameserver 192.0.2.53\n"
      try text.write(toFile: folder + "/resolv.conf", atomically: true, encoding: .utf8)
      let process = try await lab.watched.startProcess()
      defer { process.terminate() }
      let pid = process.processIdentifier
      let path = "/proc/\(pid)/ns/net"

      let monitor = try NetworkMonitor(networkNamespace: path)
      monitor.handlerQueue = DispatchQueue(label: "observer")
      let errors = Recorder<NetworkMonitorError>()
      let stops = Recorder<Void>()
      monitor.errorHandler = { errors.append($0) }
      monitor.didStopMonitoringHandler = { stops.append(()) }
      try monitor.start()
      defer { monitor.stopMonitoring() }
      #expect(monitor.isConnected)
      #expect(monitor.currentPath?.gateways == ["198.51.100.1"])
      let source = try #require(monitor.source as? NetlinkPathSource)
      #expect(source.resolverConfigurationPath == "/proc/\(pid)/root/etc/resolv.conf")
      #expect(source.options.resolvedUpstreamPath == "/proc/\(pid)/root/run/systemd/resolve/resolv.conf")
      #expect(
        monitor.currentPath?.supportsDNS == !hostHasDNS,
        "the process's resolv.conf (\(text.dropLast())), not the host's (DNS: \(hostHasDNS))")

      process.signal(SIGKILL)
      try await errors.waitFor(count: 1, timeout: .seconds(10), "the error for the process's exit")
      try await stops.waitFor(count: 1)
      let expected = NetworkMonitorError.namespaceDeleted(path: path)
      #expect(errors.values == [expected])
      #expect(monitor.lastError == expected)
      #expect(monitor.lastError?.description.contains("process \(pid) exited") == true)
      #expect(!monitor.isMonitoring)
      #expect(monitor.currentPath == .offline, "the path becomes unsatisfied")
      #expect(try KernelTestSupport.run(["netns", "list"]).contains(lab.watched.name), "only the process went")
    }
  }
#endif
