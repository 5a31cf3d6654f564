import Dispatch
import Foundation
import NetStatusTestSupport
@_spi(TestHooks) import Network
import Synchronization
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// NWPathMonitorSource.swift, the Apple source, compiled on Linux against the Network stand-in.
@Suite("NWPathMonitorSource: translating NWPath")
struct NWPathTranslationTests {
  @Test("every field is copied, interfaces and gateways in order")
  func everyField() {
    let path = NWPath(
      status: .satisfied,
      availableInterfaces: [
        NWInterface(name: "utun3", index: 12, type: .other),
        NWInterface(name: "en0", index: 4, type: .wifi),
        NWInterface(name: "pdp_ip0", index: 7, type: .cellular),
        NWInterface(name: "en5", index: 9, type: .wiredEthernet),
        NWInterface(name: "lo0", index: 1, type: .loopback),
      ],
      isExpensive: true,
      isConstrained: true,
      supportsIPv4: true,
      supportsIPv6: false,
      supportsDNS: true,
      gateways: [
        .hostPort(host: NWEndpoint.Host("192.0.2.1"), port: .any),
        .unix(path: "/var/run/not-a-gateway"),
        .hostPort(host: NWEndpoint.Host("2001:db8::1"), port: 0),
        .hostPort(host: .name("router.example", nil), port: 53),
      ]
    )
    let expected = NetworkPath(
      status: .satisfied,
      availableInterfaces: [
        NetworkInterface(name: "utun3", index: 12, type: .other),
        NetworkInterface(name: "en0", index: 4, type: .wifi),
        NetworkInterface(name: "pdp_ip0", index: 7, type: .cellular),
        NetworkInterface(name: "en5", index: 9, type: .wiredEthernet),
        NetworkInterface(name: "lo0", index: 1, type: .loopback),
      ],
      isExpensive: true,
      isConstrained: true,
      supportsIPv4: true,
      supportsIPv6: false,
      supportsDNS: true,
      gateways: ["192.0.2.1", "2001:db8::1", "router.example"],
      vpn: NetworkPath.VPN(
        interface: NetworkInterface(name: "utun3", index: 12, type: .other), underlyingInterfaceType: .wifi)
    )
    let translated = NWPathMonitorSource.networkPath(from: path)
    #expect(translated == expected)
    // The preferred interface is the first one, even when it is a VPN tunnel (tutorials pick the first of `InterfaceType.allCases` the path uses, and so report Wi-Fi under a VPN).
    #expect(translated.interfaceType == .other)
  }

  @Test("gateways are written from the address bytes; a scoped link-local address loses its scope")
  func gatewayText() throws {
    let en0 = NWInterface(name: "en0", index: 4, type: .wifi)
    let scoped = try #require(IPv6Address("fe80::1%en0"))
    // What Network prints, and NetStatus must not copy: the scope, after a `%`.
    #expect(scoped.debugDescription == "fe80::1%en0")
    let fromBytes = try #require(
      IPv6Address(Data([0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01]), en0))
    #expect(fromBytes.debugDescription == "fe80::1%en0")
    let path = NWPath(
      status: .satisfied,
      gateways: [
        .hostPort(host: .ipv6(scoped), port: .any),
        .hostPort(host: .ipv6(fromBytes), port: .any),
        .hostPort(host: NWEndpoint.Host("2001:DB8:0:0:1:0:0:1"), port: .any),
        .hostPort(host: .ipv4(try #require(IPv4Address(Data([10, 0, 0, 1])))), port: .any),
      ]
    )
    #expect(
      NWPathMonitorSource.networkPath(from: path).gateways == ["fe80::1", "fe80::1", "2001:db8::1:0:0:1", "10.0.0.1"])
  }

