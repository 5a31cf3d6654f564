import Testing

@testable import NetStatusNetworkManager

/// ModemManager's modems as the mirror follows them: one listing, then the ObjectManager's and the modems' signals;
/// every answer of another type, every failure, and ModemManager's coming and going.
@Suite("ModemManager mirrored")
struct ModemManagerMirrorTests {
  typealias Mirror = ModemManagerMirror
  typealias Value = NetworkManagerMirror.Value
  static let modem0 = "/org/freedesktop/ModemManager1/Modem/0"
  static let modem1 = "/org/freedesktop/ModemManager1/Modem/1"
  static let modemInterface = Mirror.modemInterface

  static func ports(_ entries: (String, UInt32)...) -> Value {
    .namedNumbers(entries.map { NetworkManagerMirror.NamedNumber(name: $0.0, number: $0.1) })
  }

  static func quality(_ percent: UInt32) -> Value { .numberAndFlag(percent, true) }

  /// A mirror whose first listing gave modem 0 (`wwan0` its NET port, a tty its AT port) at `quality`.
  static func listed(quality: Value = quality(70), ports: Value = ports(("ttyUSB2", 3), ("wwan0", 2)))
    -> (Mirror, token: UInt64)
  {
    var mirror = Mirror()
    let token = mirror.start()
    #expect(mirror.object(token: token, path: modem0, interfaces: [modemInterface, "org.x.Other"]) == nil)
    for (name, value) in [("SignalQuality", quality), ("Ports", ports), ("Manufacturer", .string("x"))] {
      #expect(mirror.property(token: token, path: modem0, interface: modemInterface, name: name, value: value) == nil)
    }
    mirror.listed(token, nil)
    return (mirror, token)
  }

  static func view(_ mirror: Mirror) -> ModemManagerView? { mirror.status?.view }

  @Test func oneListingGivesTheModemsWithTheirNetPortsAndSignal() {
    var mirror = Mirror()
    let token = mirror.start()
    #expect(Mirror.owns(token) && !Mirror.owns(1), "apart from NetworkManager's reads")
    #expect(mirror.status == nil && mirror.isListing, "nothing known before the answer")
    let (listed, _) = Self.listed()
    #expect(!listed.isListing)
    let view = Self.view(listed)
    #expect(view?.modems == [.init(path: Self.modem0, netPorts: ["wwan0"], signalQuality: 70)])
    #expect(view?.problems == [])
    #expect(view?.modem(interface: "wwan0")?.signalQuality == 70)
    #expect(view?.modem(interface: "ttyUSB2") == nil, "not a NET port")
  }

  @Test func anObjectWithoutTheModemInterfaceIsNoModem() {
    var mirror = Mirror()
    let token = mirror.start()
    _ = mirror.object(token: token, path: "/org/freedesktop/ModemManager1/SIM/0", interfaces: ["org.x.Sim"])
    _ = mirror.property(
      token: token, path: "/org/freedesktop/ModemManager1/SIM/0", interface: Self.modemInterface,
      name: "SignalQuality", value: Self.quality(90))
    mirror.listed(token, nil)
    #expect(Self.view(mirror)?.modems == [])
  }

  @Test func signalsChangeTheSignalAddAndRemoveModems() {
    var (mirror, _) = Self.listed()
    _ = mirror.property(
      token: 0, path: Self.modem0, interface: Self.modemInterface, name: "SignalQuality", value: Self.quality(15))
    #expect(Self.view(mirror)?.modem(interface: "wwan0")?.signalQuality == 15)
    // Another interface's property of the same name, a modem not known, a path outside ModemManager's: ignored.
    _ = mirror.property(
      token: 0, path: Self.modem0, interface: "org.x.Other", name: "SignalQuality", value: Self.quality(99))
    _ = mirror.property(
      token: 0, path: Self.modem1, interface: Self.modemInterface, name: "SignalQuality", value: Self.quality(99))
    _ = mirror.property(
      token: 0, path: "/elsewhere/Modem/0", interface: Self.modemInterface, name: "SignalQuality",
      value: Self.quality(99))
    #expect(Self.view(mirror)?.modems.map(\.signalQuality) == [15])
    // InterfacesAdded, with its properties (token 0).
    #expect(mirror.object(token: 0, path: Self.modem1, interfaces: [Self.modemInterface]) == nil)
    _ = mirror.property(
      token: 0, path: Self.modem1, interface: Self.modemInterface, name: "Ports", value: Self.ports(("wwan1", 2)))
    #expect(Self.view(mirror)?.modem(interface: "wwan1")?.path == Self.modem1)
    #expect(Self.view(mirror)?.modem(interface: "wwan1")?.signalQuality == nil, "no reading yet")
    // InterfacesRemoved of another interface keeps the modem; of the modem's, removes it.
    mirror.removed(path: Self.modem1, interfaces: ["org.x.Other"])
    #expect(Self.view(mirror)?.modems.count == 2)
    mirror.removed(path: Self.modem1, interfaces: [Self.modemInterface])
    #expect(Self.view(mirror)?.modems.map(\.path) == [Self.modem0])
  }

