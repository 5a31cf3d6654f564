import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// An nl80211 message built for a test: nlmsghdr (nl80211's id in ``CapturedNL80211``), genlmsghdr with `command`,
/// and `attributes`.
func nl80211Message(command: UInt8, flags: UInt16 = 0, _ attributes: (inout NetlinkMessageBuilder) -> Void) -> [UInt8] {
  var body = NetlinkMessageBuilder()
  body.bytes = [command, 1, 0, 0]
  attributes(&body)
  return NetlinkMessageBuilder.message(type: CapturedNL80211.family, flags: flags, body: body.bytes)
}

/// The one event `bytes` decodes to, with nl80211's id in ``CapturedNL80211``.
func soleGenericEvent(_ bytes: [UInt8]) throws -> GenericNetlinkEvent {
  let messages = try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family)
  try #require(messages.count == 1)
  return messages[0].event
}

/// A decoded event that is not the one a test expected.
struct UnexpectedEvent: Error {
  var event: GenericNetlinkEvent
}

/// The decode error `bytes` throws, with nl80211's id in ``CapturedNL80211``; `nil` when they decode.
func genericDecodeError(_ bytes: [UInt8]) -> NetlinkDecodeError? {
  do {
    _ = try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family)
    return nil
  } catch {
    return error
  }
}

@Suite("nl80211 decoder")
struct NL80211DecoderTests {
  static let accessPoint: [UInt8] = [0x02, 0x11, 0x22, 0x33, 0x44, 0x55]
  static let otherAccessPoint: [UInt8] = [0x02, 0x11, 0x22, 0x33, 0x44, 0x66]

  /// A NEW_STATION for interface 3 whose NL80211_ATTR_STA_INFO holds `information`.
  static func stationInformation(_ information: (inout NetlinkMessageBuilder) -> Void) -> [UInt8] {
    nl80211Message(command: NL80211.CMD_NEW_STATION) { body in
      body.attribute(NL80211.ATTR_IFINDEX, u32: 3)
      body.attribute(NL80211.ATTR_MAC, accessPoint)
      var nested = NetlinkMessageBuilder()
      information(&nested)
      body.attribute(NL80211.ATTR_STA_INFO, nested.bytes)
    }
  }

  /// A NEW_STATION whose transmit rate holds `rate`.
  static func stationRate(_ rate: (inout NetlinkMessageBuilder) -> Void) -> [UInt8] {
    stationInformation({ information in
      var nested = NetlinkMessageBuilder()
      rate(&nested)
      information.attribute(NL80211.STA_INFO_TX_BITRATE, nested.bytes)
    })
  }

  static func decodedStation(_ bytes: [UInt8]) throws -> WirelessStation {
    let event = try soleGenericEvent(bytes)
    guard case .station(let station) = event else { throw UnexpectedEvent(event: event) }
    return station
  }

  // MARK: Stations

  @Test("station dump: signal -52 dBm, average -54, 866.7 Mbit/s, then the dump's end")
  func stationDump() throws {
    let messages = try GenericNetlinkDecoder.decode(CapturedNL80211.stationDump, nl80211Family: CapturedNL80211.family)
    try #require(messages.count == 2)
    let expected = WirelessStation(
      interfaceIndex: 3, address: Self.accessPoint, lastSignal: -52, averageSignal: -54, bitrate: 866_700)
    #expect(messages[0].event == .station(expected))
    #expect(messages[0].header == GenericNetlinkHeader(command: NL80211.CMD_NEW_STATION, version: 1))
    #expect(messages[0].type == CapturedNL80211.family)
    #expect(messages[0].flags == RTNL.NLM_F_MULTI)
    #expect(messages[0].sequence == 2)
    #expect(messages[0].portID == CapturedNL80211.portID)
    #expect(messages[1].event == .done(errno: 0))
    #expect(messages[1].header == nil)
    // The average rates the link: -54 dBm is good.
    #expect(expected.signal == -54)
    #expect(LinkQualityRules.wifi(station: expected) == .good)
  }

