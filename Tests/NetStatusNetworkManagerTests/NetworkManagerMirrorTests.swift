import Testing

@testable import NetStatusNetworkManager

/// The reads and `PropertiesChanged` state machine of the NetworkManager integration, without a bus: which reads
/// it sends, and the status the answers and signals add up to.
@Suite("NetworkManager's properties mirrored")
struct NetworkManagerMirrorTests {
  typealias Mirror = NetworkManagerMirror
  static let manager = Mirror.managerPath
  static let device = Mirror.deviceInterface

  static func devicePath(_ number: Int) -> String { "/org/freedesktop/NetworkManager/Devices/\(number)" }

  /// Answers every read in `reads` as a NetworkManager with `devices` (number → interface, metered) would, and
  /// the reads those answers bring; returns how many reads were answered.
  @discardableResult
  static func answer(
    _ reads: [Mirror.Read], in mirror: inout Mirror, connectivity: UInt32 = 4, devices: [Int: (String, UInt32)]
  ) -> Int {
    var queue = reads
    var count = 0
    while !queue.isEmpty {
      let request = queue.removeFirst()
      count += 1
      let number = Int(request.path.split(separator: "/").last ?? "") ?? -1
      let value: Mirror.Value
      switch request.property {
      case .connectivity: value = .uint32(connectivity)
      case .devices: value = .strings(devices.keys.sorted().map(devicePath))
      case .interface: value = .string(devices[number]?.0 ?? "")
      case .ipInterface: value = .string("")
      case .metered: value = .uint32(devices[number]?.1 ?? 0)
      // As NetworkManager before 1.16 answers: no such property; and an Ethernet device: no Device.Wireless.
      case .ip4Connectivity, .ip6Connectivity, .activeAccessPoint, .strength:
        queue += mirror.answered(
          request.token,
          .failure(
            .init(errorName: "org.freedesktop.DBus.Error.InvalidArgs", code: 22, description: "no such property")))
        continue
      }
      queue += mirror.answered(request.token, .success(value))
    }
    return count
  }

  static func metered(_ mirror: Mirror, _ interface: String) -> NetworkManagerView.Metered? {
    mirror.status?.view?.metered(interface: interface)
  }

