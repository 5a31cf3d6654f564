/// One attribute: its type (without the NLA_F_NESTED / NLA_F_NET_BYTEORDER bits) and the range of its value.
package struct NetlinkAttribute: Sendable, Hashable {
  package var type: UInt16
  package var value: Range<Int>
}

/// Attribute records already checked by `NetlinkByteReader.attributes(in:)`, walked in order without checking them again.
struct NetlinkAttributes: Sequence, IteratorProtocol {
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
struct NetlinkByteReader {
  package let buffer: UnsafeRawBufferPointer

  package func u8(_ offset: Int) -> UInt8 { buffer[offset] }
  package func u16(_ offset: Int) -> UInt16 { buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
  package func u32(_ offset: Int) -> UInt32 { buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
  package func i32(_ offset: Int) -> Int32 { buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self) }

  package func bytes(_ range: Range<Int>) -> [UInt8] { Array(buffer[range]) }

  /// Walks the messages of the datagram in ``buffer``, as rtnetlink and generic netlink frame them alike: checks
  /// each `nlmsghdr`'s length against the datagram and calls `body` with the message's offset, length and type, then
  /// steps to the next aligned header (the last message may lack its padding).
  ///
  /// - Throws: ``NetlinkDecodeError`` for a truncated header or a length that is too small or runs past the end, and
  ///   what `body` throws.
  @inline(__always)
  func forEachMessage(
    _ body: (_ offset: Int, _ length: Int, _ type: UInt16) throws(NetlinkDecodeError) -> Void
  ) throws(NetlinkDecodeError) {
    var offset = 0
    while offset < buffer.count {
      guard buffer.count - offset >= RTNL.headerLength else {
        throw NetlinkDecodeError(reason: .truncatedHeader, offset: offset)
      }
      let length = Int(u32(offset))
      let type = u16(offset + 4)
      guard length >= RTNL.headerLength else {
        throw NetlinkDecodeError(reason: .messageLengthTooSmall, offset: offset, messageType: type)
      }
      guard length <= buffer.count - offset else {
        throw NetlinkDecodeError(reason: .messageLengthPastEnd, offset: offset, messageType: type)
      }
      try body(offset, length, type)
      offset = min(buffer.count, offset + RTNL.align(length))
    }
  }

  /// A NUL-terminated (or unterminated) string, as a name the system gives (``SystemName``): every byte said, two
  /// names never alike, never trapped on.
  package func string(_ range: Range<Int>) -> String {
    let slice = buffer[range]
    let end = slice.firstIndex(of: 0) ?? range.upperBound
    return SystemName.decode(buffer[range.lowerBound..<end])
  }

  /// The `u8` an attribute's value holds (its first byte).
  ///
  /// - Throws: ``NetlinkDecodeError/Reason/invalidAttributeValue`` when the value is empty.
  package func u8Value(_ range: Range<Int>) throws(NetlinkDecodeError) -> UInt8 {
    guard range.count >= 1 else { throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound) }
    return u8(range.lowerBound)
  }

  /// The `u16` an attribute's value holds, in host order.
  ///
  /// - Throws: ``NetlinkDecodeError/Reason/invalidAttributeValue`` when the value is shorter than 2 bytes.
  package func u16Value(_ range: Range<Int>) throws(NetlinkDecodeError) -> UInt16 {
    guard range.count >= 2 else { throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: range.lowerBound) }
    return u16(range.lowerBound)
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
