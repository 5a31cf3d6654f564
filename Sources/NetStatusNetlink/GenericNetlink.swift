/// Generic netlink's numbers (`linux/genetlink.h`), spelled out in Swift as ``RTNL`` spells out rtnetlink's: the
/// header every generic netlink message carries after nlmsghdr, and those of the controller, the one family whose id
/// is fixed and which names the others' ids and multicast groups.
package enum GENL {
  /// `sizeof(struct genlmsghdr)` (GENL_HDRLEN): `u8 cmd; u8 version; u16 reserved`, before the attributes.
  package static let headerLength = 4
  /// GENL_NAMSIZ: the room for a family's name, its NUL included; the kernel refuses a longer name.
  package static let familyNameSize = 16
  /// GENL_ID_CTRL (NLMSG_MIN_TYPE): the controller's family id, the `nlmsg_type` of its messages.
  package static let GENL_ID_CTRL: UInt16 = 0x10
  /// CTRL_CMD_NEWFAMILY: the controller's answer describing a family (and its notification of a new one).
  package static let CTRL_CMD_NEWFAMILY: UInt8 = 1
  /// CTRL_CMD_GETFAMILY: the request for a family, by name (CTRL_ATTR_FAMILY_NAME) or id.
  package static let CTRL_CMD_GETFAMILY: UInt8 = 3
  /// CTRL_ATTR_FAMILY_ID: the family's id (u16), the `nlmsg_type` of its messages.
  package static let CTRL_ATTR_FAMILY_ID: UInt16 = 1
  /// CTRL_ATTR_FAMILY_NAME: the family's name (NUL-terminated string).
  package static let CTRL_ATTR_FAMILY_NAME: UInt16 = 2
  /// CTRL_ATTR_MCAST_GROUPS: the family's multicast groups, nested: one nested attribute per group (its type is the
  /// group's position, from 1), holding CTRL_ATTR_MCAST_GRP_NAME and CTRL_ATTR_MCAST_GRP_ID.
  package static let CTRL_ATTR_MCAST_GROUPS: UInt16 = 7
  /// CTRL_ATTR_MCAST_GRP_NAME, inside a group: its name (NUL-terminated string).
  package static let CTRL_ATTR_MCAST_GRP_NAME: UInt16 = 1
  /// CTRL_ATTR_MCAST_GRP_ID, inside a group: its id (u32), the number to join it with (NETLINK_ADD_MEMBERSHIP).
  package static let CTRL_ATTR_MCAST_GRP_ID: UInt16 = 2
  /// The controller's version our requests carry (libnl's and iw's; the kernel accepts any).
  package static let controllerVersion: UInt8 = 1
}

/// `struct genlmsghdr`: what follows nlmsghdr in every generic netlink message, the family's command and its
/// version. The two reserved bytes are zero in what we send and not read in what we receive.
package struct GenericNetlinkHeader: Sendable, Hashable {
  /// `cmd`: the family's command (CTRL_CMD_NEWFAMILY, NL80211_CMD_NEW_STATION…).
  package var command: UInt8
  /// `version`: the family's interface version.
  package var version: UInt8

  /// A header with this command and version.
  package init(command: UInt8, version: UInt8) {
    self.command = command
    self.version = version
  }
}

/// CTRL_CMD_GETFAMILY for one family, by name: the request that learns a family's id (the `nlmsg_type` of its
/// messages, which the kernel allocates when the family registers) and the ids of its multicast groups.
///
/// Pure: the socket sends what ``bytes(sequence:)`` returns; the answer is a CTRL_CMD_NEWFAMILY message
/// (``GenericNetlinkEvent/family(_:)``), or an NLMSG_ERROR with ENOENT when no such family is registered (nl80211
/// without cfg80211 loaded).
package struct GenericNetlinkFamilyRequest: Sendable, Hashable {
  /// The family's name, as its module registers it (`"nl80211"`). The kernel refuses a name that, with its NUL, does
  /// not fit ``GENL/familyNameSize``.
  package var name: String

  /// A request for the family named `name`.
  package init(name: String) {
    self.name = name
  }

  /// The request's bytes: nlmsghdr (GENL_ID_CTRL, NLM_F_REQUEST), genlmsghdr (CTRL_CMD_GETFAMILY) and
  /// CTRL_ATTR_FAMILY_NAME, the name NUL-terminated.
  package func bytes(sequence: UInt32) -> [UInt8] {
    var attributes: [UInt8] = []
    attributes.appendAttribute(type: GENL.CTRL_ATTR_FAMILY_NAME, value: Array(name.utf8) + [0])
    return GenericNetlinkHeader(command: GENL.CTRL_CMD_GETFAMILY, version: GENL.controllerVersion).request(
      type: GENL.GENL_ID_CTRL, flags: RTNL.NLM_F_REQUEST, sequence: sequence, attributes: attributes)
  }
}

extension GenericNetlinkHeader {
  /// A request carrying this header: nlmsghdr (`type`: the family's id; `flags`), the genlmsghdr (the command, the
  /// version and two reserved zero bytes), then `attributes`, already encoded.
  package func request(type: UInt16, flags: UInt16, sequence: UInt32, attributes: [UInt8]) -> [UInt8] {
    let length = RTNL.headerLength + GENL.headerLength + attributes.count
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    bytes.appendNetlinkHeader(length: length, type: type, flags: flags, sequence: sequence)
    bytes.append(command)
    bytes.append(version)
    bytes.appendHostOrder(UInt16(0))
    bytes += attributes
    return bytes
  }
}
