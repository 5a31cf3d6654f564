/// The three dumps that rebuild the kernel's state, in the order they are asked for, and their bytes.
///
/// Pure: the socket sends what ``bytes(sequence:)`` returns.
enum NetlinkDumpRequest: CaseIterable, Sendable {
  /// RTM_GETLINK: every interface.
  case links
  /// RTM_GETADDR: every address of both families.
  case addresses
  /// RTM_GETROUTE: every route of both families, in every table.
  case routes

  /// The request's message type.
  var messageType: UInt16 {
    switch self {
    case .links: return RTNL.RTM_GETLINK
    case .addresses: return RTNL.RTM_GETADDR
    case .routes: return RTNL.RTM_GETROUTE
    }
  }

  /// The length of the family header that follows nlmsghdr (ifinfomsg, ifaddrmsg or rtmsg), all zeros:
  /// AF_UNSPEC, no filter.
  private var familyHeaderLength: Int {
    switch self {
    case .links: return RTNL.ifinfomsgLength
    case .addresses: return RTNL.ifaddrmsgLength
    case .routes: return RTNL.rtmsgLength
    }
  }

  /// The request's bytes: nlmsghdr (NLM_F_REQUEST | NLM_F_DUMP) and a zeroed family header.
  func bytes(sequence: UInt32) -> [UInt8] {
    let length = RTNL.headerLength + familyHeaderLength
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }
    append(UInt32(length))
    append(messageType)
    append(RTNL.NLM_F_REQUEST | RTNL.NLM_F_DUMP)
    append(sequence)
    append(UInt32(0))  // nlmsg_pid: the kernel fills in our port
    bytes.append(contentsOf: repeatElement(0, count: familyHeaderLength))
    return bytes
  }
}
