import Foundation
import Testing

@testable import NetStatusCore

/// `NetworkPath.vpn`: its JSON form (`Sources/NetStatusCore/NetworkPath+JSON.swift` and `Codable`), decoding,
/// and the text forms.
@Suite("NetworkPath VPN")
struct NetworkPathVPNTests {
  static let tun0 = NetworkInterface(name: "tun0", index: 5, type: .other)
  static let eth0 = NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)

  static let throughTunnel = NetworkPath(
    status: .satisfied, availableInterfaces: [tun0, eth0], supportsIPv4: true, supportsDNS: true,
    gateways: ["192.0.2.1"], vpn: NetworkPath.VPN(interface: tun0, underlyingInterfaceType: .wiredEthernet))

  static let documented = """
    {"status":"satisfied","unsatisfiedReason":null,"isExpensive":false,"isConstrained":false,\
    "isUltraConstrained":false,"supportsIPv4":true,"supportsIPv6":false,"supportsDNS":true,"interfaceType":"other",\
    "linkQuality":"unknown",\
    "availableInterfaces":[{"name":"tun0","index":5,"type":"other"},{"name":"eth0","index":2,"type":"wiredEthernet"}],\
    "gateways":["192.0.2.1"],"vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet",\
    "bypassedByIPv4":false,"bypassedByIPv6":false}}
    """

  @Test("the JSON form ends with the vpn member; the stand-alone writer and Codable agree")
  func documentedForm() throws {
    #expect(Self.throughTunnel.jsonRepresentation == Self.documented)
    var line = ""
    Self.throughTunnel.withJSONLine { line = String(decoding: $0, as: UTF8.self) }
    #expect(line == Self.documented + "\n")
    let encoded = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.throughTunnel)) as? NSDictionary)
    #expect(encoded == (try JSONSerialization.jsonObject(with: Data(Self.documented.utf8)) as? NSDictionary))
    var unknown = Self.throughTunnel
    unknown.vpn?.underlyingInterfaceType = nil
    #expect(
      unknown.jsonRepresentation.hasSuffix(
        #","vpn":{"interface":"tun0","underlyingInterfaceType":null,"bypassedByIPv4":false,"bypassedByIPv6":false}}"#))
  }

  @Test("a family going around the tunnel is in JSON, both writers agree, and it decodes back")
  func bypassed() throws {
    var leaking = Self.throughTunnel
    leaking.supportsIPv6 = true
    leaking.vpn?.isBypassedByIPv6 = true
    let json = leaking.jsonRepresentation
    #expect(json.hasSuffix(#""bypassedByIPv4":false,"bypassedByIPv6":true}}"#))
    let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(leaking)) as? NSDictionary)
    #expect(encoded == (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary))
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(json.utf8)) == leaking)
    #expect(leaking.vpn?.isBypassed == true)
    #expect(leaking.description.hasSuffix("VPN tun0 over wiredEthernet, bypassed by IPv6"))
    #expect(leaking != Self.throughTunnel, "which families bypass is part of equality")
  }

  @Test("JSON without the bypassedBy members (written before they existed) decodes as bypassed by no family")
  func withoutBypassMembers() throws {
    let old = Self.documented.replacingOccurrences(of: #","bypassedByIPv4":false,"bypassedByIPv6":false"#, with: "")
    #expect(old != Self.documented)
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(old.utf8)) == Self.throughTunnel)
  }

  @Test("decoding finds the VPN's interface among the path's; a name not among them keeps index 0, type other")
  func decoding() throws {
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(Self.documented.utf8)) == Self.throughTunnel)
    let stranger = Self.documented.replacingOccurrences(of: #""interface":"tun0""#, with: #""interface":"wg9""#)
    let decoded = try JSONDecoder().decode(NetworkPath.self, from: Data(stranger.utf8))
    #expect(decoded.vpn?.interface == NetworkInterface(name: "wg9", index: 0, type: .other))
  }

  @Test("JSON without the vpn member (written before it existed) decodes as no VPN")
  func withoutMember() throws {
    let old = NetworkPathTests.documented.replacingOccurrences(of: #","vpn":null"#, with: "")
    #expect(old != NetworkPathTests.documented)
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(old.utf8)) == NetworkPathTests.ethernet)
  }

  @Test("text forms: the description, and the VPN's own")
  func text() {
    #expect(Self.throughTunnel.description.hasSuffix("[IPv4 DNS] VPN tun0 over wiredEthernet"))
    #expect(NetworkPath.VPN(interface: Self.tun0, underlyingInterfaceType: nil).description == "tun0")
    #expect(!NetworkPathTests.ethernet.description.contains("VPN"))
  }

  @Test("a filter that removes the VPN's interface removes the VPN; one that keeps it keeps it")
  func filtered() {
    // An IPv6-only tunnel comes after IPv4's interface: a filter that keeps both keeps the VPN.
    let ipv6Tunnel = NetworkPath(
      status: .satisfied, availableInterfaces: [Self.eth0, Self.tun0], supportsIPv4: true, supportsIPv6: true,
      supportsDNS: true,
      vpn: NetworkPath.VPN(
        interface: Self.tun0, underlyingInterfaceType: .wiredEthernet, isBypassedByIPv4: true, isBypassedByIPv6: false
      ))
    #expect(InterfaceFilter(prohibitedInterfaceTypes: [.cellular]).apply(to: ipv6Tunnel) == ipv6Tunnel)
    #expect(InterfaceFilter(prohibitedInterfaceTypes: [.other]).apply(to: ipv6Tunnel).vpn == nil)
    let noTunnels = InterfaceFilter(prohibitedInterfaceTypes: [.other]).apply(to: Self.throughTunnel)
    #expect(noTunnels.availableInterfaces == [Self.eth0])
    #expect(noTunnels.vpn == nil)
    #expect(InterfaceFilter(prohibitedInterfaceTypes: [.cellular]).apply(to: Self.throughTunnel) == Self.throughTunnel)
    #expect(InterfaceFilter(requiredInterfaceType: .wifi).apply(to: Self.throughTunnel).vpn == nil)
  }

  @Test("the VPN is part of equality")
  func equality() {
    var other = Self.throughTunnel
    other.vpn = nil
    #expect(other != Self.throughTunnel)
  }
}
