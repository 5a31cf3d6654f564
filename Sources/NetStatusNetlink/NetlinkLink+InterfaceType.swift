#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

extension NetlinkLink {
  /// The link's type as rtnetlink alone tells it, or `nil` when only sysfs can (the rules of `InterfaceClassifier`
  /// in NetStatusCore that need no file; it asks sysfs after these):
  /// 1. The link kind (`IFLA_INFO_KIND`): virtual links (tun, wireguard, bridge, vlan, veth, macvlan, bond…)
  ///    are ``InterfaceType/other``; `rmnet` is cellular.
  /// 2. The hardware type (`ifi_type`, ARPHRD): 772 loopback, 512 PPP → other, 519 raw IP → cellular,
  ///    65534 none → other; IFF_LOOPBACK → loopback.
  @inlinable package var kernelInterfaceType: InterfaceType? {
    if let kind, !kind.isEmpty {
      return kind == "rmnet" ? .cellular : .other
    }
    switch hardwareType {
    case RTNL.ARPHRD_LOOPBACK: return .loopback
    case RTNL.ARPHRD_PPP: return .other
    case RTNL.ARPHRD_RAWIP: return .cellular
    case RTNL.ARPHRD_NONE: return .other
    default: break
    }
    if flags & RTNL.IFF_LOOPBACK != 0 { return .loopback }
    return nil
  }

  /// Whether the name is a cellular modem's (`rmnet…`, `ccmni…`): `InterfaceClassifier`'s rule after sysfs.
  @inlinable package var hasCellularModemName: Bool { name.hasPrefix("rmnet") || name.hasPrefix("ccmni") }
}
