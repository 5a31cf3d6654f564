import NetStatusTesting
import Testing

@testable import NetStatusCore
@testable import NetStatusNetworkManager

/// The pure part of the NetworkManager integration: NetworkManager's numbers, the metered view applied to a path,
/// its connectivity over a path, and the integration's status and diagnostics.
@Suite("NetworkManager's view")
struct NetworkManagerViewTests {
  static func path(_ name: String, type: InterfaceType = .wiredEthernet, status: NetworkPath.Status = .satisfied)
    -> NetworkPath
  {
    NetworkPath(
      status: status, availableInterfaces: [NetworkInterface(name: name, index: 2, type: type)],
      isExpensive: type == .cellular, supportsIPv4: true)
  }

  static func view(_ devices: [NetworkManagerView.Device], _ connectivity: NetworkManagerView.Connectivity = .full)
    -> NetworkManagerView
  {
    NetworkManagerView(connectivity: connectivity, devices: devices)
  }

  @Test func numbersDecodeAsNetworkManagerDefinesThemAndUnknownNumbersAreUnknown() {
    #expect(
      (0...4).map(NetworkManagerView.connectivity) == [.unknown, .none, .portal, .limited, .full])
    #expect(NetworkManagerView.connectivity(5) == .unknown)
    #expect((0...4).map(NetworkManagerView.metered) == [.unknown, .yes, .no, .guessYes, .guessNo])
    #expect(NetworkManagerView.metered(99) == .unknown)
    #expect(
      [NetworkManagerView.Metered.unknown, .yes, .no, .guessYes, .guessNo].map(\.expenseSource) == [
        nil, .metered, nil, .meteredGuessed, nil,
      ])
  }

  @Test func aMeteredDeviceMakesItsPathExpensiveAndSaysWhy() {
    let view = Self.view([.init(interface: "wlan0", ipInterface: "wlan0", metered: .guessYes)])
    let applied = view.apply(to: Self.path("wlan0"))
    #expect(applied.isExpensive && applied.expenseSource == .meteredGuessed)
    #expect(
      applied.jsonRepresentation
        == Self.path("wlan0").jsonRepresentation.replacing(
          #""isExpensive":false"#, with: #""isExpensive":true"#))
    let yes = Self.view([.init(interface: "eth0", ipInterface: "eth0", metered: .yes)])
    #expect(yes.apply(to: Self.path("eth0")).expenseSource == .metered)
  }

  @Test(arguments: [NetworkManagerView.Metered.unknown, .no, .guessNo])
  func aDeviceNotMeteredLeavesThePathAsItIs(metered: NetworkManagerView.Metered) {
    let view = Self.view([.init(interface: "eth0", ipInterface: "eth0", metered: metered)])
    #expect(view.apply(to: Self.path("eth0")) == Self.path("eth0"))
  }

  @Test func theIPInterfaceMatchesFirstAndTheInterfaceOnlyWithoutOne() {
    // A modem: NetworkManager's Interface is its control port, IpInterface the kernel's wwan0.
    let modem = Self.view([.init(interface: "cdc-wdm0", ipInterface: "wwan0", metered: .yes)])
    #expect(modem.metered(interface: "wwan0") == .yes)
    #expect(modem.metered(interface: "cdc-wdm0") == .unknown, "not the IP interface")
    let notActivated = Self.view([.init(interface: "eth1", ipInterface: "", metered: .yes)])
    #expect(notActivated.metered(interface: "eth1") == .yes)
    #expect(Self.view([]).metered(interface: "eth0") == .unknown)
  }

  @Test func onlyTheInterfaceInUseCountsAndOnlyOnASatisfiedPath() {
    let view = Self.view([.init(interface: "wwan1", ipInterface: "wwan1", metered: .yes)])
    var path = Self.path("eth0")
    path.availableInterfaces.append(NetworkInterface(name: "wwan1", index: 3, type: .other))
    #expect(view.apply(to: path) == path, "the second interface is not in use")
    let unsatisfied = Self.path("wwan1", status: .unsatisfied)
    #expect(view.apply(to: unsatisfied) == unsatisfied)
  }

  @Test func aCellularPathStaysCellular() {
    let view = Self.view([.init(interface: "wwan0", ipInterface: "wwan0", metered: .guessYes)])
    let cellular = Self.path("wwan0", type: .cellular)
    #expect(cellular.expenseSource == .cellular)
    #expect(view.apply(to: cellular).expenseSource == .cellular)
  }

  @Test func connectivityMapsOverThePath() {
    let cases: [(NetworkManagerView.Connectivity, ConnectivityState)] = [
      (.unknown, .unknown), (.none, .noPath), (.portal, .portal(redirect: nil)), (.limited, .limited), (.full, .full),
    ]
    for (connectivity, state) in cases {
      #expect(Self.view([], connectivity).connectivityState(over: Self.path("eth0")) == state, "\(connectivity)")
    }
    #expect(Self.view([], .full).connectivityState(over: nil) == .unknown, "no path known")
    #expect(Self.view([], .full).connectivityState(over: .offline) == .noPath, "no path")
  }

  @Test func eachFamilyTakesItsDevicesAnswerAndTheManagersWhereTheDeviceHasNone() {
    var dualStack = Self.path("eth0")
    dualStack.supportsIPv6 = true
    let device = NetworkManagerView.Device(
      interface: "eth0", ipInterface: "eth0", metered: .no, ip4Connectivity: .full, ip6Connectivity: .limited)
    #expect(Self.view([device]).familyStates(over: dualStack) == FamilyConnectivity(ipv4: .full, ipv6: .limited))
    // A family the path does not carry has no state; an unsatisfied path has none to check.
    #expect(Self.view([device]).familyStates(over: Self.path("eth0")) == FamilyConnectivity(ipv4: .full, ipv6: nil))
    #expect(Self.view([device]).familyStates(over: nil) == FamilyConnectivity())
    // NetworkManager before 1.16 (no per-family property), or a device it does not manage: the manager's answer.
    let old = NetworkManagerView.Device(interface: "eth0", ipInterface: "eth0", metered: .no)
    #expect(
      Self.view([old], .portal).familyStates(over: dualStack)
        == FamilyConnectivity(ipv4: .portal(redirect: nil), ipv6: .portal(redirect: nil)))
    #expect(
      Self.view([device], .limited).familyStates(over: Self.path("wlan0"))
        == FamilyConnectivity(ipv4: .limited, ipv6: nil))
  }

  @Test func theMirrorKeepsEachDevicesFamilyAnswers() throws {
    var mirror = NetworkManagerMirror()
    var reads = mirror.start()
    while !reads.isEmpty {
      let read = reads.removeFirst()
      let value: NetworkManagerMirror.Value =
        switch read.property {
        case .connectivity: .uint32(4)
        case .devices: .strings(["/d/1"])
        case .interface, .ipInterface: .string("eth0")
        case .metered: .uint32(2)
        case .ip4Connectivity: .uint32(4)
        case .ip6Connectivity: .uint32(3)
        case .activeAccessPoint: .string("/")
        case .strength: .byte(50)
        }
      reads += mirror.answered(read.token, .success(value))
    }
    let view = try #require(mirror.status?.view)
    #expect(view.devices.first?.ip4Connectivity == .full && view.devices.first?.ip6Connectivity == .limited)
    // A signal carries the new value: IPv6 works now.
    #expect(
      mirror.changed(
        path: "/d/1", interface: NetworkManagerMirror.deviceInterface, property: "Ip6Connectivity", value: .uint32(4)
      ).isEmpty)
    #expect(mirror.status?.view?.devices.first?.ip6Connectivity == .full)
  }

  @Test func theStatusGivesTheViewAndTheDiagnostic() {
    let view = Self.view([])
    #expect(NetworkManagerStatus.running(view).view == view)
    #expect(NetworkManagerStatus.absent.view == nil)
    #expect(NetworkManagerStatus.running(view).diagnostic.isActive)
    #expect(NetworkManagerStatus.stopped.diagnostic.unavailableReason?.contains("not started") == true)
    #expect(NetworkManagerStatus.absent.diagnostic.unavailableReason?.contains("not running") == true)
    #expect(NetworkManagerStatus.unavailable("no bus").diagnostic.unavailableReason == "no bus")
    #expect(
      NetworkManagerStatus.afterFailedRead(
        errorName: "org.freedesktop.DBus.Error.ServiceUnknown", code: 113, description: "x") == .absent)
    #expect(
      NetworkManagerStatus.afterFailedRead(
        errorName: "org.freedesktop.DBus.Error.NameHasNoOwner", code: 6, description: "x") == .absent)
    let denied = NetworkManagerStatus.afterFailedRead(
      errorName: "org.freedesktop.DBus.Error.AccessDenied", code: 13, description: "EACCES")
    #expect(
      denied
        == .unavailable(
          "the system bus's policy does not let this process call NetworkManager "
            + "(org.freedesktop.DBus.Error.AccessDenied: EACCES)"))
    let failed = NetworkManagerStatus.afterFailedRead(
      errorName: "org.freedesktop.DBus.Error.NoReply", code: 110, description: "ETIMEDOUT")
    #expect(failed == .unavailable("NetworkManager did not answer: org.freedesktop.DBus.Error.NoReply (ETIMEDOUT)"))
  }

  @Test func aDiagnosticReadsAsOneLine() {
    let active = SourceDiagnostic(name: "rtnetlink", provides: "paths", status: .active)
    #expect(active.description == "rtnetlink (paths): active")
    #expect(active.unavailableReason == nil)
    let missing = SourceDiagnostic(
      name: "NetworkManager", provides: "metered devices", status: .unavailable(reason: "gone"))
    #expect(missing.description == "NetworkManager (metered devices): unavailable: gone")
    #expect(!missing.isActive)
  }

  @Test func aScriptedSourceListsItselfActive() {
    let monitor = NetworkMonitor(source: ScriptedPathSource([.offline]))
    #expect(
      monitor.sourceDiagnostics == [SourceDiagnostic(name: "ScriptedPathSource", provides: "paths", status: .active)])
  }

  @Test func theSourcesJSONFollowsTheOtherMembers() {
    let sources = [
      SourceDiagnostic(name: "rtnetlink", provides: "paths", status: .active),
      SourceDiagnostic(
        name: "NetworkManager", provides: "metered devices, connectivity, Wi-Fi signal",
        status: .unavailable(reason: "no \"bus\"")),
    ]
    let json = NetworkPath.offline.jsonRepresentation(with: NetworkPathJSONExtra(sources: sources))
    #expect(
      json.hasSuffix(
        #","sources":[{"name":"rtnetlink","provides":"paths","active":true,"reason":null},"#
          + #"{"name":"NetworkManager","provides":"metered devices, connectivity, Wi-Fi signal","active":false,"reason":"no \"bus\""}]}"#
      ),
      "\(json)")
    // An active source's note follows its reason, only when it has one.
    let noted = SourceDiagnostic(name: "NetworkManager", provides: "metered", status: .active, note: "a \"note\"")
    #expect(
      NetworkPath.offline.jsonRepresentation(with: NetworkPathJSONExtra(sources: [noted])).hasSuffix(
        #","sources":[{"name":"NetworkManager","provides":"metered","active":true,"reason":null,"note":"a \"note\""}]}"#
      ))
  }

  @Test func aNetworkManagerConnectivityMonitorNotStartedIsUnknownAndSendsNothing() {
    let connectivity = ConnectivityMonitor(
      monitor: NetworkMonitor(source: ScriptedPathSource([.offline])), source: .networkManager)
    #expect(connectivity.source == .networkManager)
    #expect(connectivity.state == .unknown)
    #expect(connectivity.checksStarted == 0)
    #expect(connectivity.networkManagerUnavailableReason?.contains("not started") == true)
  }

  @Test func aWiFiDevicesSignalStrengthRatesItsPath() {
    let view = Self.view([
      .init(interface: "wlan0", ipInterface: "wlan0", metered: .no, signalStrength: 70),
      .init(interface: "eth0", ipInterface: "eth0", metered: .no),
    ])
    #expect(view.apply(to: Self.path("wlan0", type: .wifi)).linkQuality == .good)
    #expect(view.apply(to: Self.path("eth0")).linkQuality == .unknown, "no access point: as the kernel said")
    let weak = Self.view([.init(interface: "wlan0", ipInterface: "wlan0", metered: .no, signalStrength: 20)])
    #expect(weak.apply(to: Self.path("wlan0", type: .wifi)).linkQuality == .minimal)
    let fair = Self.view([.init(interface: "wlan0", ipInterface: "wlan0", metered: .no, signalStrength: 40)])
    #expect(fair.apply(to: Self.path("wlan0", type: .wifi)).linkQuality == .moderate)
    // Unsatisfied: nothing applied.
    #expect(view.apply(to: Self.path("wlan0", type: .wifi, status: .unsatisfied)).linkQuality == .unknown)
  }

  @Test func aVPNOverWiFiTakesTheQualityOfTheWiFiItRidesOn() {
    let view = Self.view([.init(interface: "wlan0", ipInterface: "wlan0", metered: .no, signalStrength: 40)])
    let tunnel = NetworkInterface(name: "tun0", index: 5, type: .other)
    let wlan = NetworkInterface(name: "wlan0", index: 3, type: .wifi)
    var path = NetworkPath(status: .satisfied, availableInterfaces: [tunnel, wlan], supportsIPv4: true)
    path.vpn = NetworkPath.VPN(interface: tunnel, underlyingInterfaceType: .wifi)
    #expect(view.apply(to: path).linkQuality == .moderate)
    path.vpn = NetworkPath.VPN(interface: tunnel, underlyingInterfaceType: .wiredEthernet)
    path.linkQuality = .good
    #expect(view.apply(to: path).linkQuality == .good, "over Ethernet: the Wi-Fi's signal is not its link")
  }
}
