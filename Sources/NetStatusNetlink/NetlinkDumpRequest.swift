/// The two dumps that rebuild the mirrored state (links, then addresses), in the order they are asked for,
/// and their bytes. Routes are never dumped: the kernel's route lookup answers for them.
///
/// Pure: the socket sends what ``bytes(sequence:)`` returns.
package enum NetlinkDumpRequest: CaseIterable, Sendable {
  /// RTM_GETLINK: every interface.
  case links
  /// RTM_GETADDR: every address of both families.
  case addresses

  /// The request's message type.
  package var messageType: UInt16 {
    switch self {
    case .links: return RTNL.RTM_GETLINK
    case .addresses: return RTNL.RTM_GETADDR
    }
  }

  /// The length of the family header that follows nlmsghdr (ifinfomsg or ifaddrmsg), all zeros: AF_UNSPEC,
  /// no filter.
  private var familyHeaderLength: Int {
    switch self {
    case .links: return RTNL.ifinfomsgLength
    case .addresses: return RTNL.ifaddrmsgLength
    }
  }

  /// The request's bytes: nlmsghdr (NLM_F_REQUEST | NLM_F_DUMP) and a zeroed family header.
  package func bytes(sequence: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(RTNL.headerLength + familyHeaderLength)
    bytes.appendNetlinkHeader(
      length: RTNL.headerLength + familyHeaderLength, type: messageType, flags: RTNL.NLM_F_REQUEST | RTNL.NLM_F_DUMP,
      sequence: sequence)
    bytes.append(contentsOf: repeatElement(0, count: familyHeaderLength))
    return bytes
  }
}

extension [UInt8] {
  /// Appends an integer in host byte order, as netlink reads it.
  package mutating func appendHostOrder<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value) { append(contentsOf: $0) }
  }

  /// Appends a request's nlmsghdr: length, type, flags, sequence and port 0 (the kernel fills in ours).
  package mutating func appendNetlinkHeader(length: Int, type: UInt16, flags: UInt16, sequence: UInt32) {
    appendHostOrder(UInt32(length))
    appendHostOrder(type)
    appendHostOrder(flags)
    appendHostOrder(sequence)
    appendHostOrder(UInt32(0))
  }

  /// Appends one attribute (`struct rtattr` and its value, padded to 4 bytes).
  package mutating func appendAttribute(type: UInt16, value: some Collection<UInt8>) {
    let length = RTNL.attributeHeaderLength + value.count
    appendHostOrder(UInt16(length))
    appendHostOrder(type)
    append(contentsOf: value)
    append(contentsOf: repeatElement(0, count: RTNL.align(length) - length))
  }
}