  @Test func theFirstReadsAreTheManagersThenSixPerDeviceAndTheStatusWaitsForAll() throws {
    var mirror = Mirror()
    let first = mirror.start()
    #expect(first.map(\.property) == [.connectivity, .devices])
    #expect(first.allSatisfy { $0.path == Self.manager })
    #expect(mirror.status == nil)
    var deviceReads = mirror.answered(first[1].token, .success(.strings([Self.devicePath(1), Self.devicePath(2)])))
    #expect(deviceReads.count == 12)
    #expect(
      Set(deviceReads.map(\.property)) == [
        .interface, .ipInterface, .metered, .ip4Connectivity, .ip6Connectivity, .activeAccessPoint,
      ])
    #expect(Set(deviceReads.map(\.token)).count == 12, "one token each")
    #expect(mirror.status == nil, "Connectivity and the devices have not answered")
    #expect(mirror.unanswered == "reading the manager object")
    deviceReads += mirror.answered(first[0].token, .success(.uint32(4)))
    #expect(mirror.unanswered == "reading 2 devices")
    Self.answer(deviceReads, in: &mirror, devices: [1: ("eth0", 1), 2: ("wlan0", 2)])
    let view = try #require(mirror.status?.view)
    #expect(view.connectivity == .full)
    #expect(view.devices.map(\.interface) == ["eth0", "wlan0"])
    #expect(view.metered(interface: "eth0") == .yes && view.metered(interface: "wlan0") == .no)
    #expect(mirror.readsInFlight == 0 && mirror.unanswered == nil)
  }

  @Test func valuesThatSignalsCarryAreAppliedWithoutAnyRead() {
    var mirror = Mirror()
    let devices = Dictionary(uniqueKeysWithValues: (1...30).map { ($0, ("eth\($0)", UInt32(2))) })
    Self.answer(mirror.start(), in: &mirror, devices: devices)
    #expect(Self.metered(mirror, "eth7") == .no)
    // A flood: every device's Metered changes, again and again, and the manager's Connectivity too.
    var reads: [Mirror.Read] = []
    for round in 0..<20 {
      for number in 1...30 {
        reads += mirror.changed(
          path: Self.devicePath(number), interface: Self.device, property: "Metered",
          value: .uint32(UInt32(1 + (round + number) % 2)))
        // Properties NetStatus does not use, and another interface's, change nothing and read nothing.
        reads += mirror.changed(
          path: Self.devicePath(number), interface: Self.device, property: "State", value: .uint32(100))
        reads += mirror.changed(
          path: Self.devicePath(number), interface: "org.freedesktop.NetworkManager.Device.Wired",
          property: "Metered", value: .uint32(1))
      }
      reads += mirror.changed(
        path: Self.manager, interface: Mirror.managerInterface, property: "Connectivity", value: .uint32(3))
    }
    #expect(reads.isEmpty, "\(reads.count) reads")
    // Round 19: (1 + (19 + n) % 2): odd n → 1 (yes), even n → 2 (no).
    #expect(Self.metered(mirror, "eth7") == .yes && Self.metered(mirror, "eth8") == .no)
    #expect(mirror.status?.view?.connectivity == .limited)
  }

  @Test func anInvalidatedPropertyIsReadOnceEvenWhenInvalidatedAgainWhileItsReadIsInFlight() throws {
    var mirror = Mirror()
    Self.answer(mirror.start(), in: &mirror, devices: [1: ("eth0", 2)])
    let reads = mirror.invalidated(path: Self.devicePath(1), interface: Self.device, property: "Metered")
    let request = try #require(reads.first)
    #expect(reads.count == 1 && request.property == .metered && request.path == Self.devicePath(1))
    // Invalidated twice more while the read is in flight: no second read at once, one more after its answer.
    #expect(mirror.invalidated(path: Self.devicePath(1), interface: Self.device, property: "Metered").isEmpty)
    #expect(mirror.invalidated(path: Self.devicePath(1), interface: Self.device, property: "Metered").isEmpty)
    let again = mirror.answered(request.token, .success(.uint32(1)))
    #expect(again.count == 1 && again.first?.property == .metered)
    #expect(Self.metered(mirror, "eth0") == .yes, "the answer applies meanwhile")
    #expect(mirror.answered(try #require(again.first).token, .success(.uint32(3))).isEmpty)
    #expect(Self.metered(mirror, "eth0") == .guessYes)
    // An answer to a read the mirror forgot (a token it never gave) changes nothing.
    #expect(mirror.answered(999, .success(.uint32(1))).isEmpty)
    #expect(Self.metered(mirror, "eth0") == .guessYes)
  }

  @Test func aDeviceThatAppearsIsReadOnceAndOneThatLeavesIsForgotten() {
    var mirror = Mirror()
    Self.answer(mirror.start(), in: &mirror, devices: [1: ("eth0", 2)])
    // Devices changes with its value (as NetworkManager sends it), then DeviceAdded for the same device.
    let reads = mirror.changed(
      path: Self.manager, interface: Mirror.managerInterface, property: "Devices",
      value: .strings([Self.devicePath(1), Self.devicePath(2)]))
    #expect(reads.count == 6 && reads.allSatisfy { $0.path == Self.devicePath(2) })
    #expect(mirror.deviceAdded(Self.devicePath(2)).isEmpty, "already listed")
    #expect(mirror.status?.view?.devices.map(\.interface) == ["eth0"], "published before the new device answers")
    Self.answer(reads, in: &mirror, devices: [2: ("wwan0", 1)])
    #expect(Self.metered(mirror, "wwan0") == .yes)
    #expect(mirror.deviceRemoved(Self.devicePath(2)).isEmpty)
    #expect(mirror.status?.view?.devices.map(\.interface) == ["eth0"])
    // DeviceAdded alone (no Devices signal) reads the device too.
    #expect(mirror.deviceAdded(Self.devicePath(3)).count == 6)
  }

  /// dbus-daemon refuses calls past 128 awaiting their reply per connection: never more than
  /// `maxReadsInFlight` (32) at once, the others sent as answers come, each read once, the status once all answered.
  @Test func atMostMaxReadsAreInFlightAndTheOthersGoAsAnswersCome() throws {
    var mirror = Mirror()
    let count = 60
    let perDevice = Mirror.Property.ofADevice.count
    let first = mirror.start()
    _ = mirror.answered(first[0].token, .success(.uint32(4)))
    var inFlight = mirror.answered(first[1].token, .success(.strings((1...count).map(Self.devicePath))))
    #expect(inFlight.count == Mirror.maxReadsInFlight && mirror.readsInFlight == Mirror.maxReadsInFlight)
    #expect(mirror.readsWaiting == perDevice * count - Mirror.maxReadsInFlight)
    #expect(mirror.unanswered == "reading \(count) devices", "those that wait too")
    // Answered one at a time, the oldest first: each answer sends one read that waited, in the order decided.
    var sent: [Mirror.Read] = inFlight
    while !inFlight.isEmpty {
      let read = inFlight.removeFirst()
      #expect(mirror.status == nil, "not all answered")
      let number = Int(read.path.split(separator: "/").last ?? "") ?? -1
      let value: Mirror.Value =
        switch read.property {
        case .interface: .string("eth\(number)")
        case .ipInterface: .string("")
        case .metered: .uint32(1)
        case .connectivity, .devices, .ip4Connectivity, .ip6Connectivity: .uint32(4)
        // A Wi-Fi device with no access point: no read of a strength.
        case .activeAccessPoint: .string("/")
        case .strength: .byte(50)
        }
      let next = mirror.answered(read.token, .success(value))
      #expect(next.count <= 1)
      inFlight += next
      sent += next
      #expect(mirror.readsInFlight <= Mirror.maxReadsInFlight)
    }
    #expect(sent.count == perDevice * count)
    #expect(Set(sent.map { "\($0.path) \($0.property)" }).count == perDevice * count, "each once")
    #expect(sent.prefix(perDevice).map(\.property) == Mirror.Property.ofADevice, "in the order decided")
    let view = try #require(mirror.status?.view)
    #expect(view.devices.count == count && view.devices.allSatisfy { $0.metered == .yes })
    #expect(mirror.readsWaiting == 0 && mirror.unanswered == nil)
  }

  @Test func aReadThatWaitsIsNotSentTwiceAndOneWhoseValueASignalCarriesIsDropped() throws {
    var mirror = Mirror()
    let count = 20
    let perDevice = Mirror.Property.ofADevice.count
    let first = mirror.start()
    _ = mirror.answered(first[0].token, .success(.uint32(4)))
    let inFlight = mirror.answered(first[1].token, .success(.strings((1...count).map(Self.devicePath))))
    let waiting = mirror.readsWaiting
    #expect(inFlight.count == Mirror.maxReadsInFlight && waiting == perDevice * count - Mirror.maxReadsInFlight)
    // Device 20's reads wait: named without its value, its Metered still waits, once.
    #expect(mirror.invalidated(path: Self.devicePath(count), interface: Self.device, property: "Metered").isEmpty)
    #expect(mirror.readsWaiting == waiting)
    // With its value: the read that waited is dropped.
    #expect(
      mirror.changed(path: Self.devicePath(count), interface: Self.device, property: "Metered", value: .uint32(3))
        .isEmpty)
    #expect(mirror.readsWaiting == waiting - 1)
    // A device that leaves: its reads that wait are dropped, and its reads in flight free their slots.
    let flying = inFlight.filter { $0.path == Self.devicePath(1) }.count
    let next = mirror.deviceRemoved(Self.devicePath(1))
    #expect(flying == perDevice && next.count == flying, "the slots of device 1's reads")
    #expect(next.allSatisfy { $0.path != Self.devicePath(1) })
    #expect(mirror.readsInFlight == Mirror.maxReadsInFlight)
    let all = inFlight.filter { $0.path != Self.devicePath(1) } + next
    Self.answer(all, in: &mirror, devices: Dictionary(uniqueKeysWithValues: (2...count).map { ($0, ("eth\($0)", 2)) }))
    let view = try #require(mirror.status?.view)
    #expect(view.devices.count == count - 1)
    #expect(view.metered(interface: "eth\(count)") == .guessYes, "the signal's value, not read again")
    #expect(view.metered(interface: "eth2") == .no)
  }

  @Test func aDevicesFailedReadsLeaveItOutOrUnknownButTheStatusComes() {
    var mirror = Mirror()
    let first = mirror.start()
    _ = mirror.answered(first[0].token, .success(.uint32(4)))
    let reads = mirror.answered(first[1].token, .success(.strings([Self.devicePath(1), Self.devicePath(2)])))
    let timeout = Mirror.ReadFailure(
      errorName: "org.freedesktop.DBus.Error.NoReply", code: 110, description: "reading a property: timed out")
    for request in reads {
      if request.path == Self.devicePath(1), request.property == .interface {
        #expect(mirror.answered(request.token, .failure(timeout)).isEmpty)
      } else if request.path == Self.devicePath(2), request.property == .metered {
        // A Metered of another type: unknown, as if unreadable.
        #expect(mirror.answered(request.token, .success(.other(signature: "s"))).isEmpty)
      } else {
        let value: Mirror.Value =
          switch request.property {
          case .metered: .uint32(1)
          case .activeAccessPoint: .string("/")
          default: .string("eth2")
          }
        _ = mirror.answered(request.token, .success(value))
      }
    }
    #expect(mirror.status?.view?.devices.map(\.interface) == ["eth2"], "device 1 has no Interface: left out")
    #expect(Self.metered(mirror, "eth2") == .unknown)
  }

  @Test func aManagerPropertyOfTheWrongTypeSaysUnexpectedType() {
    var mirror = Mirror()
    let first = mirror.start()
    _ = mirror.answered(first[1].token, .success(.strings([])))
    #expect(mirror.answered(first[0].token, .success(.other(signature: "s"))).isEmpty)
    guard case .unavailable(let reason) = mirror.status else {
      Issue.record("\(String(describing: mirror.status))")
      return
    }
    #expect(reason == "NetworkManager's Connectivity has an unexpected type (`s`, not `u`)", "\(reason)")
    #expect(!reason.contains("ENXIO") && !reason.contains("No such device"))
  }

  @Test func aDevicePropertyOfTheWrongTypeSaysUnexpectedTypeInTheDiagnostics() throws {
    var mirror = Mirror()
    let first = mirror.start()
    _ = mirror.answered(first[0].token, .success(.uint32(4)))
    let reads = mirror.answered(first[1].token, .success(.strings([Self.devicePath(1)])))
    for request in reads {
      let value: Mirror.Value =
        switch request.property {
        case .interface: .string("eth0")
        case .metered: .other(signature: "s")  // a string where NetworkManager's API has a `u`
        case .ipInterface: .uint32(7)
        case .activeAccessPoint: .string("/")
        default: .uint32(4)
        }
      _ = mirror.answered(request.token, .success(value))
    }
    let status = try #require(mirror.status)
    #expect(Self.metered(mirror, "eth0") == .unknown, "counted as unknown, the device kept")
    let diagnostic = status.diagnostic
    #expect(diagnostic.isActive)
    #expect(
      diagnostic.note
        == "NetworkManager's IpInterface of device \(Self.devicePath(1)) has an unexpected type (`u`, not `s`): its "
        + "Interface is taken for it; NetworkManager's Metered of device \(Self.devicePath(1)) has an unexpected "
        + "type (`s`, not `u`): counted as unknown")
    #expect(
      diagnostic.description.hasPrefix(
        "NetworkManager (metered devices, connectivity, Wi-Fi signal): active (NetworkManager's"))
    // A signal with a value of the right type: nothing left to say.
    _ = mirror.changed(path: Self.devicePath(1), interface: Self.device, property: "Metered", value: .uint32(1))
    _ = mirror.changed(path: Self.devicePath(1), interface: Self.device, property: "IpInterface", value: .string(""))
    #expect(Self.metered(mirror, "eth0") == .yes)
    #expect(mirror.status?.diagnostic.note == nil)
    #expect(
      mirror.status?.diagnostic.description == "NetworkManager (metered devices, connectivity, Wi-Fi signal): active")
  }

  @Test func aManagerPropertyOfAnotherKnownTypeFailsToo() {
    var mirror = Mirror()
    let first = mirror.start()
    _ = mirror.answered(first[1].token, .success(.strings([])))
    _ = mirror.answered(first[0].token, .success(.string("full")))
    #expect(
      mirror.status == .unavailable("NetworkManager's Connectivity has an unexpected type (`s`, not `u`)"),
      "it never settled before")
  }

  @Test func theNameLeavingIsAbsentAndANewOwnerIsReadFromScratch() throws {
    var mirror = Mirror()
    Self.answer(mirror.start(), in: &mirror, devices: [1: ("eth0", 1)])
    let late = mirror.invalidated(path: Self.devicePath(1), interface: Self.device, property: "Metered")
    #expect(mirror.ownerChanged("").isEmpty)
    #expect(mirror.status == .absent)
    #expect(mirror.answered(try #require(late.first).token, .success(.uint32(2))).isEmpty, "a late answer ignored")
    #expect(mirror.status == .absent)
    let reads = mirror.ownerChanged(":1.42")
    #expect(reads.map(\.property) == [.connectivity, .devices])
    #expect(mirror.status == nil)
    Self.answer(reads, in: &mirror, devices: [1: ("eth0", 3)])
    #expect(Self.metered(mirror, "eth0") == .guessYes)
  }

  @Test func serviceUnknownIsAbsentAndAnotherErrorSaysNetworkManagerDidNotAnswer() {
    var mirror = Mirror()
    var first = mirror.start()
    _ = mirror.answered(
      first[0].token,
      .failure(.init(errorName: "org.freedesktop.DBus.Error.ServiceUnknown", code: 2, description: "reading")))
    #expect(mirror.status == .absent)
    first = mirror.start()
    _ = mirror.answered(
      first[0].token, .failure(.init(errorName: "org.freedesktop.DBus.Error.NoReply", code: 110, description: "x")))
    #expect(mirror.status?.diagnostic.unavailableReason?.hasPrefix("NetworkManager did not answer") == true)
    // Its next signal reads it again, once.
    let again = mirror.changed(
      path: Self.manager, interface: Mirror.managerInterface, property: "Connectivity", value: .uint32(4))
    #expect(again.map(\.property) == [.connectivity, .devices])
    #expect(
      mirror.changed(
        path: Self.manager, interface: Mirror.managerInterface, property: "Connectivity", value: .uint32(4)
      )
      .isEmpty)
  }

  @Test func theStartUpBudgetsMessageSaysWhatDidNotAnswer() {
    let bus = NetworkManagerStatus.noAnswer(
      within: .milliseconds(750), busAnswered: false, waitingFor: "reading the manager object")
    #expect(
      bus.diagnostic.unavailableReason
        == "NetworkManager did not answer within 750 ms (the system bus did not answer); its answer is applied when it comes"
    )
    let devices = NetworkManagerStatus.noAnswer(within: .seconds(1), busAnswered: true, waitingFor: "reading 3 devices")
    #expect(devices.diagnostic.unavailableReason?.contains("within 1000 ms (reading 3 devices)") == true)
  }
}
