import Foundation
import Testing

@testable import NetStatusCore

/// One JSON schema: the byte writer (`jsonRepresentation`, the `watch --json` lines) and `Codable` agree on many
/// paths, and optional members follow the documented keys without touching them.
@Suite("NetworkPath JSON")
struct NetworkPathJSONTests {
  /// Paths over every status, reason and flag, with no, one or two interfaces (names that need escaping
  /// included) and gateways.
  static let paths: [NetworkPath] = {
    let interfaceLists: [[NetworkInterface]] = [
      [],
      [NetworkInterface(name: "eth0", index: 2, type: .wiredEthernet)],
      [
        NetworkInterface(name: "wlan\"0\\\u{1}", index: 3, type: .wifi),
        NetworkInterface(name: "wwan0 café", index: 40_000, type: .cellular),
      ],
      [NetworkInterface(name: "lo", index: 1, type: .loopback), NetworkInterface(name: "wg0", index: 9, type: .other)],
    ]
    let gatewayLists: [[String]] = [[], ["192.0.2.1"], ["192.0.2.1", "2001:db8::1", "fe80::1%eth0"]]
    var paths: [NetworkPath] = []
    for status in NetworkPath.Status.allCases {
      for reason in [nil] + NetworkPath.UnsatisfiedReason.allCases.map(Optional.some) {
        for flags in 0..<32 where flags % 3 == 0 || reason == nil {
          for (index, interfaces) in interfaceLists.enumerated() {
            let gateways = gatewayLists[(flags + index) % gatewayLists.count]
            paths.append(
              NetworkPath(
                status: status, unsatisfiedReason: reason, availableInterfaces: interfaces,
                isExpensive: flags & 1 != 0, isConstrained: flags & 2 != 0, supportsIPv4: flags & 4 != 0,
                supportsIPv6: flags & 8 != 0, supportsDNS: flags & 16 != 0, gateways: gateways))
          }
        }
      }
    }
    return paths
  }()

  static func object(_ text: some DataProtocol) throws -> NSDictionary {
    try #require(try JSONSerialization.jsonObject(with: Data(text)) as? NSDictionary)
  }

  @Test func codableAndTheWriterAgreeKeyForKeyOnManyPaths() throws {
    #expect(Self.paths.count > 300)
    let encoder = JSONEncoder()
    for path in Self.paths {
      let written = path.jsonRepresentation
      let encoded = try encoder.encode(path)
      #expect(try Self.object(Data(written.utf8)) == (try Self.object(encoded)), "\(written)")
      #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(written.utf8)) == path)
      // The writer's key order is CodingKeys' order: the documented order.
      var searched = written.startIndex
      for key in NetworkPath.CodingKeys.allCases {
        let found = try #require(written.range(of: "\"\(key.stringValue)\":", range: searched..<written.endIndex))
        searched = found.upperBound
      }
    }
  }

  @Test func extraMembersFollowTheDocumentedKeys() throws {
    let states: [ConnectivityState] = [.unknown, .noPath, .limited, .portal(redirect: nil), .full]
    for (index, path) in Self.paths.enumerated() {
      let documented = path.jsonRepresentation
      let open = String(documented.dropLast())
      #expect(path.jsonRepresentation(with: NetworkPathJSONExtra()) == documented, "no members: the same bytes")

      let state =
        index.isMultiple(of: 7) ? .portal(redirect: "http://p.test/\"login\"?a=1&b=\u{1B}") : states[index % 5]
      let withState = path.jsonRepresentation(with: NetworkPathJSONExtra(connectivity: state))
      #expect(withState == open + #","connectivity":"# + state.jsonRepresentation + "}")

      let name = index.isMultiple(of: 2) ? "nstest-\(index)" : "odd \"name\"\n\(index)"
      var line: [UInt8] = []
      path.withJSONLine(extra: NetworkPathJSONExtra(netns: name)) { line = Array($0) }
      #expect(line == Array((open + #","netns":"# + NetworkPath.jsonString(name) + "}\n").utf8))

      let both = NetworkPathJSONExtra(connectivity: state, netns: name)
      let object = try Self.object(Data(path.jsonRepresentation(with: both).utf8))
      #expect(object["netns"] as? String == name)
      #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(path.jsonRepresentation(with: both).utf8)) == path)
      let decodedState = try JSONDecoder().decode(
        ConnectivityState.self,
        from: JSONSerialization.data(withJSONObject: try #require(object["connectivity"])))
      #expect(decodedState == state)
    }
  }

  @Test func aLongLineWithExtraMembersOutgrowsTheStackMemory() {
    var path = NetworkPathTests.ethernet
    for index in 0..<40 {
      path.availableInterfaces.append(NetworkInterface(name: "veth\(index)\u{1}", index: index, type: .other))
    }
    var line: [UInt8] = []
    path.withJSONLine(extra: NetworkPathJSONExtra(netns: "nstest-long")) { line = Array($0) }
    #expect(line.count > 1024)
    #expect(line == Array((path.jsonRepresentation.dropLast() + #","netns":"nstest-long"}"# + "\n").utf8))
  }
}
