import NetStatusNetlinkFuzzing
import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// Route lookups without a kernel: the request bytes, the decoding of answers, and which notifications
/// trigger new lookups.
@Suite("route lookups")
struct RouteLookupTests {
  typealias B = NetlinkMessageBuilder

  @Test("a primary IPv4 lookup is nlmsghdr + rtmsg + RTA_DST, as `ip route get 8.8.8.8` sends it")
  func ipv4RequestBytes() {
    var bytes: [UInt8] = []
    RouteLookupRequest.primary(ipv4: true).append(to: &bytes, sequence: 7)
    var expected = NetlinkMessageBuilder()
    expected.append(UInt32(36))  // 16 + 12 + 8
    expected.append(RTNL.RTM_GETROUTE)
    expected.append(RTNL.NLM_F_REQUEST)
    expected.append(UInt32(7))
    expected.append(UInt32(0))
    expected.bytes += [RTNL.AF_INET, 32, 0, 0, 0, 0, 0, 0]
    expected.append(UInt32(0))
    expected.attribute(RTNL.RTA_DST, [8, 8, 8, 8])
    #expect(bytes == expected.bytes)
  }

  @Test("a FIB-match IPv6 lookup through an interface carries RTM_F_FIB_MATCH and RTA_OIF")
  func ipv6FibMatchRequestBytes() {
    var bytes: [UInt8] = []
    RouteLookupRequest(ipv4: false, interfaceIndex: 3, fibMatch: true).append(to: &bytes, sequence: 9)
    var expected = NetlinkMessageBuilder()
    expected.append(UInt32(16 + 12 + 20 + 8))
    expected.append(RTNL.RTM_GETROUTE)
    expected.append(RTNL.NLM_F_REQUEST)
    expected.append(UInt32(9))
    expected.append(UInt32(0))
    expected.bytes += [RTNL.AF_INET6, 128, 0, 0, 0, 0, 0, 0]
    expected.append(RTNL.RTM_F_FIB_MATCH)
    expected.attribute(RTNL.RTA_DST, RouteLookupRequest.ipv6Destination.bytes)
    expected.attribute(RTNL.RTA_OIF, u32: 3)
    #expect(bytes == expected.bytes)
    #expect(RouteLookupRequest.ipv6Destination.description == "2001:4860:4860::8888")
    #expect(RouteLookupRequest.ipv4Destination.description == "8.8.8.8")
  }

  @Test("several requests in one buffer decode back as separate messages with their sequence numbers")
  func batch() throws {
    var bytes: [UInt8] = []
    RouteLookupRequest.primary(ipv4: true).append(to: &bytes, sequence: 1)
    RouteLookupRequest(ipv4: true, interfaceIndex: 2, fibMatch: false).append(to: &bytes, sequence: 2)
    RouteLookupRequest.primary(ipv4: false).append(to: &bytes, sequence: 3)
    let messages = try NetlinkMessageDecoder.decode(bytes)
    #expect(messages.map(\.sequence) == [1, 2, 3])
    #expect(messages.allSatisfy { $0.type == RTNL.RTM_GETROUTE && $0.event == .ignored(type: RTNL.RTM_GETROUTE) })
  }