  @Test(
    "link quality and ultra-constrained from 26 on; unknown and false before",
    arguments: [NWPath.LinkQuality.unknown, .minimal, .moderate, .good])
  func linkQuality(quality: NWPath.LinkQuality) {
    let expected: [NWPath.LinkQuality: NetworkPath.LinkQuality] = [
      .unknown: .unknown, .minimal: .minimal, .moderate: .moderate, .good: .good,
    ]
    for ultra in [false, true] {
      let path = NWPath(
        status: .satisfied, availableInterfaces: [NWInterface(name: "en0", index: 4, type: .wifi)],
        supportsIPv4: true, linkQuality: quality, isUltraConstrained: ultra)
      let after = NWPathMonitorSource.networkPath(from: path, readsLinkQuality: true)
      #expect(after.linkQuality == expected[quality])
      #expect(after.isUltraConstrained == ultra)
      let before = NWPathMonitorSource.networkPath(from: path, readsLinkQuality: false)
      #expect(before.linkQuality == .unknown, "Network before 26 has no link quality")
      #expect(!before.isUltraConstrained)
      #expect(before.availableInterfaces == after.availableInterfaces)
    }
  }

  @Test("the opposite flags are copied too")
  func oppositeFlags() {
    let path = NWPath(status: .satisfied, supportsIPv4: false, supportsIPv6: true, supportsDNS: false)
    let translated = NWPathMonitorSource.networkPath(from: path)
    #expect(!translated.isExpensive)
    #expect(!translated.isConstrained)
    #expect(!translated.supportsIPv4)
    #expect(translated.supportsIPv6)
    #expect(!translated.supportsDNS)
    #expect(translated.availableInterfaces.isEmpty)
    #expect(translated.gateways.isEmpty)
  }

  @Test(
    "status and unsatisfied reason; Network's notAvailable is no reason given (nil)",
    arguments: [NWPath.Status.unsatisfied, .requiresConnection],
    [
      (NWPath.UnsatisfiedReason.notAvailable, NetworkPath.UnsatisfiedReason?.none),
      (.cellularDenied, .cellularDenied),
      (.wifiDenied, .wifiDenied),
      (.localNetworkDenied, .localNetworkDenied),
      (.vpnInactive, .vpnInactive),
    ]
  )
  func unsatisfied(
    status: NWPath.Status,
    reason: (NWPath.UnsatisfiedReason, NetworkPath.UnsatisfiedReason?)
  ) {
    let translated = NWPathMonitorSource.networkPath(from: NWPath(status: status, unsatisfiedReason: reason.0))
    #expect(translated.status == (status == .unsatisfied ? .unsatisfied : .requiresConnection))
    #expect(translated.unsatisfiedReason == reason.1)
    #expect(!translated.isConnected, "requiresConnection is not connected")
  }

  @Test("a satisfied path has no unsatisfied reason")
  func satisfiedHasNoReason() {
    let translated = NWPathMonitorSource.networkPath(from: NWPath(status: .satisfied, unsatisfiedReason: .wifiDenied))
    #expect(translated.status == .satisfied)
    #expect(translated.unsatisfiedReason == nil)
    #expect(translated.isConnected)
  }

  @Test("interface types map one to one", arguments: InterfaceType.allCases)
  func interfaceTypes(type: InterfaceType) {
    #expect(NWPathMonitorSource.interfaceType(NWPathMonitorSource.nwInterfaceType(type)) == type)
  }
}

