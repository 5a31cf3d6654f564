import Testing

@testable import NetStatusNetworkManager

/// A Wi-Fi device's access point and its signal strength, as the mirror follows them: read once, then from the
/// signals; only the access points in use.
@Suite("NetworkManager's Wi-Fi signal mirrored")
struct NetworkManagerWiFiMirrorTests {
  typealias Mirror = NetworkManagerMirror
  static let wlan = NetworkManagerMirrorTests.devicePath(1)
  static let eth = NetworkManagerMirrorTests.devicePath(2)
  static func accessPoint(_ number: Int) -> String { "/org/freedesktop/NetworkManager/AccessPoint/\(number)" }

  /// A mirror that has read NetworkManager with a Wi-Fi device (`wlan0`, using access point 1 at `strength`) and an
  /// Ethernet one (`eth0`, no `Device.Wireless`), every read answered.
  static func settled(strength: Mirror.Value = .byte(70)) -> (Mirror, reads: [Mirror.Read]) {
    var mirror = Mirror()
    var queue = mirror.start()
    var sent: [Mirror.Read] = []
    while !queue.isEmpty {
      let read = queue.removeFirst()
      sent.append(read)
      let isWLAN = read.path == wlan
      let result: Result<Mirror.Value, Mirror.ReadFailure>
      switch read.property {
      case .connectivity: result = .success(.uint32(4))
      case .devices: result = .success(.strings([wlan, eth]))
      case .interface: result = .success(.string(isWLAN ? "wlan0" : "eth0"))
      case .ipInterface: result = .success(.string(isWLAN ? "wlan0" : "eth0"))
      case .metered: result = .success(.uint32(4))
      case .ip4Connectivity, .ip6Connectivity: result = .success(.uint32(4))
      case .activeAccessPoint:
        result =
          isWLAN
          ? .success(.string(accessPoint(1)))
          : .failure(.init(errorName: "org.freedesktop.DBus.Error.InvalidArgs", code: 22, description: "none"))
      case .strength: result = .success(strength)
      }
      queue += mirror.answered(read.token, result)
    }
    return (mirror, sent)
  }

  static func strength(_ mirror: Mirror, _ interface: String) -> UInt8?? {
    mirror.status?.view?.devices.first { $0.interface == interface }.map(\.signalStrength)
  }

  @Test func theAccessPointInUseIsReadOnceAndItsStrengthSettlesTheFirstStatus() throws {
    let (mirror, sent) = Self.settled()
    let strengthReads = sent.filter { $0.property == .strength }
    #expect(strengthReads.map(\.path) == [Self.accessPoint(1)], "only the access point in use, once")
    #expect(Self.strength(mirror, "wlan0") == .some(70))
    #expect(Self.strength(mirror, "eth0") == .some(nil), "no Device.Wireless: no strength, and no problem")
    #expect(mirror.status?.view?.problems == [])
  }

  @Test func theStatusWaitsForTheStrength() {
    var mirror = Mirror()
    var queue = mirror.start()
    var strengthRead: Mirror.Read?
    while !queue.isEmpty {
      let read = queue.removeFirst()
      switch read.property {
      case .strength: strengthRead = read
      case .connectivity: queue += mirror.answered(read.token, .success(.uint32(4)))
      case .devices: queue += mirror.answered(read.token, .success(.strings([Self.wlan])))
      case .activeAccessPoint: queue += mirror.answered(read.token, .success(.string(Self.accessPoint(3))))
      case .interface, .ipInterface: queue += mirror.answered(read.token, .success(.string("wlan0")))
      default: queue += mirror.answered(read.token, .success(.uint32(4)))
      }
    }
    #expect(mirror.status == nil, "the access point's strength is one of the first reads")
    guard let strengthRead else {
      Issue.record("no read of the access point's strength")
      return
    }
    _ = mirror.answered(strengthRead.token, .success(.byte(20)))
    #expect(Self.strength(mirror, "wlan0") == .some(20))
  }

