// The event loop's common datagram holds one message: a lookup's answer, or a route notification. These decode it
// without building a `NetlinkMessage`, keeping only what the loop reads, and fail exactly where `decode(_:)` fails.

extension NetlinkMessageDecoder {
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
    let reader = NetlinkByteReader(buffer: buffer)
    switch header.type {
    case RTNL.RTM_NEWROUTE:
      let route = try decodeSoleRoute(header, reader: reader)
      // A multipath route's legs are no plain values: the full decoder gives them (`forEachMessage`).
      if let route, !route.multipath.isEmpty { return nil }
      return LookupReply(sequence: header.sequence, result: route.map { .route($0) })
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
    let route = try decodeSoleRoute(header, reader: NetlinkByteReader(buffer: buffer)).map(RouteFields.init)
    return RouteMessage(type: header.type, sequence: header.sequence, portID: header.portID, route: route)
  }

  /// The header of the one message of a datagram.
  struct SoleMessage {
    package var type: UInt16
    package var sequence: UInt32
    package var portID: UInt32
    /// Where the message's payload is in the datagram.
    package var body: Range<Int>
  }

  /// The header of `buffer`'s message when the datagram holds exactly one (it ends within the message's alignment
  /// padding: the checks `append` makes of it), else `nil`.
  static func soleMessage(in buffer: UnsafeRawBufferPointer) -> SoleMessage? {
    guard buffer.count >= RTNL.headerLength else { return nil }
    let reader = NetlinkByteReader(buffer: buffer)
    let length = Int(reader.u32(0))
    guard length >= RTNL.headerLength, length <= buffer.count, RTNL.align(length) >= buffer.count else { return nil }
    return SoleMessage(
      type: reader.u16(4), sequence: reader.u32(8), portID: reader.u32(12), body: RTNL.headerLength..<length)
  }

  /// ``decodeRoute(body:reader:)`` for the message `header` describes: the same checks, so the fast path fails
  /// exactly where ``decode(_:)`` does; an error carries the message's type, as ``decodeMessage(at:length:reader:)``
  /// gives it.
  private static func decodeSoleRoute(_ header: SoleMessage, reader: NetlinkByteReader) throws(NetlinkDecodeError)
    -> NetlinkRoute?
  {
    do throws(NetlinkDecodeError) {
      return try decodeRoute(body: header.body, reader: reader)
    } catch {
      var error = error
      error.messageType = header.type
      throw error
    }
  }
}
