#if canImport(NetStatusNetlink)
  import NetStatusNetlink
#endif

/// Decides an interface's ``InterfaceType`` the way NetworkManager does, from rtnetlink first and from
/// sysfs second: the rules that need no file are the rtnetlink core's (`NetlinkLink.kernelInterfaceType`,
/// `hasCellularModemName`); this type adds the sysfs reads.
///
/// The order:
/// 1. The link kind (`IFLA_INFO_KIND`): virtual links (tun, wireguard, bridge, vlan, veth, macvlan, bond…)
///    are ``InterfaceType/other``; `rmnet` is cellular.
/// 2. The hardware type (`ifi_type`, ARPHRD): 772 loopback, 512 PPP → other, 519 raw IP → cellular,
///    65534 none → other.
/// 3. sysfs `uevent`'s `DEVTYPE=`: `wlan` → wifi, `wwan` → cellular.
/// 4. A `phy80211` link or a `wireless/` folder → wifi.
/// 5. A name starting with `rmnet` or `ccmni` → cellular.
/// 6. Ethernet (ARPHRD 1) with a `device` entry (real hardware) → wiredEthernet; anything else → other.
///
/// sysfs (`SYSFS/class/net/NAME`) shows the interfaces of the network namespace that mounted it, not those
/// of the namespace being watched; a watched namespace can hold an interface named like a host one. So an
/// entry is only trusted when its `ifindex` equals the link's index and, when both are known, its `address`
/// equals the link's hardware address. An untrusted entry is ignored: such an interface is classified from
/// rtnetlink alone (steps 1, 2 and 5), and plain Ethernet without sysfs evidence is ``InterfaceType/other``.
struct InterfaceClassifier: Sendable {
  /// The sysfs mount point, `/sys` on a real system; tests point it at a fake tree.
  var sysfsRoot: String

  /// Creates a classifier reading sysfs under `sysfsRoot`.
  init(sysfsRoot: String = "/sys") {
    self.sysfsRoot = sysfsRoot
  }

  /// The interface's type.
  func classify(_ link: NetlinkLink) -> InterfaceType {
    // Steps 1 and 2 (NetlinkLink+InterfaceType.swift in Sources/NetStatusNetlink).
    if let type = link.kernelInterfaceType { return type }
    let entry = trustedEntry(for: link)
    if let entry {
      if let uevent = LocalFile.readText(entry + "/uevent", limit: 64 * 1024) {
        for line in uevent.split(whereSeparator: \.isNewline) where line.hasPrefix("DEVTYPE=") {
          switch line.dropFirst("DEVTYPE=".count) {
          case "wlan": return .wifi
          case "wwan": return .cellular
          default: break
          }
        }
      }
      if LocalFile.entryExists(entry + "/phy80211") || LocalFile.isDirectory(entry + "/wireless") {
        return .wifi
      }
    }
    if link.hasCellularModemName { return .cellular }
    if link.hardwareType == RTNL.ARPHRD_ETHER, let entry, LocalFile.entryExists(entry + "/device") {
      return .wiredEthernet
    }
    return .other
  }

  /// The speed a wired link negotiated, in Mb/s (sysfs `speed`), or `nil` when the driver says none, the link has
  /// no carrier, or sysfs does not show this very link (another network namespace's).
  func negotiatedSpeed(of link: NetlinkLink) -> Int? {
    guard let entry = trustedEntry(for: link), let text = LocalFile.readText(entry + "/speed", limit: 64) else {
      return nil
    }
    return LinkQualityRules.sysfsSpeed(text)
  }

  /// The interface's sysfs folder, when it describes this very link (same index, same hardware address).
  func trustedEntry(for link: NetlinkLink) -> String? {
    guard !link.name.isEmpty, !link.name.contains("/"), link.name != ".", link.name != ".." else { return nil }
    let entry = sysfsRoot + "/class/net/" + link.name
    guard let indexText = LocalFile.readText(entry + "/ifindex", limit: 64),
      let index = Int32(indexText.trimmingWhitespace()), index == link.index
    else { return nil }
    if let hardwareAddress = link.hardwareAddress, !hardwareAddress.isEmpty,
      let addressText = LocalFile.readText(entry + "/address", limit: 256)
    {
      let expected = hardwareAddress.map { byte in
        let hex = String(byte, radix: 16)
        return hex.count == 1 ? "0" + hex : hex
      }.joined(separator: ":")
      guard addressText.trimmingWhitespace().lowercased() == expected else { return nil }
    }
    return entry
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and newlines.
  func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