  @Test func valuesOfAnotherTypeAreUnknownAndSaidUntilARightOneComes() {
    var (mirror, _) = Self.listed(quality: .uint32(70), ports: .strings(["wwan0"]))
    let view = Self.view(mirror)
    #expect(view?.modems == [.init(path: Self.modem0, netPorts: [], signalQuality: nil)])
    #expect(
      view?.problems == [
        "ModemManager's Ports of modem \(Self.modem0) has an unexpected type (`as`, not `a(su)`): its link quality "
          + "is unknown",
        "ModemManager's SignalQuality of modem \(Self.modem0) has an unexpected type (`u`, not `(ub)`): its link "
          + "quality is unknown",
      ])
    _ = mirror.property(
      token: 0, path: Self.modem0, interface: Self.modemInterface, name: "SignalQuality", value: Self.quality(60))
    #expect(Self.view(mirror)?.problems.count == 1, "the right value clears its problem")
    _ = mirror.property(
      token: 0, path: Self.modem0, interface: Self.modemInterface, name: "Ports", value: Self.ports(("wwan0", 2)))
    #expect(Self.view(mirror)?.problems == [])
    #expect(Self.view(mirror)?.modem(interface: "wwan0")?.signalQuality == 60)
    // A modem that goes takes its problems with it.
    _ = mirror.property(
      token: 0, path: Self.modem0, interface: Self.modemInterface, name: "Ports", value: .string("x"))
    mirror.removed(path: Self.modem0, interfaces: [Self.modemInterface])
    #expect(Self.view(mirror)?.problems == [])
  }

  @Test func aFailedListingSaysWhyAndTheNextSignalListsAgainOnce() {
    var mirror = Mirror()
    let token = mirror.start()
    mirror.listed(
      token, .init(errorName: "org.freedesktop.DBus.Error.NoReply", code: 110, description: "Connection timed out"))
    #expect(
      mirror.status
        == .unavailable("ModemManager did not answer: org.freedesktop.DBus.Error.NoReply (Connection timed out)"))
    // A signal: ModemManager answers again, so it is listed again, once.
    let again = mirror.object(token: 0, path: Self.modem0, interfaces: [Self.modemInterface])
    #expect(again != nil && again != token)
    #expect(mirror.status == nil, "listing again")
    mirror.listed(token, nil)
    #expect(mirror.status == nil, "the old listing's end is ignored")
    let failure = NetworkManagerMirror.ReadFailure(errorName: "", code: 74, description: "GetManagedObjects answered")
    mirror.listed(again ?? 0, failure)
    #expect(mirror.status == .unavailable("ModemManager did not answer: GetManagedObjects answered"))
    let third = mirror.property(
      token: 0, path: Self.modem0, interface: Self.modemInterface, name: "SignalQuality", value: Self.quality(1))
    #expect(third != nil)
    #expect(
      mirror.property(
        token: 0, path: Self.modem0, interface: Self.modemInterface, name: "SignalQuality", value: Self.quality(1))
        == nil, "not while a listing is in flight")
  }

  @Test func anotherServicesSignalDoesNotListAgain() {
    var mirror = Mirror()
    let token = mirror.start()
    mirror.listed(token, .init(errorName: "", code: 110, description: "timed out"))
    #expect(mirror.object(token: 0, path: "/net/connman/iwd/0/4", interfaces: ["net.connman.iwd.Station"]) == nil)
    #expect(mirror.status == .unavailable("ModemManager did not answer: timed out"))
  }

  @Test func modemManagerAbsentLeavingAndComingBack() {
    var mirror = Mirror()
    let token = mirror.start()
    mirror.listed(
      token, .init(errorName: "org.freedesktop.DBus.Error.ServiceUnknown", code: 2, description: "not activatable"))
    #expect(mirror.status == .absent)
    #expect(mirror.object(token: 0, path: Self.modem0, interfaces: [Self.modemInterface]) == nil, "no recovery")
    // It comes: listed from scratch.
    let listing = mirror.ownerChanged(":1.7")
    #expect(listing != nil && mirror.status == nil)
    var (running, _) = Self.listed()
    #expect(running.status?.view != nil)
    // It leaves: absent, and nothing known of its modems.
    #expect(running.ownerChanged("") == nil)
    #expect(running.status == .absent && !running.isListing)
  }

  @Test func aListingForgottenByANewOwnerIsIgnored() {
    var mirror = Mirror()
    let old = mirror.start()
    let new = mirror.ownerChanged(":1.9")
    #expect(new != nil && new != old)
    #expect(mirror.object(token: old, path: Self.modem0, interfaces: [Self.modemInterface]) == nil)
    _ = mirror.property(
      token: old, path: Self.modem0, interface: Self.modemInterface, name: "Ports", value: Self.ports(("wwan0", 2)))
    mirror.listed(old, nil)
    #expect(mirror.status == nil)
    mirror.listed(new ?? 0, nil)
    #expect(Self.view(mirror)?.modems == [], "the old owner's modems are not taken")
  }
}
