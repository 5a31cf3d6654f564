import Foundation
import Testing

@testable import NetStatusLinuxSource
@testable import NetStatusNetlink

@Suite("interface classifier")
struct InterfaceClassifierTests {
  /// A fake sysfs tree in a temporary folder, removed when the test ends.
  final class FakeSysfs {
    let root: String

    init() throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-sysfs-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: root + "/class/net", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Adds `class/net/NAME` with its ifindex, address and the given extra files and folders.
    func add(
      _ name: String, index: Int32, address: String = "02:00:00:00:00:01", uevent: String = "",
      directories: [String] = [], links: [String: String] = [:]
    ) throws {
      let entry = root + "/class/net/" + name
      try FileManager.default.createDirectory(atPath: entry, withIntermediateDirectories: true)
      try "\(index)\n".write(toFile: entry + "/ifindex", atomically: true, encoding: .utf8)
      try "\(address)\n".write(toFile: entry + "/address", atomically: true, encoding: .utf8)
      try "INTERFACE=\(name)\nIFINDEX=\(index)\n\(uevent)".write(
        toFile: entry + "/uevent", atomically: true, encoding: .utf8)
      for directory in directories {
        try FileManager.default.createDirectory(atPath: entry + "/" + directory, withIntermediateDirectories: true)
      }
      for (link, destination) in links {
        try FileManager.default.createSymbolicLink(atPath: entry + "/" + link, withDestinationPath: destination)
      }
    }
  }

  func link(
    _ name: String, index: Int32, type: UInt16 = RTNL.ARPHRD_ETHER, kind: String? = nil,
    mac: [UInt8]? = [2, 0, 0, 0, 0, 1]
  ) -> NetlinkLink {
    NetlinkLink(
      index: index, name: name, hardwareType: type, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
      operationalState: RTNL.IF_OPER_UP,
      kind: kind, hardwareAddress: mac)
  }

  @Test("wifi via the phy80211 link")
  func wifiPhy() throws {
    let sysfs = try FakeSysfs()
    try sysfs.add("wlp2s0", index: 3, directories: ["device"], links: ["phy80211": "../../ieee80211/phy0"])
    #expect(InterfaceClassifier(sysfsRoot: sysfs.root).classify(link("wlp2s0", index: 3)) == .wifi)
  }

  @Test("wifi via DEVTYPE=wlan, and via a wireless/ folder")
  func wifiDevtype() throws {
    let sysfs = try FakeSysfs()
    try sysfs.add("wlan0", index: 3, uevent: "DEVTYPE=wlan\n", directories: ["device"])
    try sysfs.add("wlan1", index: 4, directories: ["device", "wireless"])
    let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
    #expect(classifier.classify(link("wlan0", index: 3)) == .wifi)
    #expect(classifier.classify(link("wlan1", index: 4)) == .wifi)
  }

  @Test("cellular via DEVTYPE=wwan, raw IP, and the rmnet and ccmni prefixes")
  func cellular() throws {
    let sysfs = try FakeSysfs()
    try sysfs.add("wwan0", index: 5, uevent: "DEVTYPE=wwan\n", directories: ["device"])
    let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
    #expect(classifier.classify(link("wwan0", index: 5)) == .cellular)
    #expect(classifier.classify(link("wwan1", index: 6, type: RTNL.ARPHRD_RAWIP, mac: nil)) == .cellular)
    #expect(classifier.classify(link("rmnet_data0", index: 7, type: 530)) == .cellular)
    #expect(classifier.classify(link("ccmni0", index: 8, type: RTNL.ARPHRD_ETHER)) == .cellular)
  }

  @Test("Ethernet with a device is wired; without one it is other")
  func ethernet() throws {
    let sysfs = try FakeSysfs()
    try sysfs.add("enp3s0", index: 2, links: ["device": "../../../0000:03:00.0"])
    try sysfs.add("eth9", index: 9)
    let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
    #expect(classifier.classify(link("enp3s0", index: 2)) == .wiredEthernet)
    #expect(classifier.classify(link("eth9", index: 9)) == .other)
    // No sysfs entry at all: other.
    #expect(classifier.classify(link("eth7", index: 7)) == .other)
  }

  @Test("virtual kinds are other, whatever sysfs says")
  func virtualKinds() throws {
    let sysfs = try FakeSysfs()
    for (offset, kind) in ["veth", "bridge", "tun", "wireguard", "vlan", "macvlan", "bond"].enumerated() {
      let name = "virt\(offset)"
      try sysfs.add(name, index: Int32(20 + offset), directories: ["device"])
      #expect(
        InterfaceClassifier(sysfsRoot: sysfs.root).classify(link(name, index: Int32(20 + offset), kind: kind))
          == .other, "\(kind)")
    }
    // tun in IP mode has ARPHRD_NONE, PPP has ARPHRD_PPP: both other even without a kind.
    let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
    #expect(classifier.classify(link("tun0", index: 40, type: RTNL.ARPHRD_NONE, mac: nil)) == .other)
    #expect(classifier.classify(link("ppp0", index: 41, type: RTNL.ARPHRD_PPP, mac: nil)) == .other)
  }

  @Test("loopback")
  func loopback() throws {
    let sysfs = try FakeSysfs()
    #expect(
      InterfaceClassifier(sysfsRoot: sysfs.root).classify(
        link("lo", index: 1, type: RTNL.ARPHRD_LOOPBACK, mac: [0, 0, 0, 0, 0, 0])) == .loopback)
  }

  @Test("a sysfs entry of another namespace (other ifindex or MAC) is not trusted")
  func untrustedEntry() throws {
    let sysfs = try FakeSysfs()
    try sysfs.add("wlan0", index: 3, address: "02:00:00:00:00:01", uevent: "DEVTYPE=wlan\n", directories: ["device"])
    let classifier = InterfaceClassifier(sysfsRoot: sysfs.root)
    // Same name, other index: a namespace's own wlan0 is not the host's.
    #expect(classifier.classify(link("wlan0", index: 12)) == .other)
    // Same index, other MAC.
    #expect(classifier.classify(link("wlan0", index: 3, mac: [2, 0, 0, 0, 0, 2])) == .other)
    #expect(classifier.trustedEntry(for: link("wlan0", index: 3)) != nil)
    // Names that would escape the folder are never looked up.
    #expect(classifier.trustedEntry(for: link("..", index: 3)) == nil)
  }
}