  @Test("a station without signal or rate: nothing invented")
  func stationWithoutSignal() throws {
    let station = try Self.decodedStation(CapturedNL80211.stationWithoutSignal)
    #expect(station == WirelessStation(interfaceIndex: 4, address: Self.otherAccessPoint))
    #expect(station.signal == nil)
    #expect(station.bitrate == nil)
    #expect(LinkQualityRules.wifi(station: station) == .unknown)
  }

  @Test("without an average, the last frame's signal rates the link")
  func lastSignalOnly() throws {
    let station = try Self.decodedStation(
      Self.stationInformation({ $0.attribute(NL80211.STA_INFO_SIGNAL, [0xb5]) }))
    #expect(station.lastSignal == -75)
    #expect(station.averageSignal == nil)
    #expect(station.signal == -75)
  }

  @Test("the signal's u8 is an s8", arguments: [(UInt8(0x80), -128), (0xff, -1), (0x00, 0), (0x7f, 127)])
  func signalIsSigned(raw: UInt8, dBm: Int) throws {
    let station = try Self.decodedStation(
      Self.stationInformation({ $0.attribute(NL80211.STA_INFO_SIGNAL_AVG, [raw]) }))
    #expect(station.averageSignal == dBm)
  }

  @Test("bitrate: BITRATE32 first, else the 16-bit BITRATE; 0 is no rate")
  func bitrates() throws {
    // BITRATE32 wins over BITRATE when both are there (they never differ from the kernel; here they do).
    let both = Self.stationRate({ rate in
      rate.attribute(NL80211.RATE_INFO_BITRATE, [0xd2, 0x04])  // u16 1234
      rate.attribute(NL80211.RATE_INFO_BITRATE32, u32: 24_020)
    })
    #expect(try Self.decodedStation(both).bitrate == 2_402_000)
    // Past 16 bits the kernel sends BITRATE32 alone: 7 Gbit/s.
    #expect(
      try Self.decodedStation(Self.stationRate({ $0.attribute(NL80211.RATE_INFO_BITRATE32, u32: 70_000) }))
        .bitrate
        == 7_000_000)
    // Kernels before BITRATE32 sent BITRATE alone: 54 Mbit/s.
    #expect(
      try Self.decodedStation(Self.stationRate({ $0.attribute(NL80211.RATE_INFO_BITRATE, [0x1c, 0x02]) })).bitrate
        == 54_000)
    // A rate the kernel cannot compute is no rate; so is a rate without either attribute (an MCS alone).
    #expect(
      try Self.decodedStation(Self.stationRate({ $0.attribute(NL80211.RATE_INFO_BITRATE32, u32: 0) })).bitrate
        == nil)
    #expect(try Self.decodedStation(Self.stationRate({ $0.attribute(2, [7]) })).bitrate == nil)
  }

  @Test("NLA_F_NESTED on NL80211_ATTR_STA_INFO and NL80211_STA_INFO_TX_BITRATE is masked")
  func nestedFlag() throws {
    var bytes = CapturedNL80211.stationDump
    // NL80211_ATTR_STA_INFO's header is at 48 (nlmsghdr 16, genlmsghdr 4, IFINDEX 8, MAC 12, GENERATION 8), its
    // nla_type at 50; NL80211_STA_INFO_TX_BITRATE's header follows five 8-byte attributes, at 92, its type at 94.
    #expect(bytes[50] == 21 && bytes[94] == 8)
    bytes[51] |= 0x80
    bytes[95] |= 0x80
    let flagged = try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family)
    let plain = try GenericNetlinkDecoder.decode(CapturedNL80211.stationDump, nl80211Family: CapturedNL80211.family)
    #expect(flagged == plain)
  }

  @Test("the GET_STATION dump request for an interface, byte by byte")
  func stationRequest() throws {
    let bytes = NL80211StationRequest(interfaceIndex: 3).bytes(family: CapturedNL80211.family, sequence: 2)
    let expected: [UInt8] = [
      0x1c, 0x00, 0x00, 0x00,  // nlmsg_len 28
      0x1c, 0x00,  // nlmsg_type: nl80211's id
      0x01, 0x03,  // nlmsg_flags: NLM_F_REQUEST | NLM_F_DUMP (0x301)
      0x02, 0x00, 0x00, 0x00,  // nlmsg_seq 2
      0x00, 0x00, 0x00, 0x00,  // nlmsg_pid 0: the kernel fills in ours
      0x11, 0x00, 0x00, 0x00,  // genlmsghdr: NL80211_CMD_GET_STATION, version 0
      0x08, 0x00, 0x03, 0x00,  // NL80211_ATTR_IFINDEX: nla_len 8
      0x03, 0x00, 0x00, 0x00,  //   u32 3
    ]
    #expect(bytes == expected)
    let request = try #require(
      try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family).first)
    #expect(request.event == .wireless(.ignored(command: NL80211.CMD_GET_STATION)))
    #expect(request.header == GenericNetlinkHeader(command: NL80211.CMD_GET_STATION, version: 0))
  }

  // MARK: Connection events

  @Test("connect, roam and disconnect events from the mlme group")
  func connectionEvents() throws {
    #expect(
      try soleGenericEvent(CapturedNL80211.connect)
        == .wireless(.connected(interfaceIndex: 3, accessPoint: Self.accessPoint)))
    #expect(
      try soleGenericEvent(CapturedNL80211.roam)
        == .wireless(.roamed(interfaceIndex: 3, accessPoint: Self.otherAccessPoint)))
    #expect(try soleGenericEvent(CapturedNL80211.disconnect) == .wireless(.disconnected(interfaceIndex: 3)))
    let event = try #require(
      try GenericNetlinkDecoder.decode(CapturedNL80211.connect, nl80211Family: CapturedNL80211.family).first)
    #expect(event.sequence == 0 && event.portID == 0)
    #expect(event.header == GenericNetlinkHeader(command: NL80211.CMD_CONNECT, version: 1))
  }

  @Test("a connect result with a non-zero status code is a failure; one without a MAC names no access point")
  func connectVariants() throws {
    let failed = nl80211Message(command: NL80211.CMD_CONNECT) { body in
      body.attribute(NL80211.ATTR_IFINDEX, u32: 3)
      body.attribute(NL80211.ATTR_MAC, Self.accessPoint)
      body.attribute(NL80211.ATTR_STATUS_CODE, [0x01, 0x00])  // WLAN_STATUS_UNSPECIFIED_FAILURE: a timeout
    }
    #expect(try soleGenericEvent(failed) == .wireless(.connectFailed(interfaceIndex: 3, statusCode: 1)))
    let anonymous = nl80211Message(command: NL80211.CMD_CONNECT) { $0.attribute(NL80211.ATTR_IFINDEX, u32: 5) }
    #expect(try soleGenericEvent(anonymous) == .wireless(.connected(interfaceIndex: 5, accessPoint: nil)))
  }

  @Test(
    "associate, deauthenticate and disassociate: the association changed",
    arguments: [NL80211.CMD_ASSOCIATE, NL80211.CMD_DEAUTHENTICATE, NL80211.CMD_DISASSOCIATE])
  func associationChanged(command: UInt8) throws {
    let bytes = nl80211Message(command: command) { body in
      body.attribute(1, u32: 0)  // NL80211_ATTR_WIPHY
      body.attribute(NL80211.ATTR_IFINDEX, u32: 3)
      body.attribute(51, [0xc0, 0x00, 0x3a, 0x01])  // NL80211_ATTR_FRAME: the management frame, cut short
    }
    let event = try soleGenericEvent(bytes)
    #expect(event == .wireless(.associationChanged(interfaceIndex: 3, command: command)))
    guard case .wireless(let wireless) = event else { return }
    #expect(wireless.interfaceIndex == 3)
  }

  @Test("other nl80211 commands are ignored, their attributes unread", arguments: [UInt8(33), 34, 37, 20, 0, 255])
  func otherCommands(command: UInt8) throws {
    // NL80211_CMD_TRIGGER_SCAN (33), NEW_SCAN_RESULTS (34), AUTHENTICATE (37), DEL_STATION (20): no IFINDEX needed.
    let bytes = nl80211Message(command: command) { $0.attribute(NL80211.ATTR_MAC, [1]) }
    #expect(try soleGenericEvent(bytes) == .wireless(.ignored(command: command)))
    #expect(WirelessEvent.ignored(command: command).interfaceIndex == nil)
  }

  @Test("before nl80211's id is known, its messages are ignored; the dump's end is still read")
  func unknownFamily() throws {
    let messages = try GenericNetlinkDecoder.decode(CapturedNL80211.stationDump, nl80211Family: nil)
    #expect(messages.map(\.event) == [.ignored, .done(errno: 0)])
    #expect(messages[0].header == nil)
    let other = try GenericNetlinkDecoder.decode(CapturedNL80211.connect, nl80211Family: 0x1d)
    #expect(other.map(\.event) == [.ignored])
  }

  // MARK: Missing and malformed attributes

  @Test("a station without its interface or address, or with a short one, throws")
  func stationMissingAttributes() {
    let noIndex = nl80211Message(command: NL80211.CMD_NEW_STATION) { $0.attribute(NL80211.ATTR_MAC, Self.accessPoint) }
    #expect(genericDecodeError(noIndex)?.reason == .missingAttribute)
    #expect(genericDecodeError(noIndex)?.messageType == CapturedNL80211.family)
    let noAddress = nl80211Message(command: NL80211.CMD_NEW_STATION) { $0.attribute(NL80211.ATTR_IFINDEX, u32: 3) }
    #expect(genericDecodeError(noAddress)?.reason == .missingAttribute)
    let shortAddress = nl80211Message(command: NL80211.CMD_NEW_STATION) { body in
      body.attribute(NL80211.ATTR_IFINDEX, u32: 3)
      body.attribute(NL80211.ATTR_MAC, [2, 0x11, 0x22, 0x33, 0x44])
    }
    #expect(genericDecodeError(shortAddress)?.reason == .invalidAttributeValue)
    let shortIndex = nl80211Message(command: NL80211.CMD_NEW_STATION) { body in
      body.attribute(NL80211.ATTR_IFINDEX, [3, 0])
      body.attribute(NL80211.ATTR_MAC, Self.accessPoint)
    }
    #expect(genericDecodeError(shortIndex)?.reason == .invalidAttributeValue)
  }

  @Test("empty signal, short bitrate values throw")
  func shortValues() {
    #expect(
      genericDecodeError(Self.stationInformation({ $0.attribute(NL80211.STA_INFO_SIGNAL, []) }))?.reason
        == .invalidAttributeValue)
    #expect(
      genericDecodeError(Self.stationInformation({ $0.attribute(NL80211.STA_INFO_SIGNAL_AVG, []) }))?.reason
        == .invalidAttributeValue)
    #expect(
      genericDecodeError(Self.stationRate({ $0.attribute(NL80211.RATE_INFO_BITRATE, [0x1c]) }))?.reason
        == .invalidAttributeValue)
    #expect(
      genericDecodeError(Self.stationRate({ $0.attribute(NL80211.RATE_INFO_BITRATE32, [1, 2, 3]) }))?.reason
        == .invalidAttributeValue)
  }

  @Test(
    "connection events without their interface throw",
    arguments: [
      NL80211.CMD_CONNECT, NL80211.CMD_ROAM, NL80211.CMD_DISCONNECT, NL80211.CMD_ASSOCIATE,
    ])
  func eventMissingInterface(command: UInt8) {
    let bytes = nl80211Message(command: command) { $0.attribute(NL80211.ATTR_MAC, Self.accessPoint) }
    #expect(genericDecodeError(bytes)?.reason == .missingAttribute)
    let shortStatus = nl80211Message(command: NL80211.CMD_CONNECT) { body in
      body.attribute(NL80211.ATTR_IFINDEX, u32: 3)
      body.attribute(NL80211.ATTR_STATUS_CODE, [0])
    }
    #expect(genericDecodeError(shortStatus)?.reason == .invalidAttributeValue)
  }
}
