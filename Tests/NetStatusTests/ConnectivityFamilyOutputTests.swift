import Testing

@testable import NetStatusCLI
@testable import NetStatusCore

/// Internet per address family in the CLI: `wait --internet -4` / `-6`, the JSON members and the human text.
@Suite("netstatus internet per address family")
struct ConnectivityFamilyOutputTests {
  let path = NetworkPath(
    status: .satisfied, availableInterfaces: [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
    supportsIPv4: true, supportsIPv6: true, supportsDNS: true, gateways: ["192.0.2.1"])
  /// IPv6 broken upstream: full overall, through IPv4.
  let brokenIPv6 = FamilyConnectivity(ipv4: .full, ipv6: .limited)

  @Test func internetWithoutAFamilyIsTheOverallStateAndWithOneIsThatFamilys() {
    #expect(WaitCondition().isInternetMet(.full, families: brokenIPv6))
    #expect(!WaitCondition().isInternetMet(.limited, families: FamilyConnectivity(ipv4: .limited, ipv6: .limited)))
    #expect(WaitCondition(requireIPv4: true).isInternetMet(.full, families: brokenIPv6))
    #expect(!WaitCondition(requireIPv6: true).isInternetMet(.full, families: brokenIPv6), "IPv6 is limited")
    #expect(!WaitCondition(requireIPv4: true, requireIPv6: true).isInternetMet(.full, families: brokenIPv6))
    #expect(
      WaitCondition(requireIPv4: true, requireIPv6: true)
        .isInternetMet(.full, families: FamilyConnectivity(ipv4: .full, ipv6: .full)))
    #expect(!WaitCondition(requireIPv6: true).isInternetMet(.full, families: FamilyConnectivity(ipv4: .full)))
  }

  @Test func theGoalSaysWhichFamily() {
    #expect(WaitCondition().internetDescription == "full internet access")
    #expect(WaitCondition(requireIPv6: true).internetDescription == "full internet access over IPv6")
    #expect(
      WaitCondition(requireIPv4: true, requireIPv6: true).internetDescription
        == "full internet access over IPv4 and IPv6")
  }

  @Test func theJSONGainsEachFamilysStateByNameOrNull() {
    let report = ConnectivityReport(state: .full, families: brokenIPv6)
    #expect(
      PathFormatter.json(path, connectivity: report)
        == String(path.jsonRepresentation.dropLast())
        + #","connectivity":{"state":"full","ipv4":"full","ipv6":"limited"}}"#)
    let ipv4Only = ConnectivityReport(
      state: .portal(redirect: "http://p.test/"),
      families: FamilyConnectivity(ipv4: .portal(redirect: "http://p.test/")))
    #expect(
      PathFormatter.json(path, connectivity: ipv4Only).hasSuffix(
        #","connectivity":{"state":"portal","redirect":"http://p.test/","ipv4":"portal","ipv6":null}}"#))
    // The library's own form of a state is unchanged; decoding the CLI's ignores the families.
    #expect(ConnectivityState.full.jsonRepresentation == #"{"state":"full"}"#)
  }

  @Test func theHumanTextShowsBothFamilies() {
    let plain = PathFormatter(style: .plain)
    #expect(
      plain.internet(ConnectivityReport(state: .full, families: brokenIPv6)) == "full; IPv4 full, IPv6 limited")
    #expect(
      plain.internet(ConnectivityReport(state: .full, families: FamilyConnectivity(ipv4: .full)))
        == "full; IPv4 full, IPv6 unsupported")
    #expect(plain.internet(ConnectivityReport(state: .noPath)) == "none", "no family without a path")
  }
}
