import Foundation
import Testing

@testable import NetStatusCore

@Suite("NetworkPath model and JSON")
struct NetworkPathTests {
  static let documented = """
    {"status":"satisfied","unsatisfiedReason":null,"isExpensive":false,"isConstrained":false,\
    "isUltraConstrained":false,"supportsIPv4":true,"supportsIPv6":false,"supportsDNS":true,\
    "interfaceType":"wiredEthernet","linkQuality":"unknown",\
    "availableInterfaces":[{"name":"eth0","index":2,"type":"wiredEthernet"}],"gateways":["192.0.2.1"],"vpn":null}
    """

  static let ethernet = NetworkPath(
    status: .satisfied,
    availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
    supportsIPv4: true,
    supportsDNS: true,
    gateways: ["192.0.2.1"]
  )

  @Test func writesExactlyTheDocumentedForm() throws {
    #expect(Self.ethernet.jsonRepresentation == Self.documented)
  }

  @Test("link quality and ultra-constrained are written, read back, and default when absent (older JSON)")
  func linkQualityJSON() throws {
    for quality in NetworkPath.LinkQuality.allCases {
      var path = Self.ethernet
      path.linkQuality = quality
      path.isUltraConstrained = quality == .minimal
      let json = path.jsonRepresentation
      #expect(json.contains(#""linkQuality":"\#(quality.rawValue)""#))
      #expect(json.contains(#""isUltraConstrained":\#(quality == .minimal)"#))
      #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(json.utf8)) == path)
      #expect(try JSONDecoder().decode(NetworkPath.self, from: JSONEncoder().encode(path)) == path)
    }
    let older = Self.documented.replacingOccurrences(of: #""isUltraConstrained":false,"#, with: "")
      .replacingOccurrences(of: #""linkQuality":"unknown","#, with: "")
    #expect(!older.contains("linkQuality") && !older.contains("isUltraConstrained"))
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(older.utf8)) == Self.ethernet)
  }

  @Test func stableFormRoundTripsAndEscapesNames() throws {
    var path = Self.ethernet
    path.availableInterfaces[0].name = "we\"ird\\\n\u{1}"
    let decoded = try JSONDecoder().decode(NetworkPath.self, from: Data(path.jsonRepresentation.utf8))
    #expect(decoded == path)
    #expect(
      try JSONDecoder().decode(NetworkPath.self, from: Data(NetworkPath.offline.jsonRepresentation.utf8)) == .offline)
  }

  @Test func decodesTheDocumentedForm() throws {
    let path = try JSONDecoder().decode(NetworkPath.self, from: Data(Self.documented.utf8))
    #expect(path == Self.ethernet)
  }

  @Test(arguments: [
    NetworkPathTests.ethernet,
    NetworkPath.offline,
    NetworkPath(status: .requiresConnection),
    NetworkPath(
      status: .satisfied,
      availableInterfaces: [
        NetworkInterface(name: "wg0", index: 9, type: .other),
        NetworkInterface(name: "wlan0", index: 3, type: .wifi),
      ],
      isExpensive: true, isConstrained: true, supportsIPv4: true, supportsIPv6: true, supportsDNS: true,
      gateways: ["192.0.2.1", "2001:db8::1"],
      vpn: NetworkPath.VPN(
        interface: NetworkInterface(name: "wg0", index: 9, type: .other), underlyingInterfaceType: .wifi)),
    NetworkPath(
      status: .satisfied, availableInterfaces: [NetworkInterface(name: "tun0", index: 5, type: .other)],
      vpn: NetworkPath.VPN(
        interface: NetworkInterface(name: "tun0", index: 5, type: .other), underlyingInterfaceType: nil)),
  ])
  func roundTripsWithExactlyTheKeySet(path: NetworkPath) throws {
    let data = try JSONEncoder().encode(path)
    #expect(try JSONDecoder().decode(NetworkPath.self, from: data) == path)
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(path.jsonRepresentation.utf8)) == path)
    let stable = try #require(
      try JSONSerialization.jsonObject(with: Data(path.jsonRepresentation.utf8)) as? NSDictionary)
    #expect(stable == (try JSONSerialization.jsonObject(with: data) as? NSDictionary))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "status", "unsatisfiedReason", "isExpensive", "isConstrained", "isUltraConstrained", "supportsIPv4",
        "supportsIPv6", "supportsDNS", "interfaceType", "linkQuality", "availableInterfaces", "gateways", "vpn",
      ])
    #expect(Set(object.keys) == Set(NetworkPath.CodingKeys.allCases.map(\.rawValue)))
    let interfaceType = object["interfaceType"]
    if let type = path.interfaceType {
      #expect(interfaceType as? String == type.rawValue)
    } else {
      #expect(interfaceType is NSNull)
    }
    for interface in try #require(object["availableInterfaces"] as? [[String: Any]]) {
      #expect(Set(interface.keys) == ["name", "index", "type"])
    }
    if let vpn = path.vpn {
      let member = try #require(object["vpn"] as? [String: Any])
      #expect(Set(member.keys) == Set(NetworkPath.VPN.CodingKeys.allCases.map(\.rawValue)))
      #expect(member["interface"] as? String == vpn.interface.name)
    } else {
      #expect(object["vpn"] is NSNull)
    }
  }

  @Test func unsatisfiedPathEncodesItsReasonAndNullInterfaceType() throws {
    let text = NetworkPath.offline.jsonRepresentation
    #expect(text.contains(#""unsatisfiedReason":"notAvailable""#))
    #expect(text.contains(#""interfaceType":null"#))
  }

  @Test func rejectsAnUnknownStatus() {
    let bad = Self.documented.replacingOccurrences(of: "\"satisfied\"", with: "\"maybe\"")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(NetworkPath.self, from: Data(bad.utf8)) }
  }

  @Test func requiresConnectionIsNotConnected() {
    #expect(!NetworkPath(status: .requiresConnection).isConnected)
    #expect(!NetworkPath.offline.isConnected)
    #expect(Self.ethernet.isConnected)
  }

  @Test func interfaceTypeIsThePreferredInterfacesOwnType() {
    let vpnOverWifi = NetworkPath(
      status: .satisfied,
      availableInterfaces: [
        NetworkInterface(name: "wlan0", index: 3, type: .wifi),
        NetworkInterface(name: "wg0", index: 9, type: .other),
        NetworkInterface(name: "wlan1", index: 4, type: .wifi),
      ])
    #expect(vpnOverWifi.interfaceType == .wifi)
    #expect(vpnOverWifi.availableInterfaceTypes == [.wifi, .other])
    #expect(vpnOverWifi.usesInterfaceType(.other))
    #expect(!vpnOverWifi.usesInterfaceType(.cellular))
    #expect(NetworkPath.offline.interfaceType == nil)
  }

  @Test func satisfiedPathDropsAnUnsatisfiedReason() {
    #expect(NetworkPath(status: .satisfied, unsatisfiedReason: .wifiDenied).unsatisfiedReason == nil)
  }

  @Test func interfaceTypeIsCaseIterableInTheDocumentedOrder() {
    #expect(InterfaceType.allCases == [.other, .wifi, .cellular, .wiredEthernet, .loopback])
  }

  @Test func descriptionSummarisesThePath() {
    #expect(Self.ethernet.description == "satisfied via eth0 (wiredEthernet) [IPv4 DNS]")
    #expect(NetworkPath.offline.description == "unsatisfied (notAvailable)")
  }
}

