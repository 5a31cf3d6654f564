/// What the generic netlink controller says of a family (CTRL_CMD_NEWFAMILY): its id and its multicast groups.
///
/// A family's id and its groups' ids are allocated by the kernel when the family registers, so they differ from
/// one boot (or one module load) to the next: a program asks for them by name (``GenericNetlinkFamilyRequest``)
/// and finds a group by its name (``multicastGroupID(named:)``).
package struct GenericNetlinkFamily: Sendable, Hashable {
  /// One multicast group of the family.
  package struct MulticastGroup: Sendable, Hashable {
    /// CTRL_ATTR_MCAST_GRP_NAME: the group's name (nl80211's `"mlme"`, `"scan"`…).
    package var name: String
    /// CTRL_ATTR_MCAST_GRP_ID: the number to join it with.
    package var id: UInt32

    /// A group with this name and id.
    package init(name: String, id: UInt32) {
      self.name = name
      self.id = id
    }
  }

  /// CTRL_ATTR_FAMILY_ID: the `nlmsg_type` of the family's messages.
  package var id: UInt16
  /// CTRL_ATTR_FAMILY_NAME: the family's name.
  package var name: String
  /// CTRL_ATTR_MCAST_GROUPS: the family's multicast groups, in the order the kernel lists them (empty when it has
  /// none).
  package var multicastGroups: [MulticastGroup]

  /// A family with these fields.
  package init(id: UInt16, name: String, multicastGroups: [MulticastGroup]) {
    self.id = id
    self.name = name
    self.multicastGroups = multicastGroups
  }

  /// The id of the multicast group named `name` (the first, should the kernel list a name twice), or `nil` when the
  /// family has no such group.
  package func multicastGroupID(named name: String) -> UInt32? {
    multicastGroups.first { $0.name == name }?.id
  }

  /// Decodes CTRL_CMD_NEWFAMILY's attributes, already checked by ``NetlinkByteReader/attributes(in:)``.
  ///
  /// - Throws: ``NetlinkDecodeError`` when CTRL_ATTR_FAMILY_ID or CTRL_ATTR_FAMILY_NAME is missing
  ///   (``NetlinkDecodeError/Reason/missingAttribute``) or the id is shorter than a u16, or when a group is malformed
  ///   or lacks its name or id.
  static func decode(_ attributes: NetlinkAttributes, at offset: Int, reader: NetlinkByteReader)
    throws(NetlinkDecodeError) -> GenericNetlinkFamily
  {
    var id: UInt16?
    var name: String?
    var groups: [MulticastGroup] = []
    for attribute in attributes {
      switch attribute.type {
      case GENL.CTRL_ATTR_FAMILY_ID:
        id = try reader.u16Value(attribute.value)
      case GENL.CTRL_ATTR_FAMILY_NAME:
        name = reader.string(attribute.value)
      case GENL.CTRL_ATTR_MCAST_GROUPS:
        // One nested attribute per group; its type is the group's position (1, 2…), which says nothing more.
        for group in try reader.attributes(in: attribute.value) {
          groups.append(try decodeGroup(group.value, reader: reader))
        }
      default:
        break
      }
    }
    guard let id, let name else { throw NetlinkDecodeError(reason: .missingAttribute, offset: offset) }
    return GenericNetlinkFamily(id: id, name: name, multicastGroups: groups)
  }

  /// Decodes one group's CTRL_ATTR_MCAST_GRP_NAME and CTRL_ATTR_MCAST_GRP_ID, both required.
  private static func decodeGroup(_ range: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> MulticastGroup
  {
    var name: String?
    var id: UInt32?
    for attribute in try reader.attributes(in: range) {
      switch attribute.type {
      case GENL.CTRL_ATTR_MCAST_GRP_NAME:
        name = reader.string(attribute.value)
      case GENL.CTRL_ATTR_MCAST_GRP_ID:
        id = try reader.u32Value(attribute.value)
      default:
        break
      }
    }
    guard let name, let id else { throw NetlinkDecodeError(reason: .missingAttribute, offset: range.lowerBound) }
    return MulticastGroup(name: name, id: id)
  }
}
