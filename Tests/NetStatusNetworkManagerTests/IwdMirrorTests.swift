import Testing

@testable import NetStatusNetworkManager

/// iwd's stations and its signal level agent's registrations, as the mirror follows them.
@Suite("iwd mirrored")
struct IwdMirrorTests {
  typealias Mirror = IwdMirror
  static let station = "/net/connman/iwd/0/4"
  static let other = "/net/connman/iwd/1/5"
  static let both = [Mirror.deviceInterface, Mirror.stationInterface]
  /// iwd's unique name on the bus.
  static let iwd = ":1.7"

  /// A mirror whose first listing gave `station` (`wlan0`), its registration answered.
  static func running() -> Mirror {
    var mirror = Mirror()
    guard case .list(let token) = mirror.start().first else {
      Issue.record("no listing")
      return mirror
    }
    let calls = mirror.object(token: token, path: station, interfaces: both)
    mirror.property(
      token: token, path: station, interface: Mirror.deviceInterface, name: "Name", value: .string("wlan0"))
    mirror.listed(token, nil)
    #expect(mirror.status == nil, "the registration has not answered")
    guard case .register(let registration, station) = calls.first else {
      Issue.record("no registration: \(calls)")
      return mirror
    }
    mirror.answered(registration, from: Self.iwd, .success(.other(signature: "")))
    return mirror
  }

