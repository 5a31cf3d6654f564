/// Why a datagram from rtnetlink could not be decoded.
///
/// The decoder never traps: every length it reads is checked against the buffer first, and any
/// inconsistency ends up here. The event loop answers it by re-dumping the kernel's state.
package struct NetlinkDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong.
  package enum Reason: String, Sendable, Hashable {
    /// Fewer bytes are left than a message header (16 bytes) needs.
    case truncatedHeader
    /// `nlmsg_len` is smaller than the header itself (zero included).
    case messageLengthTooSmall
    /// `nlmsg_len` reaches past the end of the datagram.
    case messageLengthPastEnd
    /// The message is too short for its fixed family header (ifinfomsg, ifaddrmsg, rtmsg, nlmsgerr).
    case truncatedPayload
    /// Fewer bytes are left than an attribute header (4 bytes) needs.
    case truncatedAttribute
    /// `rta_len` is smaller than the attribute header (zero included).
    case attributeLengthTooSmall
    /// `rta_len` reaches past the end of its message (or of its enclosing attribute).
    case attributeOutOfBounds
    /// An attribute's value has the wrong size for its type (an IPv4 address that is not 4 bytes…).
    case invalidAttributeValue
    /// A multipath next hop's `rtnh_len` is too small or reaches past its attribute.
    case invalidNextHop
  }

  /// What was wrong.
  package var reason: Reason
  /// The byte offset in the datagram where it was found.
  package var offset: Int
  /// The type of the message being decoded, when its header was readable.
  package var messageType: UInt16?

  package var description: String {
    let type = messageType.map { " (message type \($0))" } ?? ""
    return "malformed rtnetlink data at byte \(offset)\(type): \(reason.rawValue)"
  }
}

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
    let reader = ByteReader(buffer: buffer)
    var offset = 0
    while offset < buffer.count {
      guard buffer.count - offset >= RTNL.headerLength else {
        throw NetlinkDecodeError(reason: .truncatedHeader, offset: offset)
      }
      let length = Int(reader.u32(offset))
      let type = reader.u16(offset + 4)
      guard length >= RTNL.headerLength else {
        throw NetlinkDecodeError(reason: .messageLengthTooSmall, offset: offset, messageType: type)
      }
      guard length <= buffer.count - offset else {
        throw NetlinkDecodeError(reason: .messageLengthPastEnd, offset: offset, messageType: type)
      }
      messages.append(try decodeMessage(at: offset, length: length, reader: reader))
      // The last message of a datagram may lack its alignment padding.
      offset = min(buffer.count, offset + RTNL.align(length))
    }
  }

  /// Calls `body` with every message of the datagram in `buffer`, in order, once the whole datagram has decoded:
  /// an undecodable datagram gives nothing, as with ``decode(_:)``. A datagram of one message, the event loop's
  /// common case, is decoded without an array; others are decoded into `scratch`, whose storage is reused.
  package static func forEachMessage(
    in buffer: UnsafeRawBufferPointer, using scratch: inout [NetlinkMessage], _ body: (NetlinkMessage) -> Void
  ) throws(NetlinkDecodeError) {
    if buffer.count >= RTNL.headerLength {
      let length = Int(buffer.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
      // One message: the datagram ends within its alignment padding (the checks `append` makes of it).
      if length >= RTNL.headerLength, length <= buffer.count, RTNL.align(length) >= buffer.count {
        body(try decodeMessage(at: 0, length: length, reader: ByteReader(buffer: buffer)))
        return
      }
    }
    try decode(buffer, into: &scratch)
    for message in scratch { body(message) }
  }

  /// A reply to one of our route lookups: its sequence number, and what it says of the lookup.
  package struct LookupReply: Sendable, Hashable {
    /// `nlmsg_seq`: the lookup's sequence number.
    package var sequence: UInt32
    /// The answer (RTM_NEWROUTE) or the failure (NLMSG_ERROR with a non-zero errno); `nil` when the message says
    /// nothing of the lookup (an acknowledgement, a route of another family).
    package var result: RouteLookupResult?

    /// A reply with these fields.
    package init(sequence: UInt32, result: RouteLookupResult?) {
      self.sequence = sequence
      self.result = result
    }
  }

  /// The reply to a route lookup that `buffer` holds, decoded without a ``NetlinkMessage``, when the datagram is one
  /// RTM_NEWROUTE or NLMSG_ERROR message for port `portID` (the kernel answers each lookup in a datagram of its
  /// own); `nil` for any other datagram, which ``forEachMessage(in:using:_:)`` decodes instead.
  ///
  /// Only what the evaluator reads is kept (``RouteLookupAnswer``), but the message is checked exactly as
  /// ``decode(_:)`` checks it: this throws where, and only where, that throws for the datagram, and the result is
  /// what ``RouteLookupResult/route(_:)`` makes of the route ``decode(_:)`` gives (`NetlinkFuzzing` checks both).
  package static func lookupReply(in buffer: UnsafeRawBufferPointer, portID: UInt32) throws(NetlinkDecodeError)
    -> LookupReply?
  {
    guard let header = soleMessage(in: buffer), header.portID == portID else { return nil }
    let reader = ByteReader(buffer: buffer)
    switch header.type {
    case RTNL.RTM_NEWROUTE:
      let route = try decodeRouteFields(header, reader: reader)
      return LookupReply(sequence: header.sequence, result: route.map { .answered($0.answer) })
    case RTNL.NLMSG_ERROR:
      guard header.body.count >= 4 else {
        throw NetlinkDecodeError(
          reason: .truncatedPayload, offset: header.body.lowerBound, messageType: RTNL.NLMSG_ERROR)
      }
      let code = 0 &- reader.i32(header.body.lowerBound)
      return LookupReply(sequence: header.sequence, result: code == 0 ? nil : .failed(errno: code))
    default:
      return nil
    }
  }

  /// A route message (RTM_NEWROUTE or RTM_DELROUTE) alone in its datagram, reduced to what the event loop reads of
  /// it: its header, and the fields of ``RouteFields``.
  package struct RouteMessage: Sendable, Hashable {
    /// `nlmsg_type`: RTM_NEWROUTE or RTM_DELROUTE.
    package var type: UInt16
    /// `nlmsg_seq`.
    package var sequence: UInt32
    /// `nlmsg_pid`.
    package var portID: UInt32
    /// The route; `nil` for a family other than IPv4 and IPv6, which ``decode(_:)`` ignores.
    package var route: RouteFields?

    /// A route message with these fields.
    package init(type: UInt16, sequence: UInt32, portID: UInt32, route: RouteFields?) {
      self.type = type
      self.sequence = sequence
      self.portID = portID
      self.route = route
    }
  }

  /// The route message `buffer` holds, decoded without a ``NetlinkMessage``, when the datagram is one RTM_NEWROUTE
  /// or RTM_DELROUTE message (as the kernel sends each route notification); `nil` for any other datagram.
  ///
  /// Checked exactly as ``decode(_:)`` checks it: this throws where, and only where, that throws for the datagram,
  /// and the fields are those of the route ``decode(_:)`` gives (`NetlinkFuzzing` checks both).
  package static func routeMessage(in buffer: UnsafeRawBufferPointer) throws(NetlinkDecodeError) -> RouteMessage? {
    guard let header = soleMessage(in: buffer),
      header.type == RTNL.RTM_NEWROUTE || header.type == RTNL.RTM_DELROUTE
    else { return nil }
    let route = try decodeRouteFields(header, reader: ByteReader(buffer: buffer))
    return RouteMessage(type: header.type, sequence: header.sequence, portID: header.portID, route: route)
  }

  /// The header of the one message of a datagram.
  private struct SoleMessage {
    package var type: UInt16
    package var sequence: UInt32
    package var portID: UInt32
    /// Where the message's payload is in the datagram.
    package var body: Range<Int>
  }

  /// The header of `buffer`'s message when the datagram holds exactly one (it ends within the message's alignment
  /// padding: the checks `append` makes of it), else `nil`.
  private static func soleMessage(in buffer: UnsafeRawBufferPointer) -> SoleMessage? {
    guard buffer.count >= RTNL.headerLength else { return nil }
    let reader = ByteReader(buffer: buffer)
    let length = Int(reader.u32(0))
    guard length >= RTNL.headerLength, length <= buffer.count, RTNL.align(length) >= buffer.count else { return nil }
    return SoleMessage(
      type: reader.u16(4), sequence: reader.u32(8), portID: reader.u32(12), body: RTNL.headerLength..<length)
  }

  /// ``decodeRoute(body:reader:)`` for the message `header` describes, keeping only ``RouteFields``, with the same
  /// checks in the same order of every attribute that one reads (the nexthop ID and the next hops are checked, not
  /// kept); an error carries the message's type, as ``decodeMessage(at:length:reader:)`` gives it.
  private static func decodeRouteFields(_ header: SoleMessage, reader: ByteReader) throws(NetlinkDecodeError)
    -> RouteFields?
  {
    do throws(NetlinkDecodeError) {
      return try decodeRouteFields(body: header.body, reader: reader)
    } catch {
      var error = error
      error.messageType = header.type
      throw error
    }
  }

  private static func decodeRouteFields(body: Range<Int>, reader: ByteReader) throws(NetlinkDecodeError)
    -> RouteFields?
  {
    guard body.count >= RTNL.rtmsgLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    let start = body.lowerBound
    let family = reader.u8(start)
    let attributes = try reader.attributes(in: (start + RTNL.rtmsgLength)..<body.upperBound)
    guard family == RTNL.AF_INET || family == RTNL.AF_INET6 else { return nil }
    var route = RouteFields(
      answer: RouteLookupAnswer(
        type: reader.u8(start + 7), table: UInt32(reader.u8(start + 4)), priority: 0, interfaceIndex: nil,
        gateway: nil, preferredSource: nil),
      family: family, destinationLength: reader.u8(start + 1), destination: nil)
    for attribute in attributes {
      switch attribute.type {
      case RTNL.RTA_DST:
        route.destination = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_OIF:
        route.answer.interfaceIndex = Int32(bitPattern: try reader.u32Value(attribute.value))
      case RTNL.RTA_GATEWAY:
        route.answer.gateway = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_VIA:
        route.answer.gateway = try reader.via(attribute.value)
      case RTNL.RTA_PRIORITY:
        route.answer.priority = try reader.u32Value(attribute.value)
      case RTNL.RTA_PREFSRC:
        route.answer.preferredSource = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_NH_ID:
        _ = try reader.u32Value(attribute.value)
      case RTNL.RTA_TABLE:
        route.answer.table = try reader.u32Value(attribute.value)
      case RTNL.RTA_MULTIPATH:
        _ = try reader.nextHops(attribute.value, family: family)
      default:
        break
      }
    }
    if route.destinationLength == 0 { route.destination = nil }
    return route
  }

  /// Decodes the message at `offset`, whose header has been read and whose `length` (at least a header, within
  /// the datagram) checked.
  private static func decodeMessage(at offset: Int, length: Int, reader: ByteReader) throws(NetlinkDecodeError)
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

  private static func decodeBody(type: UInt16, body: Range<Int>, reader: ByteReader) throws(NetlinkDecodeError)
    -> NetlinkEvent
  {
    switch type {
    case RTNL.NLMSG_DONE:
      // The payload is an int error code; very old kernels sent none. The kernel sends 0 or -errno; negating
      // wraps so that Int32.min (never sent, but the bytes can say anything) cannot trap (found by the fuzzer).
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

  /// ifinfomsg { u8 family; u8 pad; u16 type; i32 index; u32 flags; u32 change } + IFLA_* attributes.
  private static func decodeLink(body: Range<Int>, reader: ByteReader) throws(NetlinkDecodeError) -> NetlinkLink? {
    guard body.count >= RTNL.ifinfomsgLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    let start = body.lowerBound
    let family = reader.u8(start)
    var link = NetlinkLink(
      index: reader.i32(start + 4), name: "", hardwareType: reader.u16(start + 2), flags: reader.u32(start + 8),
      operationalState: nil, kind: nil, hardwareAddress: nil)
    let attributes = try reader.attributes(in: (start + RTNL.ifinfomsgLength)..<body.upperBound)
    // AF_BRIDGE link messages describe bridge-port state; an AF_BRIDGE RTM_DELLINK only means the link left
    // its bridge. Validate them, then ignore them.
    guard family != RTNL.AF_BRIDGE else { return nil }
    for attribute in attributes {
      switch attribute.type {
      case RTNL.IFLA_IFNAME:
        link.name = reader.string(attribute.value)
      case RTNL.IFLA_ADDRESS:
        link.hardwareAddress = reader.bytes(attribute.value)
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
  private static func decodeAddress(body: Range<Int>, reader: ByteReader) throws(NetlinkDecodeError)
    -> NetlinkAddress?
  {
    guard body.count >= RTNL.ifaddrmsgLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    let start = body.lowerBound
    let family = reader.u8(start)
    let attributes = try reader.attributes(in: (start + RTNL.ifaddrmsgLength)..<body.upperBound)
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
  private static func decodeRoute(body: Range<Int>, reader: ByteReader) throws(NetlinkDecodeError) -> NetlinkRoute? {
    guard body.count >= RTNL.rtmsgLength else {
      throw NetlinkDecodeError(reason: .truncatedPayload, offset: body.lowerBound)
    }
    let start = body.lowerBound
    let family = reader.u8(start)
    let attributes = try reader.attributes(in: (start + RTNL.rtmsgLength)..<body.upperBound)
    guard family == RTNL.AF_INET || family == RTNL.AF_INET6 else { return nil }
    var route = NetlinkRoute(
      family: family, destinationLength: reader.u8(start + 1), destination: nil, tos: reader.u8(start + 3),
      table: UInt32(reader.u8(start + 4)), routingProtocol: reader.u8(start + 5), scope: reader.u8(start + 6),
      type: reader.u8(start + 7), flags: reader.u32(start + 8), priority: 0, interfaceIndex: nil, gateway: nil,
      preferredSource: nil, nexthopID: nil, multipath: [])
    for attribute in attributes {
      switch attribute.type {
      case RTNL.RTA_DST:
        route.destination = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_OIF:
        route.interfaceIndex = Int32(bitPattern: try reader.u32Value(attribute.value))
      case RTNL.RTA_GATEWAY:
        route.gateway = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_VIA:
        route.gateway = try reader.via(attribute.value)
      case RTNL.RTA_PRIORITY:
        route.priority = try reader.u32Value(attribute.value)
      case RTNL.RTA_PREFSRC:
        route.preferredSource = try reader.ipAddress(attribute.value, family: family)
      case RTNL.RTA_NH_ID:
        route.nexthopID = try reader.u32Value(attribute.value)
      case RTNL.RTA_TABLE:
        route.table = try reader.u32Value(attribute.value)
      case RTNL.RTA_MULTIPATH:
        route.multipath = try reader.nextHops(attribute.value, family: family)
      default:
        break
      }
    }
    if route.destinationLength == 0 { route.destination = nil }
    return route
  }
}

/// One attribute: its type (without the NLA_F_NESTED / NLA_F_NET_BYTEORDER bits) and the range of its value.
package struct NetlinkAttribute: Sendable, Hashable {
  package var type: UInt16
  package var value: Range<Int>
}

/// Attribute records already checked by `ByteReader.attributes(in:)`, walked in order without checking them again.
private struct NetlinkAttributes: Sequence, IteratorProtocol {
  /// The datagram.
  package let buffer: UnsafeRawBufferPointer
  /// Where the next record starts.
  package var offset: Int
  /// Where the records end.
  package let end: Int

  /// The next attribute, or `nil` after the last.
  package mutating func next() -> NetlinkAttribute? {
    guard offset < end else { return nil }
    let length = Int(buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    let type = buffer.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self) & RTNL.NLA_TYPE_MASK
    let attribute = NetlinkAttribute(type: type, value: (offset + RTNL.attributeHeaderLength)..<(offset + length))
    offset = Swift.min(end, offset + RTNL.align(length))
    return attribute
  }
}

/// Bounds-checked reads from a datagram. Callers check ranges before the fixed-offset reads; the
/// attribute walkers check every length they read.
private struct ByteReader {
  package let buffer: UnsafeRawBufferPointer

  package func u8(_ offset: Int) -> UInt8 { buffer[offset] }
  package func u16(_ offset: Int) -> UInt16 { buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
  package func u32(_ offset: Int) -> UInt32 { buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
  package func i32(_ offset: Int) -> Int32 { buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self) }

  package func bytes(_ range: Range<Int>) -> [UInt8] { Array(buffer[range]) }

  /// A NUL-terminated (or unterminated) string; invalid UTF-8 is repaired, never trapped on.
  package func string(_ range: Range<Int>) -> String {
    let slice = buffer[range]
    let end = slice.firstIndex(of: 0) ?? range.upperBound
    return String(decoding: buffer[range.lowerBound..<end], as: UTF8.self)
  }

  package func u32Value(_ range: Range<Int>) throws(NetlinkDecodeError) -> UInt32 {
    guard range.count >= 4 else { throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound) }
    return u32(range.lowerBound)
  }

  package func ipAddress(_ range: Range<Int>, family: UInt8) throws(NetlinkDecodeError) -> IPAddressBytes {
    let expected = family == RTNL.AF_INET ? 4 : 16
    guard range.count == expected else {
      throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound)
    }
    return IPAddressBytes(reading: buffer, at: range.lowerBound, ipv4: expected == 4)
  }

  /// struct rtvia { u16 family; u8 addr[] }: an IPv4 route's IPv6 next hop, for example.
  package func via(_ range: Range<Int>) throws(NetlinkDecodeError) -> IPAddressBytes {
    guard range.count >= 2 else { throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound) }
    let family = u16(range.lowerBound)
    guard family == UInt16(RTNL.AF_INET) || family == UInt16(RTNL.AF_INET6) else {
      throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound)
    }
    return try ipAddress((range.lowerBound + 2)..<range.upperBound, family: UInt8(family))
  }

  /// Checks the `struct rtattr { u16 len; u16 type; }` records filling `range` exactly, and returns them to walk.
  /// The whole range is checked first, so a malformed record is reported before any attribute's value is read;
  /// the walk itself then allocates nothing.
  package func attributes(in range: Range<Int>) throws(NetlinkDecodeError) -> NetlinkAttributes {
    var offset = range.lowerBound
    while offset < range.upperBound {
      guard range.upperBound - offset >= RTNL.attributeHeaderLength else {
        throw NetlinkDecodeError(reason: .truncatedAttribute, offset: offset)
      }
      let length = Int(u16(offset))
      guard length >= RTNL.attributeHeaderLength else {
        throw NetlinkDecodeError(reason: .attributeLengthTooSmall, offset: offset)
      }
      guard length <= range.upperBound - offset else {
        throw NetlinkDecodeError(reason: .attributeOutOfBounds, offset: offset)
      }
      offset = min(range.upperBound, offset + RTNL.align(length))
    }
    return NetlinkAttributes(buffer: buffer, offset: range.lowerBound, end: range.upperBound)
  }

  /// Walks RTA_MULTIPATH's `struct rtnexthop { u16 len; u8 flags; u8 hops; i32 ifindex; }` records, each
  /// followed by its own attributes (RTA_GATEWAY, RTA_VIA).
  package func nextHops(_ range: Range<Int>, family: UInt8) throws(NetlinkDecodeError) -> [NetlinkNextHop] {
    var result: [NetlinkNextHop] = []
    var offset = range.lowerBound
    while offset < range.upperBound {
      guard range.upperBound - offset >= RTNL.rtnexthopLength else {
        throw NetlinkDecodeError(reason: .invalidNextHop, offset: offset)
      }
      let length = Int(u16(offset))
      guard length >= RTNL.rtnexthopLength, length <= range.upperBound - offset else {
        throw NetlinkDecodeError(reason: .invalidNextHop, offset: offset)
      }
      var hop = NetlinkNextHop(interfaceIndex: i32(offset + 4), gateway: nil, flags: UInt32(u8(offset + 2)))
      if hop.interfaceIndex == 0 { hop.interfaceIndex = nil }
      for attribute in try attributes(in: (offset + RTNL.rtnexthopLength)..<(offset + length)) {
        if attribute.type == RTNL.RTA_GATEWAY {
          hop.gateway = try ipAddress(attribute.value, family: family)
        } else if attribute.type == RTNL.RTA_VIA {
          hop.gateway = try via(attribute.value)
        }
      }
      result.append(hop)
      offset = min(range.upperBound, offset + RTNL.align(length))
    }
    return result
  }
}