@Suite("InterfaceFilter")
struct InterfaceFilterTests {
  let wifiThenCellular = NetworkPath(
    status: .satisfied,
    availableInterfaces: [
      NetworkInterface(name: "wlan0", index: 3, type: .wifi),
      NetworkInterface(name: "wwan0", index: 4, type: .cellular),
    ],
    supportsIPv4: true, supportsDNS: true, gateways: ["192.0.2.1"])

  @Test func noFilterChangesNothing() {
    #expect(InterfaceFilter.unrestricted.apply(to: wifiThenCellular) == wifiThenCellular)
  }

  @Test func requiredTypeThatIsAbsentMakesThePathUnsatisfied() {
    let path = InterfaceFilter(requiredInterfaceType: .wiredEthernet).apply(to: wifiThenCellular)
    #expect(path.status == .unsatisfied)
    #expect(path.unsatisfiedReason == .notAvailable)
    #expect(path.availableInterfaces.isEmpty)
    #expect(path.gateways.isEmpty)
    #expect(!path.supportsIPv4)
  }

  @Test func requiredTypeKeepsOnlyThatType() {
    let path = InterfaceFilter(requiredInterfaceType: .cellular).apply(to: wifiThenCellular)
    #expect(path.status == .satisfied)
    #expect(path.availableInterfaces.map(\.name) == ["wwan0"])
    #expect(path.isExpensive)
  }

  @Test func prohibitingThePreferredTypeFallsBackToTheNext() {
    let path = InterfaceFilter(prohibitedInterfaceTypes: [.wifi]).apply(to: wifiThenCellular)
    #expect(path.interfaceType == .cellular)
    #expect(path.isExpensive)
  }

  @Test func prohibitingEveryTypeMakesThePathUnsatisfied() {
    let path = InterfaceFilter(prohibitedInterfaceTypes: [.wifi, .cellular]).apply(to: wifiThenCellular)
    #expect(path.status == .unsatisfied)
  }

  @Test func applyingTwiceChangesNothingMore() {
    let filter = InterfaceFilter(prohibitedInterfaceTypes: [.wifi])
    let once = filter.apply(to: wifiThenCellular)
    #expect(filter.apply(to: once) == once)
  }

  @Test func allowsFollowsRequiredAndProhibited() {
    let filter = InterfaceFilter(requiredInterfaceType: .wifi, prohibitedInterfaceTypes: [.cellular])
    #expect(filter.allows(.wifi))
    #expect(!filter.allows(.cellular))
    #expect(!filter.allows(.wiredEthernet))
  }
}