@Suite("NWPathMonitorSource: lifecycle")
struct NWPathMonitorLifecycleTests {
  @Test("the handler is set before start(queue:) and runs on the session's own serial queue")
  func handlerAndQueue() async throws {
    let log = MonitorLog()
    let sent = Recorder<(NetworkPath, String?)>()
    let tag = QueueTag()
    let sink = PathSink { event in
      if case .path(let path) = event { sent.append((path, tag.current)) }
    }
    let first = try log.source.start(filter: .unrestricted, sink: sink)
    let second = try log.source.start(filter: .unrestricted, sink: sink)
    defer {
      first.stop()
      second.stop()
    }
    let monitors = log.monitors
    try #require(monitors.count == 2)
    for monitor in monitors {
      #expect(monitor.handlerWasSetAtStart == true)
      #expect(monitor.startCount == 1)
      #expect(monitor.queue?.label == "NetStatus.NWPathMonitor")
    }
    let queue = try #require(monitors[0].queue)
    #expect(queue !== monitors[1].queue, "each session has a queue of its own")
    #expect(queue !== DispatchQueue.main)
    tag.tag(queue, as: "first monitor's queue")

    #expect(monitors[0].emit(.satisfied("en0", index: 4, .wifi)))
    try await sent.waitFor(count: 1, "the path")
    #expect(sent.values[0].0 == .connected(via: .wifi, index: 4))
    #expect(sent.values[0].1 == "first monitor's queue")
  }

  @Test("the first path arrives asynchronously, and waitForPath returns it")
  func firstPathIsAsynchronous() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    try monitor.start()
    defer { monitor.stopMonitoring() }
    #expect(monitor.currentPath == nil, "not known yet: not offline")
    #expect(monitor.isMonitoring)