  @Test func eachStationIsRegisteredWithOnceAndItsLevelsRateIt() {
    var mirror = Self.running()
    #expect(!mirror.isWaiting)
    #expect(mirror.status?.view?.stations == [.init(path: Self.station, interface: "wlan0", level: nil)])
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 1)
    #expect(mirror.status?.view?.station(interface: "wlan0")?.level == 1)
    // Seen again (InterfacesAdded of another interface of it): not registered with twice.
    #expect(mirror.object(token: 0, path: Self.station, interfaces: [Mirror.stationInterface]) == [])
    // An agent call for an object not known, or another method: nothing.
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.other, level: 2)
    mirror.agentCalled("Other", by: Self.iwd, device: Self.station, level: 2)
    #expect(mirror.status?.view?.stations.map(\.level) == [1])
    // A Changed whose level is of another type than `y` keeps the last level, and is said until a level comes.
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: nil)
    #expect(mirror.status?.view?.stations.map(\.level) == [1])
    #expect(mirror.status?.view?.problems.first?.contains("without a level (not `oy`): ignored") == true)
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 1)
    #expect(mirror.status?.view?.problems == [])
    // Release: no level, and the next time it appears it is registered with again.
    mirror.agentCalled("Release", by: Self.iwd, device: Self.station, level: nil)
    #expect(mirror.status?.view?.stations.map(\.level) == [nil])
    #expect(mirror.object(token: 0, path: Self.station, interfaces: [Mirror.stationInterface]).count == 1)
  }

  @Test func onlyTheIwdThatAcceptedTheAgentIsHeard() {
    var mirror = Self.running()
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 1)
    mirror.agentCalled("Changed", by: ":1.99", device: Self.station, level: 0)
    mirror.agentCalled("Release", by: ":1.99", device: Self.station, level: nil)
    #expect(mirror.status?.view?.stations.map(\.level) == [1], "another connection is ignored")
    // Before the registration's answer, iwd's first call (it makes it at once) is taken from whoever makes it.
    var early = Mirror()
    guard case .list(let token) = early.start().first else { return }
    let calls = early.object(token: token, path: Self.station, interfaces: Self.both)
    early.listed(token, nil)
    early.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 2)
    guard case .register(let registration, _) = calls.first else { return }
    early.answered(registration, from: Self.iwd, .success(.other(signature: "")))
    #expect(early.status?.view?.stations.map(\.level) == [2])
  }

  @Test func objectsOfOtherServicesAndDevicesWithoutStationAreNotRegisteredWith() {
    var mirror = Self.running()
    #expect(mirror.object(token: 0, path: "/org/freedesktop/ModemManager1/Modem/0", interfaces: ["x.Modem"]) == [])
    #expect(mirror.object(token: 0, path: Self.other, interfaces: [Mirror.deviceInterface]) == [], "an access point")
    #expect(mirror.status?.view?.stations.count == 1)
    // It becomes a station: registered with.
    #expect(mirror.object(token: 0, path: Self.other, interfaces: [Mirror.stationInterface]).count == 1)
  }

  @Test func aStationThatGoesLosesItsLevelAndIsRegisteredWithWhenItComesBack() {
    var mirror = Self.running()
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 0)
    mirror.removed(path: Self.station, interfaces: [Mirror.stationInterface])
    #expect(mirror.status?.view?.stations == [])
    #expect(mirror.object(token: 0, path: Self.station, interfaces: [Mirror.stationInterface]).count == 1)
    mirror.removed(path: Self.station, interfaces: Self.both)
    mirror.removed(path: Self.other, interfaces: Self.both)
    #expect(mirror.status == nil, "the new registration has not answered")
  }

  @Test func aRefusedRegistrationAndANameOfAnotherTypeAreSaid() {
    var mirror = Mirror()
    guard case .list(let token) = mirror.start().first else { return }
    let calls = mirror.object(token: token, path: Self.station, interfaces: Self.both)
    mirror.property(
      token: token, path: Self.station, interface: Mirror.deviceInterface, name: "Name", value: .uint32(3))
    mirror.listed(token, nil)
    guard case .register(let registration, _) = calls.first else { return }
    mirror.answered(
      registration, from: Self.iwd, .failure(.init(errorName: "net.connman.iwd.Failed", code: 5, description: "no")))
    mirror.answered(registration, from: Self.iwd, .failure(.init(errorName: "x", code: 5, description: "twice")))
    #expect(
      mirror.status?.view?.problems == [
        "iwd's Name of device \(Self.station) has an unexpected type (`u`, not `s`): its link quality is unknown",
        "iwd refused the signal level agent for station \(Self.station) (net.connman.iwd.Failed: no): its link "
          + "quality is unknown",
      ])
    #expect(mirror.status?.view?.station(interface: "") == nil, "no name: no interface matches")
  }

  @Test func aRegistrationMadeAgainAfterAFailedListingIsNotARefusal() {
    var mirror = Mirror()
    guard case .list(let token) = mirror.start().first else { return }
    // The listing fails part-way: the station's registration is sent already.
    guard case .register(let first, _) = mirror.object(token: token, path: Self.station, interfaces: Self.both).first
    else {
      Issue.record("no registration")
      return
    }
    mirror.listed(token, .init(errorName: "", code: 74, description: "GetManagedObjects answered `s`"))
    // iwd's next signal lists again, whose station is registered with again: iwd has this connection's agent.
    guard case .list(let again) = mirror.object(token: 0, path: Self.other, interfaces: Self.both).first else {
      Issue.record("no new listing")
      return
    }
    guard case .register(let second, _) = mirror.object(token: again, path: Self.station, interfaces: Self.both).first
    else {
      Issue.record("no registration after the new listing")
      return
    }
    mirror.property(
      token: again, path: Self.station, interface: Mirror.deviceInterface, name: "Name", value: .string("wlan0"))
    mirror.listed(again, nil)
    mirror.answered(first, from: Self.iwd, .success(.other(signature: "")))
    mirror.answered(
      second, from: Self.iwd,
      .failure(.init(errorName: "net.connman.iwd.AlreadyExists", code: 17, description: "already exists")))
    #expect(mirror.status?.view?.problems == [], "its own agent: no refusal")
    mirror.agentCalled("Changed", by: Self.iwd, device: Self.station, level: 1)
    mirror.agentCalled("Changed", by: ":1.99", device: Self.station, level: 2)
    #expect(mirror.status?.view?.station(interface: "wlan0")?.level == 1, "only the iwd that holds the agent")
    // Another program's agent (no registration of this connection before): AlreadyExists is a refusal.
    var taken = Mirror()
    guard case .list(let listing) = taken.start().first else { return }
    guard
      case .register(let refused, _) = taken.object(token: listing, path: Self.station, interfaces: Self.both)
        .first
    else {
      Issue.record("no registration")
      return
    }
    taken.listed(listing, nil)
    taken.answered(
      refused, from: Self.iwd,
      .failure(.init(errorName: "net.connman.iwd.AlreadyExists", code: 17, description: "taken")))
    #expect(taken.status?.view?.problems.first?.contains("iwd refused the signal level agent") == true)
  }

  @Test func failuresAbsenceAndANewOwner() {
    var mirror = Mirror()
    guard case .list(let token) = mirror.start().first else { return }
    #expect(Mirror.owns(token) && !Mirror.owns(ModemManagerMirror.firstToken) && !Mirror.owns(1))
    mirror.listed(token, .init(errorName: "", code: 74, description: "GetManagedObjects answered `s`"))
    #expect(mirror.status == .unavailable("iwd did not answer: GetManagedObjects answered `s`"))
    // The next signal of iwd lists again, once.
    let recovery = mirror.object(token: 0, path: Self.station, interfaces: Self.both)
    guard case .list = recovery.first else {
      Issue.record("no new listing: \(recovery)")
      return
    }
    // Meanwhile a station that appears is a station like any other: registered with, not listed again.
    let appeared = mirror.object(token: 0, path: Self.station, interfaces: Self.both)
    guard case .register = appeared.first, appeared.count == 1 else {
      Issue.record("not registered: \(appeared)")
      return
    }
    // Gone: absent, and no recovery from signals.
    #expect(mirror.ownerChanged("") == [])
    #expect(mirror.status == .absent)
    #expect(mirror.object(token: 0, path: Self.station, interfaces: Self.both) == [])
    // Absent from the start.
    var absent = Mirror()
    guard case .list(let first) = absent.start().first else { return }
    absent.listed(first, .init(errorName: "org.freedesktop.DBus.Error.ServiceUnknown", code: 2, description: ""))
    #expect(absent.status == .absent)
    // A new owner: everything from scratch, the old listing's events ignored.
    var restarted = Self.running()
    let calls = restarted.ownerChanged(":1.4")
    guard case .list(let again) = calls.first else { return }
    #expect(restarted.object(token: token, path: Self.other, interfaces: Self.both) == [], "a stale listing")
    #expect(restarted.object(token: again, path: Self.station, interfaces: Self.both).count == 1, "registered again")
    restarted.listed(token, nil)
    #expect(restarted.isWaiting)
  }
}