  @Test func aStrengthSignalIsAppliedWithoutARead() {
    var (mirror, _) = Self.settled()
    let reads = mirror.changed(
      path: Self.accessPoint(1), interface: Mirror.accessPointInterface, property: "Strength", value: .byte(30))
    #expect(reads.isEmpty)
    #expect(Self.strength(mirror, "wlan0") == .some(30))
    // An access point no device uses: ignored.
    #expect(
      mirror.changed(
        path: Self.accessPoint(9), interface: Mirror.accessPointInterface, property: "Strength", value: .byte(99)
      ).isEmpty)
    #expect(Self.strength(mirror, "wlan0") == .some(30))
  }

  @Test func aRoamReadsTheNewAccessPointAndForgetsTheOld() {
    var (mirror, _) = Self.settled()
    let reads = mirror.changed(
      path: Self.wlan, interface: Mirror.wirelessInterface, property: "ActiveAccessPoint",
      value: .string(Self.accessPoint(2)))
    #expect(reads.map(\.path) == [Self.accessPoint(2)] && reads.map(\.property) == [.strength])
    #expect(Self.strength(mirror, "wlan0") == .some(nil), "unknown until the new one answers")
    // The old access point's signals no longer count.
    _ = mirror.changed(
      path: Self.accessPoint(1), interface: Mirror.accessPointInterface, property: "Strength", value: .byte(99))
    #expect(Self.strength(mirror, "wlan0") == .some(nil))
    _ = mirror.answered(reads[0].token, .success(.byte(45)))
    #expect(Self.strength(mirror, "wlan0") == .some(45))
    // Disconnected: `/`, no access point, no strength, no read.
    #expect(
      mirror.changed(
        path: Self.wlan, interface: Mirror.wirelessInterface, property: "ActiveAccessPoint", value: .string("/")
      ).isEmpty)
    #expect(Self.strength(mirror, "wlan0") == .some(nil))
  }

  @Test func anAnswerForAnAccessPointLeftMeanwhileIsDropped() {
    var (mirror, _) = Self.settled()
    let reads = mirror.changed(
      path: Self.wlan, interface: Mirror.wirelessInterface, property: "ActiveAccessPoint",
      value: .string(Self.accessPoint(2)))
    _ = mirror.changed(
      path: Self.wlan, interface: Mirror.wirelessInterface, property: "ActiveAccessPoint", value: .string("/"))
    #expect(mirror.readsInFlight == 0, "the read of access point 2 is forgotten")
    #expect(mirror.answered(reads[0].token, .success(.byte(90))).isEmpty)
    #expect(Self.strength(mirror, "wlan0") == .some(nil))
  }

  @Test func aStrengthOfAnotherTypeIsUnknownAndSaidInTheProblems() throws {
    let (mirror, _) = Self.settled(strength: .string("strong"))
    #expect(Self.strength(mirror, "wlan0") == .some(nil))
    let problems = try #require(mirror.status?.view?.problems)
    #expect(
      problems == [
        "NetworkManager's Strength of access point \(Self.accessPoint(1)) has an unexpected type (`s`, not `y`): "
          + "its link quality is unknown"
      ])
  }

  @Test func aDeviceThatLeavesTakesItsAccessPointWithIt() {
    var (mirror, _) = Self.settled()
    _ = mirror.deviceRemoved(Self.wlan)
    #expect(
      mirror.changed(
        path: Self.accessPoint(1), interface: Mirror.accessPointInterface, property: "Strength", value: .byte(10)
      ).isEmpty)
    #expect(mirror.status?.view?.devices.map(\.interface) == ["eth0"])
  }

  @Test func anInvalidatedStrengthIsReadAgain() {
    var (mirror, _) = Self.settled()
    let reads = mirror.invalidated(
      path: Self.accessPoint(1), interface: Mirror.accessPointInterface, property: "Strength")
    #expect(reads.map(\.property) == [.strength] && reads.map(\.path) == [Self.accessPoint(1)])
  }
}
