import NetStatusPathModel
import Testing

@testable import NetStatusNetlink

/// What rtnetlink alone tells of a link's type, before sysfs is asked (`NetlinkLink.kernelInterfaceType`).
@Suite("link type from rtnetlink")
struct LinkTypeTests {
  func link(_ name: String, type: UInt16 = RTNL.ARPHRD_ETHER, kind: String? = nil, flags: UInt32 = RTNL.IFF_UP)
    -> NetlinkLink
  {
    NetlinkLink(
      index: 2, name: name, hardwareType: type, flags: flags, operationalState: RTNL.IF_OPER_UP, kind: kind,
      hardwareAddress: nil)
  }

  @Test("a link kind makes it virtual (other), except rmnet (cellular)")
  func kinds() {
    for kind in ["veth", "bridge", "wireguard", "tun", "vlan", "macvlan", "bond"] {
      #expect(link("x0", kind: kind).kernelInterfaceType == .other, "\(kind)")
    }
    #expect(link("rmnet0", kind: "rmnet").kernelInterfaceType == .cellular)
    #expect(link("eth0", kind: "").kernelInterfaceType == nil, "an empty kind is no kind")
  }

  @Test("hardware types: loopback, PPP, raw IP, none; plain Ethernet needs sysfs")
  func hardwareTypes() {
    #expect(link("lo", type: RTNL.ARPHRD_LOOPBACK).kernelInterfaceType == .loopback)
    #expect(link("ppp0", type: RTNL.ARPHRD_PPP).kernelInterfaceType == .other)
    #expect(link("wwan0", type: RTNL.ARPHRD_RAWIP).kernelInterfaceType == .cellular)
    #expect(link("tun0", type: RTNL.ARPHRD_NONE).kernelInterfaceType == .other)
    #expect(link("lo1", flags: RTNL.IFF_UP | RTNL.IFF_LOOPBACK).kernelInterfaceType == .loopback)
    #expect(link("eth0").kernelInterfaceType == nil)
  }

  @Test("cellular modem names")
  func modemNames() {
    #expect(link("rmnet_data0").hasCellularModemName)
    #expect(link("ccmni1").hasCellularModemName)
    #expect(!link("eth0").hasCellularModemName)
  }
}