    let nwMonitor = try #require(log.monitors.first)
    async let waited = monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    nwMonitor.emit(.satisfied("pdp_ip0", index: 3, .cellular))
    let path = try await waited
    #expect(path == .connected(via: .cellular, index: 3))
    #expect(monitor.currentPath == path)
  }

  @Test("a change of link quality alone is a change every front-end sees")
  func linkQualityChanges() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source)
    try monitor.start()
    defer { monitor.stopMonitoring() }
    let nwMonitor = try #require(log.monitors.first)
    let seen = Recorder<NetworkPath.LinkQuality>()
    let iteration = Task { for await path in monitor.paths { seen.append(path.linkQuality) } }
    defer { iteration.cancel() }
    let wifi = [NWInterface(name: "en0", index: 4, type: .wifi)]
    for (step, quality) in [NWPath.LinkQuality.good, .minimal, .moderate].enumerated() {
      nwMonitor.emit(
        NWPath(status: .satisfied, availableInterfaces: wifi, supportsIPv4: true, linkQuality: quality))
      try await seen.waitFor(count: step + 1, "the path of quality \(quality)")
    }
    #expect(seen.values == [.good, .minimal, .moderate])
    #expect(monitor.currentPath?.linkQuality == .moderate)
  }

  @Test("waitForPath starts the monitor and returns the path the system reports first")
  func waitForPathStarts() async throws {
    let log = MonitorLog { $0.pathOnStart = .satisfied("en1", index: 5, .wiredEthernet) }
    let monitor = NetworkMonitor(source: log.source)
    defer { monitor.stopMonitoring() }
    let path = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    #expect(path == .connected(via: .wiredEthernet, index: 5))
    #expect(log.monitors.count == 1)
  }

  @Test("restarting creates a new NWPathMonitor; the cancelled one is never restarted")
  func restartAfterStop() async throws {
    let made = Mutex(0)
    let log = MonitorLog { monitor in
      let count = made.withLockedValue { count in
        count += 1
        return count
      }
      // The system's path as each monitor starts: Wi-Fi, then Ethernet.
      monitor.pathOnStart =
        count == 1 ? .satisfied("en0", index: 4, .wifi) : .satisfied("en1", index: 5, .wiredEthernet)
    }
    let monitor = NetworkMonitor(source: log.source)
    let paths = Recorder<NetworkPath>()
    let subscription = Task {
      for await path in monitor.paths { paths.append(path) }
    }
    defer { subscription.cancel() }
    try await paths.waitFor(count: 1, "the first monitor's path")

    monitor.stopMonitoring()
    let old = try #require(log.monitors.first)
    #expect(old.cancelCount == 1)
    #expect(monitor.currentPath == nil)
    #expect(!old.emit(.satisfied("en9", index: 9, .wiredEthernet)), "a cancelled monitor delivers nothing")

    try monitor.start()
    defer { monitor.stopMonitoring() }
    let monitors = log.monitors
    try #require(monitors.count == 2)
    #expect(monitors[1] !== old)
    #expect(old.startCount == 1, "the cancelled monitor was not started again")
    #expect(monitors[1].startCount == 1)
    #expect(monitors[1].cancelCount == 0)

    monitors[1].emit(.satisfied("pdp_ip0", index: 3, .cellular))
    try await paths.waitFor(count: 3, "the new monitor's paths")
    #expect(
      paths.values == [
        .connected(via: .wifi, index: 4), .connected(via: .wiredEthernet, index: 5),
        .connected(via: .cellular, index: 3),
      ])
  }

  @Test("nothing is sent after stop() returns, not even a path already queued")
  func noSendAfterStop() async throws {
    let log = MonitorLog()
    let sent = Recorder<NetworkPath>()
    let session = try log.source.start(
      filter: .unrestricted, sink: PathSink { if case .path(let p) = $0 { sent.append(p) } })
    let monitor = try #require(log.monitors.first)
    let queue = try #require(monitor.queue)

    monitor.emit(.satisfied("en0", index: 4, .wifi))
    try await sent.waitFor(count: 1, "a path while running")

    queue.suspend()
    #expect(monitor.emit(.satisfied("pdp_ip0", index: 3, .cellular)), "queued before the cancel")
    session.stop()
    #expect(monitor.cancelCount == 1)
    queue.resume()
    queue.sync {}  // the queued delivery has run: the handler was called, and dropped the path
    #expect(sent.values == [.connected(via: .wifi, index: 4)])

    session.stop()
    #expect(monitor.cancelCount == 1, "stopping twice cancels once")
  }

  @Test("releasing a NetworkMonitor a subscription started cancels its NWPathMonitor; one start() started, stop() does")
  func releaseCancels() throws {
    let log = MonitorLog()
    do {
      let monitor = NetworkMonitor(source: log.source)
      _ = monitor.addSynchronousSubscriber { _ in }
    }
    let nwMonitor = try #require(log.monitors.first)
    #expect(nwMonitor.cancelCount == 1)

    weak var started: NetworkMonitor?
    do {
      let monitor = NetworkMonitor(source: log.source)
      try monitor.start()
      started = monitor
    }
    let second = try #require(log.monitors.last)
    #expect(second !== nwMonitor)
    #expect(started != nil && second.cancelCount == 0, "running until stop(), as NWPathMonitor until cancel()")
    started?.stop()
    #expect(second.cancelCount == 1)
    #expect(started == nil)
  }

  @Test("a stopped session is released, though its monitor keeps the handler after cancel()")
  func stoppedSessionIsReleased() throws {
    let log = MonitorLog()
    weak var released: AnyObject?
    do {
      let session = try log.source.start(filter: .unrestricted, sink: PathSink { _ in })
      released = session as AnyObject
      session.stop()
    }
    let monitor = try #require(log.monitors.first)
    #expect(monitor.cancelCount == 1)
    #expect(monitor.pathUpdateHandler != nil, "the stand-in keeps its handler, as a cycle would need")
    #expect(released == nil, "the handler must not keep the session, and with it the monitor, alive")
  }

  @Test("a session dropped without stop() still cancels its monitor")
  func droppedSessionCancels() throws {
    let log = MonitorLog()
    do { _ = try log.source.start(filter: .unrestricted, sink: PathSink { _ in }) }
    #expect(try #require(log.monitors.first).cancelCount == 1)
  }
}

@Suite("NWPathMonitorSource: interface filters")
struct NWPathMonitorFilterTests {
  @Test("no filter: NWPathMonitor()")
  func noFilter() throws {
    let monitor = NWPathMonitorSource.monitor(for: .unrestricted)
    #expect(monitor.requiredInterfaceType == nil)
    #expect(monitor.prohibitedInterfaceTypes == nil)
  }

