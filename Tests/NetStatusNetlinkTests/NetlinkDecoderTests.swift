import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

@Suite("rtnetlink message decoder")
struct NetlinkDecoderTests {
  // MARK: Captured bytes

  @Test("captured link dump: loopback with ARPHRD 772, veth with its kind")
  func capturedLinks() throws {
    let messages = try NetlinkMessageDecoder.decode(CapturedNetlink.links)
    let links = messages.compactMap { message -> NetlinkLink? in
      if case .newLink(let link) = message.event { return link }
      return nil
    }
    #expect(messages.allSatisfy { $0.flags & RTNL.NLM_F_MULTI != 0 })
    let loopback = try #require(links.first { $0.name == "lo" })
    #expect(loopback.index == 1)
    #expect(loopback.hardwareType == RTNL.ARPHRD_LOOPBACK)
    #expect(loopback.kind == nil)
    #expect(!loopback.isUsable)  // never brought up in that namespace
    let veth = try #require(links.first { $0.name.hasPrefix("veth") })
    #expect(veth.kind == "veth")
    #expect(veth.hardwareType == RTNL.ARPHRD_ETHER)
    #expect(veth.hardwareAddress?.count == 6)
    #expect(veth.flags & RTNL.IFF_UP != 0)
  }

  @Test("captured address dump: IPv4, IPv6 global and link-local")
  func capturedAddresses() throws {
    let messages = try NetlinkMessageDecoder.decode(CapturedNetlink.addresses)
    let addresses = messages.compactMap { message -> NetlinkAddress? in
      if case .newAddress(let address) = message.event { return address }
      return nil
    }
    let texts = Set(addresses.map(\.address.description))
    #expect(texts.contains("192.0.2.10"))
    #expect(texts.contains("2001:db8::10"))
    let v4 = try #require(addresses.first { $0.address.description == "192.0.2.10" })
    #expect(v4.prefixLength == 24)
    #expect(v4.isUsableBeyondLink)
    let linkLocal = try #require(addresses.first { $0.address.isLinkLocal })
    #expect(!linkLocal.isUsableBeyondLink)
    #expect(linkLocal.scope == RTNL.RT_SCOPE_LINK)
  }

  @Test("captured IPv4 route dump: default with metric, multipath, local table")
  func capturedIPv4Routes() throws {
    let routes = try NetlinkMessageDecoder.decode(CapturedNetlink.routes4).compactMap { message -> NetlinkRoute? in
      if case .newRoute(let route) = message.event { return route }
      return nil
    }
    let defaultRoute = try #require(routes.first { $0.destinationLength == 0 })
    #expect(defaultRoute.gateway?.description == "192.0.2.1")
    #expect(defaultRoute.priority == 100)
    #expect(defaultRoute.table == RTNL.RT_TABLE_MAIN)
    #expect(defaultRoute.type == RTNL.RTN_UNICAST)
    #expect(defaultRoute.interfaceIndex != nil)
    let multipath = try #require(routes.first { $0.destination?.description == "198.51.100.0" })
    #expect(multipath.multipath.map { $0.gateway?.description } == ["192.0.2.2", "192.0.2.3"])
    #expect(routes.contains { $0.table == RTNL.RT_TABLE_LOCAL })
  }

  @Test("captured IPv6 route dump: default via 2001:db8::1, metric 1024")
  func capturedIPv6Routes() throws {
    let routes = try NetlinkMessageDecoder.decode(CapturedNetlink.routes6).compactMap { message -> NetlinkRoute? in
      if case .newRoute(let route) = message.event { return route }
      return nil
    }
    let defaultRoute = try #require(routes.first { $0.destinationLength == 0 && $0.table == RTNL.RT_TABLE_MAIN })
    #expect(defaultRoute.family == RTNL.AF_INET6)
    #expect(defaultRoute.gateway?.description == "2001:db8::1")
    #expect(defaultRoute.priority == 1024)
  }

  // MARK: Hand-built messages

