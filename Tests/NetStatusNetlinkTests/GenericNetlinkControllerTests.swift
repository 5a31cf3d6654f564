import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

@Suite("generic netlink controller")
struct GenericNetlinkControllerTests {
  /// A controller message (GENL_ID_CTRL, CTRL_CMD_NEWFAMILY) holding `attributes`.
  static func controllerAnswer(_ attributes: (inout NetlinkMessageBuilder) -> Void) -> [UInt8] {
    var body = NetlinkMessageBuilder()
    body.bytes = [GENL.CTRL_CMD_NEWFAMILY, 2, 0, 0]
    attributes(&body)
    return NetlinkMessageBuilder.message(type: GENL.GENL_ID_CTRL, body: body.bytes)
  }

  /// One CTRL_ATTR_MCAST_GROUPS entry's attributes.
  static func group(name: String?, id: UInt32?) -> [UInt8] {
    var group = NetlinkMessageBuilder()
    if let id { group.attribute(GENL.CTRL_ATTR_MCAST_GRP_ID, u32: id) }
    if let name { group.attribute(GENL.CTRL_ATTR_MCAST_GRP_NAME, string: name) }
    return group.bytes
  }

  static let groups: [GenericNetlinkFamily.MulticastGroup] = [
    .init(name: "config", id: 4), .init(name: "scan", id: 5), .init(name: "regulatory", id: 6),
    .init(name: "mlme", id: 7), .init(name: "vendor", id: 8), .init(name: "nan", id: 9),
  ]

  @Test("nl80211's family: its id, and the mlme group found by name")
  func nl80211Family() throws {
    let messages = try GenericNetlinkDecoder.decode(CapturedNL80211.controllerFamily, nl80211Family: nil)
    try #require(messages.count == 1)
    let message = messages[0]
    #expect(message.type == GENL.GENL_ID_CTRL)
    #expect(message.header == GenericNetlinkHeader(command: GENL.CTRL_CMD_NEWFAMILY, version: 2))
    #expect(message.sequence == 1 && message.portID == CapturedNL80211.portID)
    let expected = GenericNetlinkFamily(id: CapturedNL80211.family, name: "nl80211", multicastGroups: Self.groups)
    #expect(message.event == .family(expected))
    #expect(expected.multicastGroupID(named: NL80211.mlmeGroupName) == 7)
    #expect(expected.multicastGroupID(named: "scan") == 5)
    #expect(expected.multicastGroupID(named: "testmode") == nil)
    #expect(expected.multicastGroupID(named: "mlm") == nil)
    // The controller is read whatever id nl80211 is given, its own included.
    for family: UInt16? in [CapturedNL80211.family, GENL.GENL_ID_CTRL] {
      #expect(try GenericNetlinkDecoder.decode(CapturedNL80211.controllerFamily, nl80211Family: family) == messages)
    }
  }

  @Test("no nl80211 registered: ENOENT, as this machine's kernel answered")
  func familyNotFound() throws {
    let messages = try GenericNetlinkDecoder.decode(CapturedNL80211.familyNotFound, nl80211Family: nil)
    #expect(messages.map(\.event) == [.error(errno: 2)])
    #expect(messages.first?.sequence == 7)
  }

  @Test("the GETFAMILY request is what the kernel echoed back with its ENOENT")
  func familyRequest() {
    let bytes = GenericNetlinkFamilyRequest(name: NL80211.familyName).bytes(sequence: 7)
    // nlmsgerr quotes the request whole after its error code: bytes 20 to the end.
    #expect(bytes == Array(CapturedNL80211.familyNotFound[20...]))
    let expected: [UInt8] = [
      0x20, 0x00, 0x00, 0x00,  // nlmsg_len 32
      0x10, 0x00,  // nlmsg_type GENL_ID_CTRL
      0x01, 0x00,  // nlmsg_flags NLM_F_REQUEST
      0x07, 0x00, 0x00, 0x00,  // nlmsg_seq 7
      0x00, 0x00, 0x00, 0x00,  // nlmsg_pid 0
      0x03, 0x01, 0x00, 0x00,  // genlmsghdr: CTRL_CMD_GETFAMILY, version 1
      0x0c, 0x00, 0x02, 0x00,  // CTRL_ATTR_FAMILY_NAME: nla_len 12
      0x6e, 0x6c, 0x38, 0x30, 0x32, 0x31, 0x31, 0x00,  //   "nl80211\0"
    ]
    #expect(bytes == expected)
    // A name whose length with its NUL is not a multiple of 4 is padded.
    let padded = GenericNetlinkFamilyRequest(name: "nlctrl").bytes(sequence: 1)
    #expect(padded.count == 32 && padded[0] == 32 && padded[20] == 11 && padded[24...30] == Array("nlctrl\0".utf8)[...])
  }

