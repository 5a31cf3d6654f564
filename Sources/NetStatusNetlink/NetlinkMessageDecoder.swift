/// Decodes rtnetlink datagrams into ``NetlinkMessage`` values.
///
/// A pure function over bytes, in Swift and with its own constants (``RTNL``), so it runs and is tested on
/// every platform and can be fed arbitrary input. Bytes are read in host order, as netlink sends them.
package enum NetlinkMessageDecoder {
  /// Decodes every message of one datagram.
  ///
  /// - Throws: ``NetlinkDecodeError`` at the first inconsistency; nothing is returned for the datagram then,
  ///   since its framing can no longer be trusted.
  package static func decode(_ bytes: [UInt8]) throws(NetlinkDecodeError) -> [NetlinkMessage] {
    let result: Result<[NetlinkMessage], NetlinkDecodeError> = bytes.withUnsafeBytes { buffer in
      Result { () throws(NetlinkDecodeError) in try decode(buffer) }
    }
    return try result.get()
  }

  /// Decodes every message of one datagram held in `buffer`.
  package static func decode(_ buffer: UnsafeRawBufferPointer) throws(NetlinkDecodeError) -> [NetlinkMessage] {
    var messages: [NetlinkMessage] = []
    try decode(buffer, into: &messages)
    return messages
  }

  /// Decodes every message of one datagram held in `buffer` into `messages`, replacing what it held but keeping
  /// its storage: the event loop decodes every datagram into the same array, without allocating one each time.
  ///
  /// - Throws: ``NetlinkDecodeError`` at the first inconsistency; `messages` is empty then.
  package static func decode(_ buffer: UnsafeRawBufferPointer, into messages: inout [NetlinkMessage])
    throws(NetlinkDecodeError)
  {
    messages.removeAllKeepingCapacity()
    do {
      try append(buffer, to: &messages)
    } catch {
      messages.removeAllKeepingCapacity()
      throw error
    }
  }

  /// Appends every message of the datagram in `buffer` to `messages`.
  private static func append(_ buffer: UnsafeRawBufferPointer, to messages: inout [NetlinkMessage])
    throws(NetlinkDecodeError)
  {
    let reader = NetlinkByteReader(buffer: buffer)
    try reader.forEachMessage { (offset, length, _) throws(NetlinkDecodeError) in
      messages.append(try decodeMessage(at: offset, length: length, reader: reader))
    }
  }

  /// Calls `body` with every message of the datagram in `buffer`, in order, once the whole datagram has decoded:
  /// an undecodable datagram gives nothing, as with ``decode(_:)``. A datagram of one message, the event loop's
  /// common case, is decoded without an array; others are decoded into `scratch`, whose storage is reused.
  package static func forEachMessage(
    in buffer: UnsafeRawBufferPointer, using scratch: inout [NetlinkMessage], _ body: (NetlinkMessage) -> Void
  ) throws(NetlinkDecodeError) {
    if let message = soleMessage(in: buffer) {
      body(try decodeMessage(at: 0, length: message.body.upperBound, reader: NetlinkByteReader(buffer: buffer)))
      return
    }
    try decode(buffer, into: &scratch)
    for message in scratch { body(message) }
  }

  /// Decodes the message at `offset`, whose header has been read and whose `length` (at least a header, within
  /// the datagram) checked.
  private static func decodeMessage(at offset: Int, length: Int, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> NetlinkMessage
  {
    let type = reader.u16(offset + 4)
    let flags = reader.u16(offset + 6)
    let sequence = reader.u32(offset + 8)
    let portID = reader.u32(offset + 12)
    let body = (offset + RTNL.headerLength)..<(offset + length)
    let event: NetlinkEvent
    do {
      event = try decodeBody(type: type, body: body, reader: reader)
    } catch {
      var error = error
      error.messageType = type
      throw error
    }
    return NetlinkMessage(type: type, flags: flags, sequence: sequence, portID: portID, event: event)
  }

  private static func decodeBody(type: UInt16, body: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> NetlinkEvent
  {
    switch type {
    case RTNL.NLMSG_DONE:
      // The payload is an int error code; very old kernels sent none. The kernel sends 0 or -errno; negating
      // wraps so that Int32.min (never sent, but the bytes can say anything) cannot trap.
      return .done(errno: body.count >= 4 ? 0 &- reader.i32(body.lowerBound) : 0)
    case RTNL.NLMSG_ERROR:
      guard body.count >= 4 else { throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound) }
      return .error(errno: 0 &- reader.i32(body.lowerBound))
    case RTNL.NLMSG_OVERRUN:
      return .overrun
    case RTNL.RTM_NEWLINK, RTNL.RTM_DELLINK:
      guard let link = try decodeLink(body: body, reader: reader) else { return .ignored(type: type) }
      return type == RTNL.RTM_NEWLINK ? .newLink(link) : .deletedLink(link)
    case RTNL.RTM_NEWADDR, RTNL.RTM_DELADDR:
      guard let address = try decodeAddress(body: body, reader: reader) else { return .ignored(type: type) }
      return type == RTNL.RTM_NEWADDR ? .newAddress(address) : .deletedAddress(address)
    case RTNL.RTM_NEWROUTE, RTNL.RTM_DELROUTE:
      guard let route = try decodeRoute(body: body, reader: reader) else { return .ignored(type: type) }
      return type == RTNL.RTM_NEWROUTE ? .newRoute(route) : .deletedRoute(route)
    case RTNL.RTM_NEWRULE, RTNL.RTM_DELRULE, RTNL.RTM_NEWNEXTHOP, RTNL.RTM_DELNEXTHOP:
      return .routingPolicyChanged(type: type)
    default:
      return .ignored(type: type)
    }
  }

  /// The attributes that follow a body's fixed header (`ifinfomsg`, `ifaddrmsg`, `rtmsg`) of `headerLength` bytes,
  /// all checked before any is read.
  ///
  /// - Throws: ``NetlinkDecodeError`` when the body is shorter than its header, or an attribute is malformed.
  private static func attributes(in body: Range<Int>, after headerLength: Int, reader: NetlinkByteReader)
    throws(NetlinkDecodeError) -> NetlinkAttributes
  {
    guard body.count >= headerLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    return try reader.attributes(in: (body.lowerBound + headerLength)..<body.upperBound)
  }

  /// ifinfomsg { u8 family; u8 pad; u16 type; i32 index; u32 flags; u32 change } + IFLA_* attributes.
  private static func decodeLink(body: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError) -> NetlinkLink?
  {
    let attributes = try attributes(in: body, after: RTNL.ifinfomsgLength, reader: reader)
    let start = body.lowerBound
    let family = reader.u8(start)
    var link = NetlinkLink(
      index: reader.i32(start + 4), name: "", hardwareType: reader.u16(start + 2), flags: reader.u32(start + 8),
      operationalState: nil, kind: nil, hardwareAddress: nil)
    // AF_BRIDGE link messages describe bridge-port state; an AF_BRIDGE RTM_DELLINK only means the link left
    // its bridge. Validate them, then ignore them.
    guard family != RTNL.AF_BRIDGE else { return nil }
    for attribute in attributes {
      switch attribute.type {
      case RTNL.IFLA_IFNAME:
        link.name = reader.string(attribute.value)
      case RTNL.IFLA_ADDRESS:
        link.hardwareAddress = reader.bytes(attribute.value)
      case RTNL.IFLA_MASTER:
        guard attribute.value.count >= 4 else {
          throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: attribute.value.lowerBound)
        }
        let master = reader.i32(attribute.value.lowerBound)
        link.master = master > 0 ? master : nil
      case RTNL.IFLA_OPERSTATE:
        guard attribute.value.count >= 1 else {
          throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: attribute.value.lowerBound)
        }
        link.operationalState = reader.u8(attribute.value.lowerBound)
      case RTNL.IFLA_LINKINFO:
        for info in try reader.attributes(in: attribute.value) where info.type == RTNL.IFLA_INFO_KIND {
          link.kind = reader.string(info.value)
        }
      default:
        break
      }
    }
    return link
  }

  /// ifaddrmsg { u8 family; u8 prefixlen; u8 flags; u8 scope; u32 index } + IFA_* attributes.
  private static func decodeAddress(body: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> NetlinkAddress?
  {
    let attributes = try attributes(in: body, after: RTNL.ifaddrmsgLength, reader: reader)
    let start = body.lowerBound
    let family = reader.u8(start)
    guard family == RTNL.AF_INET || family == RTNL.AF_INET6 else { return nil }
    var local: IPAddressBytes?
    var address: IPAddressBytes?
    var flags = UInt32(reader.u8(start + 2))
    for attribute in attributes {
      switch attribute.type {
      case RTNL.IFA_LOCAL:
        local = try reader.ipAddress(attribute.value, family: family)
      case RTNL.IFA_ADDRESS:
        address = try reader.ipAddress(attribute.value, family: family)
      case RTNL.IFA_FLAGS:
        flags = try reader.u32Value(attribute.value)
      default:
        break
      }
    }
    // On point-to-point links IFA_ADDRESS is the peer; IFA_LOCAL is always our own address.
    guard let own = local ?? address else {
      throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: start)
    }
    return NetlinkAddress(
      interfaceIndex: Int32(bitPattern: reader.u32(start + 4)), address: own, prefixLength: reader.u8(start + 1),
      flags: flags, scope: reader.u8(start + 3))
  }

  /// rtmsg { u8 family, dst_len, src_len, tos, table, protocol, scope, type; u32 flags } + RTA_* attributes.
  static func decodeRoute(body: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError) -> NetlinkRoute? {
    let attributes = try attributes(in: body, after: RTNL.rtmsgLength, reader: reader)
    let start = body.lowerBound
    let family = reader.u8(start)
    guard family == RTNL.AF_INET || family == RTNL.AF_INET6 else { return nil }
    // The attributes' fields in locals, the route made once at the end: a route made first and filled in would be
    // copied into the result and then destroyed, on every route notification and lookup answer.
    var destination: IPAddressBytes?
    var table = UInt32(reader.u8(start + 4))
    var priority: UInt32 = 0
    var interfaceIndex: Int32?
    var gateway: IPAddressBytes?
    var preferredSource: IPAddressBytes?
    var nexthopID: UInt32?
    var multipath: [NetlinkNextHop] = []
    for attribute in attributes {
      switch attribute.type {
      case RTNL.RTA_DST:
        destination = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_OIF:
        interfaceIndex = Int32(bitPattern: try reader.u32Value(attribute.value))
      case RTNL.RTA_GATEWAY:
        gateway = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_VIA:
        gateway = try reader.via(attribute.value)
      case RTNL.RTA_PRIORITY:
        priority = try reader.u32Value(attribute.value)
      case RTNL.RTA_PREFSRC:
        preferredSource = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_NH_ID:
        nexthopID = try reader.u32Value(attribute.value)
      case RTNL.RTA_TABLE:
        table = try reader.u32Value(attribute.value)
      case RTNL.RTA_MULTIPATH:
        multipath = try reader.nextHops(attribute.value, family: family)
      default:
        break
      }
    }
    let destinationLength = reader.u8(start + 1)
    return NetlinkRoute(
      family: family, destinationLength: destinationLength, destination: destinationLength == 0 ? nil : destination,
      tos: reader.u8(start + 3), table: table, routingProtocol: reader.u8(start + 5), scope: reader.u8(start + 6),
      type: reader.u8(start + 7), flags: reader.u32(start + 8), priority: priority, interfaceIndex: interfaceIndex,
      gateway: gateway, preferredSource: preferredSource, nexthopID: nexthopID, multipath: multipath)
  }
}
