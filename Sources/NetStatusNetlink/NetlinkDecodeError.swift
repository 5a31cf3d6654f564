/// Why a datagram from rtnetlink (or generic netlink: ``GenericNetlinkDecoder``) could not be decoded.
///
/// The decoders never trap: every length they read is checked against the buffer first, and any
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
    /// The message is too short for its fixed family header (ifinfomsg, ifaddrmsg, rtmsg, nlmsgerr, genlmsghdr).
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
    /// A generic netlink message lacks an attribute it means nothing without (nl80211's interface index,
    /// the controller's family id, a multicast group's name or id).
    case missingAttribute
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