  @Test("a required type wins over prohibited ones in NWPathMonitor's init")
  func requiredWins() throws {
    let monitor = NWPathMonitorSource.monitor(
      for: InterfaceFilter(requiredInterfaceType: .wiredEthernet, prohibitedInterfaceTypes: [.cellular]))
    #expect(monitor.requiredInterfaceType == .wiredEthernet)
    #expect(monitor.prohibitedInterfaceTypes == nil)
  }

  @Test("a required type that is also prohibited prohibits every type: nothing may be used")
  func requiredAndProhibited() {
    let monitor = NWPathMonitorSource.monitor(
      for: InterfaceFilter(requiredInterfaceType: .wifi, prohibitedInterfaceTypes: [.wifi]))
    #expect(monitor.requiredInterfaceType == nil)
    #expect(monitor.prohibitedInterfaceTypes.map(Set.init) == [.wifi, .cellular, .wiredEthernet, .loopback, .other])
  }

  @Test("requiredInterfaceType goes into NWPathMonitor(requiredInterfaceType:), whose paths pass unchanged")
  func required() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source, requiredInterfaceType: .wifi)
    try monitor.start()
    defer { monitor.stopMonitoring() }
    let nwMonitor = try #require(log.monitors.first)
    #expect(nwMonitor.requiredInterfaceType == .wifi)
    #expect(nwMonitor.prohibitedInterfaceTypes == nil)

    // A personal hotspot over Wi-Fi: Network says expensive; the type alone (Wi-Fi) would say otherwise.
    nwMonitor.emit(
      NWPath(
        status: .satisfied, availableInterfaces: [NWInterface(name: "en0", index: 4, type: .wifi)],
        isExpensive: true, supportsIPv4: true))
    let path = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    #expect(path.availableInterfaces == [NetworkInterface(name: "en0", index: 4, type: .wifi)])
    #expect(path.isExpensive, "Network's judgement is kept, not derived from the interface type")
  }

  @Test("prohibitedInterfaceTypes go into NWPathMonitor(prohibitedInterfaceTypes:), whose paths pass unchanged")
  func prohibited() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source, prohibitedInterfaceTypes: [.cellular, .other])
    try monitor.start()
    defer { monitor.stopMonitoring() }
    let nwMonitor = try #require(log.monitors.first)
    #expect(nwMonitor.requiredInterfaceType == nil)
    #expect(nwMonitor.prohibitedInterfaceTypes == [.other, .cellular])

    // What Network reports is what the monitor publishes, even listing a type the filter names: Network judged it.
    nwMonitor.emit(
      NWPath(
        status: .satisfied,
        availableInterfaces: [
          NWInterface(name: "utun3", index: 9, type: .other), NWInterface(name: "en0", index: 4, type: .wifi),
        ],
        supportsIPv4: true))
    let path = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces.map(\.name) == ["utun3", "en0"])
  }

  @Test("a VPN path (its tunnel, type other, listed first) stays satisfied and cheap under a filter")
  func vpnPathUnderFilter() async throws {
    let log = MonitorLog()
    let monitor = NetworkMonitor(source: log.source, requiredInterfaceType: .wifi)
    try monitor.start()
    defer { monitor.stopMonitoring() }
    let nwMonitor = try #require(log.monitors.first)
    nwMonitor.emit(
      NWPath(
        status: .satisfied,
        availableInterfaces: [
          NWInterface(name: "utun4", index: 12, type: .other), NWInterface(name: "en0", index: 4, type: .wifi),
        ],
        supportsIPv4: true, supportsDNS: true))
    let path = try await monitor.waitForPath(timeout: Recorder<NetworkPath>.defaultTimeout)
    #expect(path.status == .satisfied, "re-deriving from types would drop the tunnel and judge again")
    #expect(path.interfaceType == .other)
    #expect(!path.isExpensive)
  }
}