  @Test("NLA_F_NESTED on CTRL_ATTR_MCAST_GROUPS and on its entries is masked")
  func nestedFlag() throws {
    var bytes = CapturedNL80211.controllerFamily
    // CTRL_ATTR_MCAST_GROUPS's header is at 108 (after nlmsghdr, genlmsghdr, the name, id, version, header size,
    // maximum attribute and the 44 bytes of operations), its type at 110; its first entry's type is at 114.
    #expect(bytes[110] == 7 && bytes[114] == 1)
    bytes[111] |= 0x80
    bytes[115] |= 0x80
    #expect(
      try GenericNetlinkDecoder.decode(bytes, nl80211Family: nil)
        == GenericNetlinkDecoder.decode(CapturedNL80211.controllerFamily, nl80211Family: nil))
  }

  @Test("a family without groups; other controller commands are ignored")
  func familyWithoutGroups() throws {
    let bytes = Self.controllerAnswer { body in
      body.attribute(GENL.CTRL_ATTR_FAMILY_NAME, string: "nlctrl")
      body.attribute(GENL.CTRL_ATTR_FAMILY_ID, [0x10, 0x00])
    }
    #expect(try soleGenericEvent(bytes) == .family(GenericNetlinkFamily(id: 16, name: "nlctrl", multicastGroups: [])))
    var deleted = bytes
    deleted[16] = 2  // CTRL_CMD_DELFAMILY
    let messages = try GenericNetlinkDecoder.decode(deleted, nl80211Family: nil)
    #expect(messages.map(\.event) == [.ignored])
    #expect(messages.first?.header?.command == 2)
  }

  @Test("a family without its id or name, or a group without its name or id, throws")
  func missingAttributes() {
    let noID = Self.controllerAnswer { $0.attribute(GENL.CTRL_ATTR_FAMILY_NAME, string: "nl80211") }
    #expect(genericDecodeError(noID)?.reason == .missingAttribute)
    #expect(genericDecodeError(noID)?.messageType == GENL.GENL_ID_CTRL)
    let noName = Self.controllerAnswer { $0.attribute(GENL.CTRL_ATTR_FAMILY_ID, [0x1c, 0x00]) }
    #expect(genericDecodeError(noName)?.reason == .missingAttribute)
    for entry in [Self.group(name: "mlme", id: nil), Self.group(name: nil, id: 7)] {
      let bytes = Self.controllerAnswer { body in
        body.attribute(GENL.CTRL_ATTR_FAMILY_NAME, string: "nl80211")
        body.attribute(GENL.CTRL_ATTR_FAMILY_ID, [0x1c, 0x00])
        var groups = NetlinkMessageBuilder()
        groups.attribute(1, Self.group(name: "scan", id: 5))
        groups.attribute(2, entry)
        body.attribute(GENL.CTRL_ATTR_MCAST_GROUPS, groups.bytes)
      }
      #expect(genericDecodeError(bytes)?.reason == .missingAttribute)
    }
  }

  @Test("a family id or group id of the wrong size throws")
  func shortValues() {
    let shortID = Self.controllerAnswer { body in
      body.attribute(GENL.CTRL_ATTR_FAMILY_NAME, string: "nl80211")
      body.attribute(GENL.CTRL_ATTR_FAMILY_ID, [0x1c])
    }
    #expect(genericDecodeError(shortID)?.reason == .invalidAttributeValue)
    let shortGroup = Self.controllerAnswer { body in
      body.attribute(GENL.CTRL_ATTR_FAMILY_NAME, string: "nl80211")
      body.attribute(GENL.CTRL_ATTR_FAMILY_ID, [0x1c, 0x00])
      var entry = NetlinkMessageBuilder()
      entry.attribute(GENL.CTRL_ATTR_MCAST_GRP_NAME, string: "mlme")
      entry.attribute(GENL.CTRL_ATTR_MCAST_GRP_ID, [7, 0])
      var groups = NetlinkMessageBuilder()
      groups.attribute(1, entry.bytes)
      body.attribute(GENL.CTRL_ATTR_MCAST_GROUPS, groups.bytes)
    }
    #expect(genericDecodeError(shortGroup)?.reason == .invalidAttributeValue)
  }
}
