@_spi(TestHooks) import Network
import Testing

@testable import NetStatusAppleLogic
@testable import NetStatusCore

/// NWPathMonitorSource+VPN.swift, the Apple source's best-effort VPN, compiled on Linux against the Network stand-in.
@Suite("NWPathMonitorSource: VPN from NWPath's interfaces")
struct NWPathMonitorSourceVPNTests {
  func translate(_ interfaces: [(String, NWInterface.InterfaceType)]) -> NetworkPath {
    let path = NWPath(
      status: .satisfied,
      availableInterfaces: interfaces.enumerated().map { NWInterface(name: $1.0, index: $0 + 2, type: $1.1) })
    return NWPathMonitorSource.networkPath(from: path)
  }

  @Test(
    "utun, ipsec and ppp first, of type other: a VPN over the first interface that is not a tunnel",
    arguments: ["utun4", "ipsec0", "ppp0"])
  func tunnels(_ name: String) {
    let path = translate([(name, .other), ("utun7", .other), ("en0", .wifi), ("pdp_ip0", .cellular)])
    #expect(path.interfaceType == .other)
    #expect(
      path.vpn
        == NetworkPath.VPN(
          interface: NetworkInterface(name: name, index: 2, type: .other), underlyingInterfaceType: .wifi))
  }

  @Test("a tunnel alone has no underlying type")
  func alone() {
    let path = translate([("utun0", .other)])
    #expect(path.vpn?.interface.name == "utun0")
    #expect(path.vpn != nil && path.vpn?.underlyingInterfaceType == nil)
  }

  @Test("no VPN: a tunnel not first, a tunnel's name of another type, another name of type other, no interface")
  func notVPN() {
    #expect(translate([("en0", .wifi), ("utun3", .other)]).vpn == nil)
    #expect(translate([("utun3", .wiredEthernet), ("en0", .wifi)]).vpn == nil)
    #expect(translate([("bridge0", .other), ("en0", .wifi)]).vpn == nil)
    #expect(translate([("utunnel", .other), ("en0", .wifi)]).vpn == nil, "a tunnel's prefix, but no number")
    #expect(translate([]).vpn == nil)
  }
}
