/// One message of a generic netlink datagram: its header, and what it says.
package struct GenericNetlinkMessage: Sendable, Hashable {
  /// `nlmsg_type`: the family's id (GENL_ID_CTRL, nl80211's), or NLMSG_ERROR, NLMSG_DONE…
  package var type: UInt16
  /// `nlmsg_flags` (NLM_F_MULTI in a dump's answers, NLM_F_DUMP_INTR…).
  package var flags: UInt16
  /// `nlmsg_seq`: the request's sequence number in its answers, 0 in multicast events.
  package var sequence: UInt32
  /// `nlmsg_pid`: our port in answers, 0 in multicast events.
  package var portID: UInt32
  /// The genlmsghdr, for a message of the controller or of nl80211; `nil` for NLMSG_* messages and other families.
  package var header: GenericNetlinkHeader?
  /// What the message says.
  package var event: GenericNetlinkEvent

  /// A message with these fields.
  package init(
    type: UInt16, flags: UInt16, sequence: UInt32, portID: UInt32, header: GenericNetlinkHeader?,
    event: GenericNetlinkEvent
  ) {
    self.type = type
    self.flags = flags
    self.sequence = sequence
    self.portID = portID
    self.header = header
    self.event = event
  }
}

/// What a generic netlink message says, of the families NetStatus reads: the controller's answers and nl80211's
/// stations and connection events.
package enum GenericNetlinkEvent: Sendable, Hashable {
  /// CTRL_CMD_NEWFAMILY: a family's id and multicast groups.
  case family(GenericNetlinkFamily)
  /// NL80211_CMD_NEW_STATION: a station, its signal and bitrate.
  case station(WirelessStation)
  /// Any other nl80211 command: a connection event, or ``WirelessEvent/ignored(command:)``.
  case wireless(WirelessEvent)
  /// NLMSG_ERROR: a request failed (a positive errno: ENOENT for a family that is not registered, ENODEV for an
  /// interface that is gone), or, with 0, an acknowledgement.
  case error(errno: Int32)
  /// NLMSG_DONE: the end of a dump, with its errno (0, or positive when the dump failed part way).
  case done(errno: Int32)
  /// NLMSG_OVERRUN.
  case overrun
  /// A message of another family, a controller command other than CTRL_CMD_NEWFAMILY, or NLMSG_NOOP.
  case ignored
}

/// Decodes generic netlink datagrams into ``GenericNetlinkMessage`` values: the controller's (GENL_ID_CTRL) and
/// nl80211's, whose id the caller learned from the controller.
///
/// Pure and checked as ``NetlinkMessageDecoder`` is (the same framing, errors and attribute walker): every length
/// is checked against the buffer before it is used, malformed input throws ``NetlinkDecodeError`` and never traps.
package enum GenericNetlinkDecoder {
  /// Decodes every message of one datagram. Messages of type `nl80211Family` are read as nl80211's (`nil` before its
  /// id is known: they are ignored then); the controller's and NLMSG_* types are read first, so an id that collides
  /// with them changes nothing.
  ///
  /// - Throws: ``NetlinkDecodeError`` at the first inconsistency; nothing is returned for the datagram then.
  package static func decode(_ bytes: [UInt8], nl80211Family: UInt16?) throws(NetlinkDecodeError)
    -> [GenericNetlinkMessage]
  {
    let result: Result<[GenericNetlinkMessage], NetlinkDecodeError> = bytes.withUnsafeBytes { buffer in
      Result { () throws(NetlinkDecodeError) in try decode(buffer, nl80211Family: nl80211Family) }
    }
    return try result.get()
  }

  /// Decodes every message of one datagram held in `buffer`, as ``decode(_:nl80211Family:)`` does.
  package static func decode(_ buffer: UnsafeRawBufferPointer, nl80211Family: UInt16?) throws(NetlinkDecodeError)
    -> [GenericNetlinkMessage]
  {
    let reader = NetlinkByteReader(buffer: buffer)
    var messages: [GenericNetlinkMessage] = []
    try reader.forEachMessage { (offset, length, type) throws(NetlinkDecodeError) in
      do throws(NetlinkDecodeError) {
        messages.append(try decodeMessage(at: offset, length: length, nl80211Family: nl80211Family, reader: reader))
      } catch {
        var error = error
        error.messageType = type
        throw error
      }
    }
    return messages
  }

  /// Decodes the message at `offset`, whose header has been read and whose `length` checked.
  private static func decodeMessage(at offset: Int, length: Int, nl80211Family: UInt16?, reader: NetlinkByteReader)
    throws(NetlinkDecodeError) -> GenericNetlinkMessage
  {
    let type = reader.u16(offset + 4)
    var message = GenericNetlinkMessage(
      type: type, flags: reader.u16(offset + 6), sequence: reader.u32(offset + 8), portID: reader.u32(offset + 12),
      header: nil, event: .ignored)
    let body = (offset + RTNL.headerLength)..<(offset + length)
    switch type {
    case RTNL.NLMSG_ERROR:
      guard body.count >= 4 else { throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound) }
      // Negating wraps, so that Int32.min (never sent, but the bytes can say anything) cannot trap.
      message.event = .error(errno: 0 &- reader.i32(body.lowerBound))
    case RTNL.NLMSG_DONE:
      message.event = .done(errno: body.count >= 4 ? 0 &- reader.i32(body.lowerBound) : 0)
    case RTNL.NLMSG_OVERRUN:
      message.event = .overrun
    case RTNL.NLMSG_NOOP:
      break
    case GENL.GENL_ID_CTRL:
      let (header, attributes) = try genericBody(body, reader: reader)
      message.header = header
      if header.command == GENL.CTRL_CMD_NEWFAMILY {
        message.event = .family(try GenericNetlinkFamily.decode(attributes, at: body.lowerBound, reader: reader))
      }
    case let family where family == nl80211Family:
      let (header, attributes) = try genericBody(body, reader: reader)
      message.header = header
      if header.command == NL80211.CMD_NEW_STATION {
        message.event = .station(try WirelessStation.decode(attributes, at: body.lowerBound, reader: reader))
      } else {
        message.event = .wireless(
          try WirelessEvent.decode(command: header.command, attributes, at: body.lowerBound, reader: reader))
      }
    default:
      break
    }
    return message
  }

  /// A generic netlink message's genlmsghdr, and its attributes, all checked before any is read.
  ///
  /// - Throws: ``NetlinkDecodeError`` when the body is shorter than genlmsghdr, or an attribute is malformed.
  private static func genericBody(_ body: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> (GenericNetlinkHeader, NetlinkAttributes)
  {
    guard body.count >= GENL.headerLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    let header = GenericNetlinkHeader(command: reader.u8(body.lowerBound), version: reader.u8(body.lowerBound + 1))
    let attributes = try reader.attributes(in: (body.lowerBound + GENL.headerLength)..<body.upperBound)
    return (header, attributes)
  }
}