  @Test("an answer decodes with its source (RTA_PREFSRC) and nexthop object (RTA_NH_ID)")
  func answer() throws {
    let datagram = B.route(
      destination: "8.8.8.8", destinationLength: 32, oif: 2, gateway: "192.0.2.1", preferredSource: "192.0.2.10",
      nexthopID: 5, sequence: 4, portID: 99)
    let message = try #require(try NetlinkMessageDecoder.decode(datagram).first)
    #expect(message.sequence == 4 && message.portID == 99)
    guard case .newRoute(let route) = message.event else {
      Issue.record("expected a route, got \(message.event)")
      return
    }
    #expect(route.interfaceIndex == 2)
    #expect(route.gateway?.description == "192.0.2.1")
    #expect(route.preferredSource?.description == "192.0.2.10")
    #expect(route.nexthopID == 5)
    // A source of the wrong size is malformed, like any address attribute.
    var bad = NetlinkMessageBuilder()
    bad.bytes += [RTNL.AF_INET, 32, 0, 0, 254, 0, 0, 1]
    bad.append(UInt32(0))
    bad.attribute(RTNL.RTA_PREFSRC, [1, 2, 3])
    #expect(throws: NetlinkDecodeError.self) {
      try NetlinkMessageDecoder.decode(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: bad.bytes))
    }
  }

  /// ``NetlinkMessageDecoder/lookupReply(in:portID:)`` of `datagram` for port 99.
  static func reply(_ datagram: [UInt8]) throws(NetlinkDecodeError) -> NetlinkMessageDecoder.LookupReply? {
    let result = datagram.withUnsafeBytes { bytes in
      Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.lookupReply(in: bytes, portID: 99) }
    }
    return try result.get()
  }

  @Test("a lookup reply decodes to what the evaluator reads of the route, with its sequence number")
  func lookupReplyAnswer() throws {
    let datagram = B.route(
      destination: "8.8.8.8", destinationLength: 32, table: 1000, routeType: RTNL.RTN_UNICAST, priority: 600, oif: 2,
      gateway: "192.0.2.1", preferredSource: "192.0.2.10", nexthopID: 5, sequence: 4, portID: 99)
    let reply = try #require(try Self.reply(datagram))
    #expect(reply.sequence == 4)
    let answer = RouteLookupAnswer(
      type: RTNL.RTN_UNICAST, table: 1000, priority: 600, interfaceIndex: 2,
      gateway: IPAddressBytes(text: "192.0.2.1"), preferredSource: IPAddressBytes(text: "192.0.2.10"))
    #expect(reply.result == .answered(answer))
    // The same as the whole route the full decoder gives, reduced.
    guard case .newRoute(let route) = try #require(try NetlinkMessageDecoder.decode(datagram).first).event else {
      Issue.record("expected a route")
      return
    }
    #expect(reply.result == .route(route))
    // A multipath FIB entry: checked, then left to the full decoder, which gives its legs (RouteLookupAnswers keeps
    // them beside the answer).
    let multipath = B.route(
      priority: 100, multipath: [(oif: 2, gateway: "192.0.2.1", flags: 0), (oif: 3, gateway: nil, flags: 0)],
      sequence: 5, portID: 99)
    #expect(try Self.reply(multipath) == nil)
  }

  @Test("a lookup reply: failures, acknowledgements, other families, ports and datagrams")
  func lookupReplyOthers() throws {
    let code = withUnsafeBytes(of: Int32(-101)) { Array($0) }  // -ENETUNREACH
    let failure = B.message(
      type: RTNL.NLMSG_ERROR, sequence: 7, portID: 99, body: code + [UInt8](repeating: 0, count: 16))
    #expect(try Self.reply(failure) == .init(sequence: 7, result: .failed(errno: 101)))
    let acknowledgement = B.message(type: RTNL.NLMSG_ERROR, sequence: 8, portID: 99, body: [0, 0, 0, 0])
    #expect(try Self.reply(acknowledgement) == .init(sequence: 8, result: nil))
    let bridge = B.route(family: RTNL.AF_BRIDGE, oif: 2, sequence: 9, portID: 99)
    #expect(try Self.reply(bridge) == .init(sequence: 9, result: nil))
    // Not a reply for this port, not one message, not a route or error: left to the full decoder.
    #expect(try Self.reply(B.route(oif: 2, sequence: 4, portID: 98)) == nil)
    #expect(try Self.reply(B.route(oif: 2, portID: 99) + B.route(oif: 3, portID: 99)) == nil)
    #expect(try Self.reply(B.link(index: 2, name: "eth0")) == nil)
    #expect(try Self.reply(B.message(type: RTNL.NLMSG_DONE, portID: 99, body: [0, 0, 0, 0])) == nil)
    #expect(try Self.reply([1, 2, 3]) == nil)
  }

  @Test("a malformed lookup reply throws what the full decoder throws")
  func lookupReplyMalformed() throws {
    var bad = NetlinkMessageBuilder()
    bad.bytes += [RTNL.AF_INET, 32, 0, 0, 254, 0, 0, 1]
    bad.append(UInt32(0))
    bad.attribute(RTNL.RTA_PREFSRC, [1, 2, 3])
    var badHops = NetlinkMessageBuilder()
    badHops.bytes += [RTNL.AF_INET, 0, 0, 0, 254, 0, 0, 1]
    badHops.append(UInt32(0))
    badHops.attribute(RTNL.RTA_MULTIPATH, [4, 0, 0, 0])  // rtnh_len 4: shorter than struct rtnexthop
    let samples = [
      B.message(type: RTNL.RTM_NEWROUTE, portID: 99, body: bad.bytes),
      B.message(type: RTNL.RTM_NEWROUTE, portID: 99, body: badHops.bytes),
      B.message(type: RTNL.RTM_NEWROUTE, portID: 99, body: [RTNL.AF_INET, 0, 0]),
      B.message(type: RTNL.NLMSG_ERROR, portID: 99, body: [1, 2]),
    ]
    for sample in samples {
      let full = #expect(throws: NetlinkDecodeError.self) { try NetlinkMessageDecoder.decode(sample) }
      let lean = #expect(throws: NetlinkDecodeError.self) { try Self.reply(sample) }
      #expect(full != nil && full == lean)
    }
  }

  @Test("every truncation and single-byte corruption of lookup replies: the lean decoder agrees with the full one")
  func lookupReplyCorruption() {
    let samples = [
      B.route(
        destination: "8.8.8.8", destinationLength: 32, oif: 2, gateway: "192.0.2.1", preferredSource: "192.0.2.10",
        nexthopID: 5, sequence: 4, portID: 99),
      B.route(
        family: RTNL.AF_INET6, priority: 1024, multipath: [(oif: 2, gateway: "fe80::1", flags: 0), (3, nil, 1)],
        sequence: 5, portID: 99),
      B.message(type: RTNL.NLMSG_ERROR, sequence: 6, portID: 99, body: [0x9b, 0xff, 0xff, 0xff]),
    ]
    var checked = 0
    for sample in samples {
      var variants = (0...sample.count).map { Array(sample.prefix($0)) }
      for index in sample.indices {
        for value: UInt8 in [0, 1, 3, 4, 0x7f, 0xff] {
          var corrupted = sample
          corrupted[index] = value
          variants.append(corrupted)
        }
      }
      for variant in variants {
        // Traps when the two decoders disagree.
        variant.withUnsafeBytes { NetlinkFuzzing.checkLookupReply($0) }
        if (try? Self.reply(variant)) != nil { checked += 1 }
      }
    }
    #expect(checked > 100, "the lean decoder decoded only \(checked) variants")
  }

  @Test("a route message alone in its datagram decodes to its header and fields; other datagrams are left")
  func routeMessage() throws {
    func decode(_ datagram: [UInt8]) throws(NetlinkDecodeError) -> NetlinkMessageDecoder.RouteMessage? {
      try datagram.withUnsafeBytes { bytes in
        Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.routeMessage(in: bytes) }
      }.get()
    }
    let deleted = try #require(
      try decode(B.route(RTNL.RTM_DELROUTE, destination: "8.8.8.0", destinationLength: 24, oif: 2, portID: 7)))
    #expect(deleted.type == RTNL.RTM_DELROUTE && deleted.portID == 7)
    #expect(deleted.route?.destination == IPAddressBytes(text: "8.8.8.0") && deleted.route?.destinationLength == 24)
    #expect(deleted.route?.answer.interfaceIndex == 2)
    #expect(deleted.route?.contains(RouteLookupRequest.ipv4Destination) == true)
    #expect(deleted.route?.contains(IPAddressBytes(text: "8.8.9.8")!) == false)
    #expect(try decode(B.route(family: RTNL.AF_BRIDGE, oif: 2))?.route == nil)
    #expect(try decode(B.link(index: 2, name: "eth0")) == nil)
    #expect(try decode(B.route(oif: 2) + B.route(oif: 3)) == nil)
  }

  @Test("every truncation and single-byte corruption of route notifications: the lean decoder agrees with the full one")
  func routeMessageCorruption() {
    let samples = [
      B.route(destination: "8.8.8.0", destinationLength: 24, oif: 2, gateway: "192.0.2.1"),
      B.route(RTNL.RTM_DELROUTE, family: RTNL.AF_INET6, multipath: [(oif: 2, gateway: "fe80::1", flags: 0)]),
    ]
    var decoded = 0
    for sample in samples {
      var variants = (0...sample.count).map { Array(sample.prefix($0)) }
      for index in sample.indices {
        for value: UInt8 in [0, 1, 3, 4, 0x7f, 0xff] {
          var corrupted = sample
          corrupted[index] = value
          variants.append(corrupted)
        }
      }
      for variant in variants {
        // Traps when the two decoders disagree.
        variant.withUnsafeBytes { NetlinkFuzzing.checkRouteMessage($0) }
        if variant.withUnsafeBytes({ (try? NetlinkMessageDecoder.routeMessage(in: $0)) != nil }) { decoded += 1 }
      }
    }
    #expect(decoded > 100, "the lean decoder decoded only \(decoded) variants")
  }

  @Test("rule and nexthop messages decode as routing-policy changes, whatever their body")
  func policyMessages() throws {
    for type in [RTNL.RTM_NEWRULE, RTNL.RTM_DELRULE, RTNL.RTM_NEWNEXTHOP, RTNL.RTM_DELNEXTHOP] {
      let message = try #require(try NetlinkMessageDecoder.decode(B.message(type: type, body: [1, 2, 3])).first)
      #expect(message.event == .routingPolicyChanged(type: type))
    }
  }

  @Test("only routes containing a lookup destination trigger new lookups; links, addresses, rules always do")
  func triggers() throws {
    func triggers(_ datagram: [UInt8]) throws -> Bool {
      let full = try NetlinkMessageDecoder.decode(datagram).contains(where: RouteLookupRequest.mayChangeAnswers)
      // A route notification alone in its datagram is read without a NetlinkMessage: it must matter alike.
      let lean = datagram.withUnsafeBytes { bytes in
        Result { () throws(NetlinkDecodeError) in try NetlinkMessageDecoder.routeMessage(in: bytes) }
      }
      if case .success(let message?) = lean { #expect(RouteLookupRequest.mayChangeAnswers(message.route) == full) }
      return full
    }
    #expect(try triggers(B.route(oif: 2, gateway: "192.0.2.1")))  // a default route
    #expect(try triggers(B.route(destination: "0.0.0.0", destinationLength: 1, oif: 2)))
    #expect(try !triggers(B.route(destination: "128.0.0.0", destinationLength: 1, oif: 2)))
    #expect(try triggers(B.route(destination: "8.8.8.0", destinationLength: 24, oif: 2)))
    #expect(try !triggers(B.route(destination: "8.8.9.0", destinationLength: 24, oif: 2)))
    #expect(try !triggers(B.route(destination: "10.0.0.0", destinationLength: 8, oif: 2)))
    #expect(try triggers(B.route(RTNL.RTM_DELROUTE, family: RTNL.AF_INET6, oif: 2)))
    #expect(try triggers(B.route(family: RTNL.AF_INET6, destination: "2000::", destinationLength: 3, oif: 2)))
    #expect(try triggers(B.route(family: RTNL.AF_INET6, destination: "::", destinationLength: 1, oif: 2)))
    #expect(try !triggers(B.route(family: RTNL.AF_INET6, destination: "8000::", destinationLength: 1, oif: 2)))
    #expect(try !triggers(B.route(family: RTNL.AF_INET6, destination: "2001:db8::", destinationLength: 32, oif: 2)))
    #expect(try triggers(B.link(index: 2, name: "eth0")))
    #expect(try triggers(B.address(index: 2, address: "192.0.2.10", prefixLength: 24)))
    #expect(try triggers(B.message(type: RTNL.RTM_NEWRULE, body: [])))
    #expect(try triggers(B.message(type: RTNL.RTM_DELNEXTHOP, body: [])))
    #expect(try !triggers(B.done()))
  }

  @Test("prefixes: whole and partial bytes, families, bounds")
  func prefixes() {
    let a = IPAddressBytes(text: "192.0.2.0")!
    #expect(a.sharesPrefix(with: IPAddressBytes(text: "192.0.2.200")!, length: 24))
    #expect(!a.sharesPrefix(with: IPAddressBytes(text: "192.0.3.1")!, length: 24))
    #expect(a.sharesPrefix(with: IPAddressBytes(text: "192.0.3.1")!, length: 23))
    #expect(a.sharesPrefix(with: IPAddressBytes(text: "255.255.255.255")!, length: 0))
    #expect(!a.sharesPrefix(with: IPAddressBytes(text: "::")!, length: 0))
    #expect(!a.sharesPrefix(with: a, length: 33))
    #expect(a.sharesPrefix(with: a, length: 32))
  }
}