  @Test("hand-built messages decode field by field")
  func handBuilt() throws {
    let datagram =
      NetlinkMessageBuilder.link(index: 7, name: "wg0", hardwareType: RTNL.ARPHRD_NONE, kind: "wireguard")
      + NetlinkMessageBuilder.address(index: 7, address: "fe80::1", prefixLength: 64, flags: RTNL.IFA_F_TENTATIVE)
      + NetlinkMessageBuilder.route(
        family: RTNL.AF_INET, table: 51820, priority: 5, oif: 7,
        multipath: [(oif: 7, gateway: "10.0.0.1", flags: UInt8(RTNL.RTNH_F_LINKDOWN))])
      + NetlinkMessageBuilder.done(sequence: 9)
    let messages = try NetlinkMessageDecoder.decode(datagram)
    #expect(messages.count == 4)
    guard case .newLink(let link) = messages[0].event else {
      Issue.record("expected a link, got \(messages[0].event)")
      return
    }
    #expect(
      link
        == NetlinkLink(
          index: 7, name: "wg0", hardwareType: RTNL.ARPHRD_NONE, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
          operationalState: RTNL.IF_OPER_UP, kind: "wireguard", hardwareAddress: nil))
    guard case .newAddress(let address) = messages[1].event else {
      Issue.record("expected an address")
      return
    }
    #expect(address.flags & RTNL.IFA_F_TENTATIVE != 0)
    #expect(!address.isUsableBeyondLink)
    guard case .newRoute(let route) = messages[2].event else {
      Issue.record("expected a route")
      return
    }
    #expect(route.table == 51820)
    #expect(route.priority == 5)
    #expect(route.multipath.count == 1)
    #expect(route.multipath[0].flags & RTNL.RTNH_F_LINKDOWN != 0)
    #expect(messages[3].event == .done(errno: 0))
    #expect(messages[3].sequence == 9)
  }

  @Test("NLMSG_ERROR carries a positive errno; zero is an acknowledgement")
  func errors() throws {
    var body = NetlinkMessageBuilder()
    body.append(Int32(-16))  // -EBUSY
    body.bytes += NetlinkMessageBuilder.message(type: RTNL.RTM_GETROUTE, body: [])
    let messages = try NetlinkMessageDecoder.decode(
      NetlinkMessageBuilder.message(type: RTNL.NLMSG_ERROR, body: body.bytes))
    #expect(messages.map(\.event) == [.error(errno: 16)])
  }

  @Test("an error code of Int32.min decodes without trapping (fuzzer finding: Fuzz/regressions/done-errno-int32-min)")
  func errorCodeInt32Min() async throws {
    // First in a child process: a trap there fails this test alone, instead of ending every test of the run.
    await #expect(processExitsWith: .success, "decoding Int32.min as an error code traps") {
      let code = withUnsafeBytes(of: Int32.min) { Array($0) }
      _ = try? NetlinkMessageDecoder.decode(NetlinkMessageBuilder.message(type: RTNL.NLMSG_DONE, body: code))
      _ = try? NetlinkMessageDecoder.decode(NetlinkMessageBuilder.message(type: RTNL.NLMSG_ERROR, body: code))
    }
    let code = withUnsafeBytes(of: Int32.min) { Array($0) }
    let done = try NetlinkMessageDecoder.decode(NetlinkMessageBuilder.message(type: RTNL.NLMSG_DONE, body: code))
    #expect(done.map(\.event) == [.done(errno: Int32.min)])
    let error = try NetlinkMessageDecoder.decode(NetlinkMessageBuilder.message(type: RTNL.NLMSG_ERROR, body: code))
    #expect(error.map(\.event) == [.error(errno: Int32.min)])
    // The input the fuzzer found: an NLMSG_DONE of 20 bytes whose code is 0x80000000.
    let found: [UInt8] = [
      0x14, 0, 0, 0, 0x03, 0, 0x02, 0, 0x01, 0, 0, 0, 0x65, 0x30, 0, 0, 0, 0, 0, 0x80,
    ]
    #expect(try NetlinkMessageDecoder.decode(found).map(\.event) == [.done(errno: Int32.min)])
  }

  @Test("NLM_F_DUMP_INTR is surfaced")
  func dumpInterrupted() throws {
    let messages = try NetlinkMessageDecoder.decode(
      NetlinkMessageBuilder.link(index: 2, name: "eth0", messageFlags: RTNL.NLM_F_MULTI | RTNL.NLM_F_DUMP_INTR))
    #expect(messages.first?.isDumpInterrupted == true)
  }

  @Test("AF_BRIDGE link messages and other families are ignored, not mistaken for link removals")
  func bridgeFamily() throws {
    let messages = try NetlinkMessageDecoder.decode(
      NetlinkMessageBuilder.link(RTNL.RTM_DELLINK, index: 3, name: "veth0", family: RTNL.AF_BRIDGE))
    #expect(messages.map(\.event) == [.ignored(type: RTNL.RTM_DELLINK)])
  }

  @Test("an empty datagram has no messages")
  func empty() throws {
    #expect(try NetlinkMessageDecoder.decode([]).isEmpty)
  }

  // MARK: Malformed input: an error, never a trap

  static let valid = NetlinkMessageBuilder.route(priority: 1, oif: 2, gateway: "192.0.2.1")

  @Test("truncated header")
  func truncatedHeader() {
    for count in 1..<16 {
      #expect(throws: NetlinkDecodeError.self) { try NetlinkMessageDecoder.decode(Array(Self.valid.prefix(count))) }
    }
    // A valid message followed by a few stray bytes.
    let error = decodeError(Self.valid + [1, 2, 3])
    #expect(error?.reason == .truncatedHeader)
  }

  @Test("nlmsg_len past the end of the buffer")
  func lengthPastEnd() {
    var bytes = Self.valid
    let tooLong = UInt32(bytes.count + 4)
    bytes.withUnsafeMutableBytes { $0.storeBytes(of: tooLong, toByteOffset: 0, as: UInt32.self) }
    #expect(decodeError(bytes)?.reason == .messageLengthPastEnd)
    #expect(decodeError(Array(Self.valid.dropLast(4)))?.reason == .messageLengthPastEnd)
  }

  @Test("zero and too-small nlmsg_len")
  func zeroLength() {
    for length: UInt32 in [0, 1, 15] {
      var bytes = Self.valid
      bytes.withUnsafeMutableBytes { $0.storeBytes(of: length, toByteOffset: 0, as: UInt32.self) }
      #expect(decodeError(bytes)?.reason == .messageLengthTooSmall)
    }
  }

  @Test("payload shorter than its family header")
  func truncatedPayload() {
    for type in [RTNL.RTM_NEWLINK, RTNL.RTM_NEWADDR, RTNL.RTM_NEWROUTE, RTNL.NLMSG_ERROR] {
      let bytes = NetlinkMessageBuilder.message(type: type, body: [0, 0])
      #expect(decodeError(bytes)?.reason == .truncatedPayload)
    }
  }

  @Test("attribute out of bounds, zero-length attribute, truncated attribute header")
  func badAttributes() {
    // rtmsg (12 bytes) then one attribute whose length runs past the message.
    var body = [UInt8](repeating: 0, count: 12)
    body[0] = RTNL.AF_INET
    var attribute = NetlinkMessageBuilder()
    attribute.append(UInt16(40))
    attribute.append(RTNL.RTA_OIF)
    attribute.append(UInt32(2))
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + attribute.bytes))?.reason
        == .attributeOutOfBounds)

    var zero = NetlinkMessageBuilder()
    zero.append(UInt16(0))
    zero.append(RTNL.RTA_OIF)
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + zero.bytes))?.reason
        == .attributeLengthTooSmall)

    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + [8, 0]))?.reason
        == .truncatedAttribute)
  }

  @Test("attribute values of the wrong size")
  func badValues() {
    var body = [UInt8](repeating: 0, count: 12)
    body[0] = RTNL.AF_INET
    var gateway = NetlinkMessageBuilder()
    gateway.attribute(RTNL.RTA_GATEWAY, [192, 0, 2])  // 3 bytes for IPv4
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + gateway.bytes))?.reason
        == .invalidAttributeValue)
    var oif = NetlinkMessageBuilder()
    oif.attribute(RTNL.RTA_OIF, [1, 0])
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + oif.bytes))?.reason
        == .invalidAttributeValue)
    // An address message with no address at all.
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWADDR, body: [RTNL.AF_INET, 24, 0, 0, 2, 0, 0, 0]))?
        .reason == .invalidAttributeValue)
  }

  @Test("nested attribute out of bounds inside IFLA_LINKINFO")
  func badNested() {
    var body = [UInt8](repeating: 0, count: 16)
    var inner = NetlinkMessageBuilder()
    inner.append(UInt16(200))
    inner.append(RTNL.IFLA_INFO_KIND)
    var outer = NetlinkMessageBuilder()
    outer.attribute(RTNL.IFLA_LINKINFO, inner.bytes)
    body += outer.bytes
    #expect(
      decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWLINK, body: body))?.reason == .attributeOutOfBounds)
  }

  @Test("multipath next hop with a bad rtnh_len")
  func badNextHop() {
    var body = [UInt8](repeating: 0, count: 12)
    body[0] = RTNL.AF_INET
    for length: UInt16 in [0, 4, 100] {
      var hop = NetlinkMessageBuilder()
      hop.append(length)
      hop.append(UInt16(0))
      hop.append(Int32(2))
      var attribute = NetlinkMessageBuilder()
      attribute.attribute(RTNL.RTA_MULTIPATH, hop.bytes)
      #expect(
        decodeError(NetlinkMessageBuilder.message(type: RTNL.RTM_NEWROUTE, body: body + attribute.bytes))?.reason
          == .invalidNextHop)
    }
  }

  @Test("every truncation and every single-byte corruption of captured dumps decodes or throws, never traps")
  func exhaustiveCorruption() async {
    // In a child process: a trap fails this test alone, instead of ending every test of the run.
    await #expect(processExitsWith: .success, "a corrupted capture made the decoder trap") {
      for sample in [CapturedNetlink.routes4, CapturedNetlink.addresses, CapturedNetlink.routes6] {
        for count in 0...sample.count {
          _ = try? NetlinkMessageDecoder.decode(Array(sample.prefix(count)))
        }
        for index in sample.indices {
          for value: UInt8 in [0, 1, 3, 0x7f, 0xff] {
            var corrupted = sample
            corrupted[index] = value
            _ = try? NetlinkMessageDecoder.decode(corrupted)
          }
        }
      }
    }
  }

  @Test("random bytes decode or throw, never trap")
  func randomBytes() async {
    // In a child process: a trap fails this test alone, instead of ending every test of the run.
    await #expect(processExitsWith: .success, "random bytes made the decoder trap") {
      var generator = SplitMix64(seed: 0x5eed)
      for _ in 0..<20_000 {
        let count = Int.random(in: 0..<96, using: &generator)
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if count >= 4 {
          // Plausible lengths exercise the deeper paths more often.
          bytes[0] = UInt8(count)
          bytes[1] = 0
          bytes[2] = 0
          bytes[3] = 0
        }
        if count >= 6 { bytes[4] = [16, 17, 20, 21, 24, 25, 2, 3][Int(bytes[4]) % 8] }
        _ = try? NetlinkMessageDecoder.decode(bytes)
      }
    }
  }

  private func decodeError(_ bytes: [UInt8]) -> NetlinkDecodeError? {
    do {
      _ = try NetlinkMessageDecoder.decode(bytes)
      return nil
    } catch {
      return error
    }
  }
}
