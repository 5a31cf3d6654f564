/// One question to the kernel's own routing decision: what `ip route get [fibmatch] DEST [oif IF]` asks
/// (an RTM_GETROUTE request without NLM_F_DUMP).
///
/// The answer is the route the kernel would really use for an off-link destination, after rules, tables,
/// metrics, route types, nexthop objects and multipath, with its out interface, gateway and the source
/// address it would pick. NetStatus keeps no copy of the routing table; these lookups are how it learns
/// about routes. No packet is sent: a lookup only consults the routing tables.
///
/// The destinations are fixed public addresses, ``ipv4Destination`` and ``ipv6Destination``: any
/// off-link address gives the default path, and a well-known one keeps the answer comparable with
/// `ip route get` (the differential tests do exactly that). A split default route (`0.0.0.0/1` and
/// `128.0.0.0/1` through a tunnel, as OpenVPN's `redirect-gateway def1` installs) contains them, so the
/// tunnel is the path, as it is for all traffic. A split tunnel that routes only some prefixes through a VPN
/// does not contain them, so the path is the one to the internet at large.
///
/// Pure: the event loop sends what ``append(to:sequence:)`` writes.
package struct RouteLookupRequest: Sendable, Hashable {
  /// The IPv4 destination looked up: 8.8.8.8.
  package static let ipv4Destination = IPAddressBytes([8, 8, 8, 8])!
  /// The IPv6 destination looked up: 2001:4860:4860::8888.
  package static let ipv6Destination = IPAddressBytes([
    0x20, 0x01, 0x48, 0x60, 0x48, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x88,
  ])!

  /// Whether this is an IPv4 lookup (else IPv6).
  package var ipv4: Bool
  /// The out interface the lookup is restricted to (RTA_OIF), or `nil` for the kernel's own choice.
  package var interfaceIndex: Int32?
  /// Whether to ask for the matched FIB entry (RTM_F_FIB_MATCH) instead of the resolved route. With an out
  /// interface, only this tells a real route through it from the on-link route the kernel makes up when
  /// no route matches.
  package var fibMatch: Bool

  /// The kernel's own choice for a family: `ip route get DEST`.
  package static func primary(ipv4: Bool) -> RouteLookupRequest {
    RouteLookupRequest(ipv4: ipv4, interfaceIndex: nil, fibMatch: false)
  }

  /// The destination of this family.
  package var destination: IPAddressBytes { ipv4 ? Self.ipv4Destination : Self.ipv6Destination }

  /// The address family, AF_INET or AF_INET6.
  package var family: UInt8 { ipv4 ? RTNL.AF_INET : RTNL.AF_INET6 }

  /// Appends the request's bytes: nlmsghdr (NLM_F_REQUEST), rtmsg with the family and a host-length
  /// destination, RTA_DST and, when restricted, RTA_OIF. Written in place: this runs on every change.
  package func append(to bytes: inout [UInt8], sequence: UInt32) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: length))
    bytes.withUnsafeMutableBytes { buffer in _ = write(into: buffer, at: start, sequence: sequence) }
  }

  /// The most bytes one request takes: an IPv6 destination and an out interface.
  package static let maximumLength =
    RTNL.headerLength + RTNL.rtmsgLength + RTNL.attributeHeaderLength + 16
    + RTNL.attributeHeaderLength + 4

  /// How many bytes the request takes.
  package var length: Int {
    RTNL.headerLength + RTNL.rtmsgLength + RTNL.attributeHeaderLength + (ipv4 ? 4 : 16)
      + (interfaceIndex == nil ? 0 : RTNL.attributeHeaderLength + 4)
  }

  /// Writes the request's bytes (see ``append(to:sequence:)``) into `buffer` at `start`, which must have room for
  /// ``length`` bytes, and returns ``length``. Every byte of the request is written, padding included.
  @discardableResult
  package func write(into buffer: UnsafeMutableRawBufferPointer, at start: Int, sequence: UInt32) -> Int {
    let addressLength = ipv4 ? 4 : 16
    let destinationAttributeLength = RTNL.attributeHeaderLength + addressLength
    let interfaceAttributeLength = RTNL.attributeHeaderLength + 4
    let length = self.length
    #if _endian(little)
      // The same fields, four at a time: each word holds, from its lowest byte up, what the stores below write in
      // host order (netlink's).
      let header = UInt64(length) | UInt64(RTNL.RTM_GETROUTE) << 32 | UInt64(RTNL.NLM_F_REQUEST) << 48
      buffer.storeBytes(of: header, toByteOffset: start, as: UInt64.self)
      buffer.storeBytes(of: UInt64(sequence), toByteOffset: start + 8, as: UInt64.self)  // port 0
      let rtmsg = UInt64(family) | UInt64(addressLength * 8) << 8  // the other rtmsg bytes 0
      buffer.storeBytes(of: rtmsg, toByteOffset: start + 16, as: UInt64.self)
      let flagsAndAttribute =
        UInt64(fibMatch ? RTNL.RTM_F_FIB_MATCH : 0) | UInt64(destinationAttributeLength) << 32
        | UInt64(RTNL.RTA_DST) << 48
      buffer.storeBytes(of: flagsAndAttribute, toByteOffset: start + 24, as: UInt64.self)
    #else
      // nlmsghdr { u32 length; u16 type; u16 flags; u32 sequence; u32 port (0: the kernel fills in ours) }
      buffer.storeBytes(of: UInt32(length), toByteOffset: start, as: UInt32.self)
      buffer.storeBytes(of: RTNL.RTM_GETROUTE, toByteOffset: start + 4, as: UInt16.self)
      buffer.storeBytes(of: RTNL.NLM_F_REQUEST, toByteOffset: start + 6, as: UInt16.self)
      buffer.storeBytes(of: sequence, toByteOffset: start + 8, as: UInt32.self)
      buffer.storeBytes(of: UInt32(0), toByteOffset: start + 12, as: UInt32.self)
      // rtmsg { family, dst_len, src_len, tos, table, protocol, scope, type; u32 flags }
      buffer.storeBytes(of: family, toByteOffset: start + 16, as: UInt8.self)
      buffer.storeBytes(of: UInt8(addressLength * 8), toByteOffset: start + 17, as: UInt8.self)
      buffer.storeBytes(of: UInt32(0), toByteOffset: start + 18, as: UInt32.self)  // src_len, tos, table, protocol
      buffer.storeBytes(of: UInt16(0), toByteOffset: start + 22, as: UInt16.self)  // scope, type
      buffer.storeBytes(of: fibMatch ? RTNL.RTM_F_FIB_MATCH : 0, toByteOffset: start + 24, as: UInt32.self)
      buffer.storeBytes(of: UInt16(destinationAttributeLength), toByteOffset: start + 28, as: UInt16.self)
      buffer.storeBytes(of: RTNL.RTA_DST, toByteOffset: start + 30, as: UInt16.self)
    #endif
    destination.store(into: buffer, at: start + 32)
    if let interfaceIndex {
      let offset = start + 32 + addressLength
      buffer.storeBytes(of: UInt16(interfaceAttributeLength), toByteOffset: offset, as: UInt16.self)
      buffer.storeBytes(of: RTNL.RTA_OIF, toByteOffset: offset + 2, as: UInt16.self)
      buffer.storeBytes(of: interfaceIndex, toByteOffset: offset + 4, as: Int32.self)
    }
    return length
  }
}

extension RouteLookupRequest {
  /// Whether a notification may change the answer of a route lookup. A route that does not contain the
  /// lookup destination of its family cannot: the kernel's lookup only consults routes whose prefix
  /// contains the destination (plus rules, nexthop objects, links and addresses, which always count).
  @inlinable package static func mayChangeAnswers(_ message: NetlinkMessage) -> Bool {
    switch message.event {
    case .newLink, .deletedLink, .newAddress, .deletedAddress, .routingPolicyChanged:
      return true
    case .newRoute(let route), .deletedRoute(let route):
      return route.contains(
        route.family == RTNL.AF_INET
          ? RouteLookupRequest.ipv4Destination
          : RouteLookupRequest.ipv6Destination)
    case .done, .error, .overrun, .ignored:
      return false
    }
  }

  /// Whether a route notification, decoded to its fields (`nil`: a family that is ignored), may change the answer
  /// of a route lookup: as for the whole message, when its prefix contains the lookup destination of its family.
  @inlinable package static func mayChangeAnswers(_ route: RouteFields?) -> Bool {
    guard let route else { return false }
    return route.contains(
      route.family == RTNL.AF_INET ? RouteLookupRequest.ipv4Destination : RouteLookupRequest.ipv6Destination)
  }
}

/// What the evaluator needs of the route a lookup was answered with: the fields ``PathEvaluator`` reads, decoded
/// straight from the answer (``NetlinkMessageDecoder/lookupReply(in:portID:)``).
///
/// Plain values only, no array and no string: answers are decoded, stored and read on every change, and a whole
/// ``NetlinkRoute`` (its multipath array) would be retained and released with every copy. A multipath route's legs
/// are kept beside the answers instead (``RouteLookupAnswers/legs(for:)``).
package struct RouteLookupAnswer: Sendable, Hashable {
  /// The type (`rtm_type`: RTN_UNICAST, RTN_LOCAL…).
  package var type: UInt8
  /// The routing table (RTA_TABLE, or `rtm_table`).
  package var table: UInt32
  /// The metric (RTA_PRIORITY), 0 when absent: for a FIB-match lookup, the matched route's.
  package var priority: UInt32
  /// The outgoing interface (RTA_OIF).
  package var interfaceIndex: Int32?
  /// The gateway (RTA_GATEWAY or RTA_VIA).
  package var gateway: IPAddressBytes?
  /// The source address the kernel picked (RTA_PREFSRC).
  package var preferredSource: IPAddressBytes?
}

// In an extension, so that the struct keeps its memberwise initializer (what the tests build answers with).
extension RouteLookupAnswer {
  /// What the evaluator needs of `route`.
  package init(_ route: NetlinkRoute) {
    self.init(
      type: route.type, table: route.table, priority: route.priority, interfaceIndex: route.interfaceIndex,
      gateway: route.gateway, preferredSource: route.preferredSource)
  }
}

/// The kernel's answer to one ``RouteLookupRequest``.
package enum RouteLookupResult: Sendable, Hashable {
  /// The route the kernel would use (or, for a FIB-match lookup, the entry that matched): what the evaluator
  /// needs of it.
  case answered(RouteLookupAnswer)
  /// The lookup failed: ENETUNREACH (no route, or an unreachable route or rule), EHOSTUNREACH, EINVAL (a
  /// blackhole), EACCES (prohibit)…
  case failed(errno: Int32)

  /// The answer a lookup gets when the kernel answers with `route`.
  package static func route(_ route: NetlinkRoute) -> RouteLookupResult {
    .answered(RouteLookupAnswer(route))
  }

  /// The route's fields, when the lookup succeeded.
  package var route: RouteLookupAnswer? {
    if case .answered(let answer) = self { return answer }
    return nil
  }
}

/// The answers of one evaluation's lookups, by request.
///
/// A handful of entries (two per family and interface at most), searched linearly: on the path of every
/// change, that is cheaper than hashing the requests.
package struct RouteLookupAnswers: Sendable, ExpressibleByDictionaryLiteral {
  /// One request and its answer.
  package struct Entry: Sendable {
    package var request: RouteLookupRequest
    package var result: RouteLookupResult
  }

  /// The entries, in the order they were added.
  package private(set) var entries: [Entry] = []
  /// The legs (RTA_MULTIPATH) of the answers that are multipath routes, which only FIB-match answers are: apart from
  /// the entries, which stay plain values (``RouteLookupAnswer``).
  private var multipathLegs: [(request: RouteLookupRequest, legs: [NetlinkNextHop])] = []

  /// No answers.
  package init() {}

  /// Answers from a literal, for tests.
  package init(dictionaryLiteral elements: (RouteLookupRequest, RouteLookupResult)...) {
    for (request, result) in elements { self[request] = result }
  }

  /// How many requests have an answer.
  package var count: Int { entries.count }

  /// The answer to `request`, if it was asked and answered. Setting `nil` forgets it.
  package subscript(request: RouteLookupRequest) -> RouteLookupResult? {
    get {
      for index in entries.indices where entries[index].request == request { return entries[index].result }
      return nil
    }
    set {
      let index = entries.firstIndex { $0.request == request }
      switch (index, newValue) {
      case (let index?, let result?): entries[index].result = result
      case (let index?, nil): entries.remove(at: index)
      case (nil, let result?): entries.append(Entry(request: request, result: result))
      case (nil, nil): break
      }
    }
  }

  /// Sets the answer to `request`, and returns whether it had none before.
  @discardableResult
  package mutating func record(_ result: RouteLookupResult, for request: RouteLookupRequest) -> Bool {
    // By index, without a closure: this runs for every answer.
    for index in entries.indices where entries[index].request == request {
      entries[index].result = result
      return false
    }
    entries.append(Entry(request: request, result: result))
    return true
  }

  /// Forgets every answer, keeping the storage for the next evaluation's.
  package mutating func removeAll() {
    entries.removeAllKeepingCapacity()
    if !multipathLegs.isEmpty { multipathLegs.removeAll() }
  }

  /// The legs of the multipath route that answered `request`, with their RTNH_F_LINKDOWN and RTNH_F_DEAD flags;
  /// `nil` when the answer is not a multipath route.
  package func legs(for request: RouteLookupRequest) -> [NetlinkNextHop]? {
    multipathLegs.first { $0.request == request }?.legs
  }

  /// Keeps `legs` (a multipath answer's RTA_MULTIPATH) as the legs of `request`'s answer; no legs forget them.
  package mutating func recordLegs(_ legs: [NetlinkNextHop], for request: RouteLookupRequest) {
    multipathLegs.removeAll { $0.request == request }
    if !legs.isEmpty { multipathLegs.append((request, legs)) }
  }

  /// Adds `other`'s answers, replacing answers to the same requests.
  package mutating func merge(_ other: RouteLookupAnswers) {
    for entry in other.entries { self[entry.request] = entry.result }
    for (request, legs) in other.multipathLegs { recordLegs(legs, for: request) }
  }
}

extension Array {
  /// Removes every element and keeps the storage, like `removeAll(keepingCapacity: true)`, without going through
  /// its general `replaceSubrange` for the one or two elements the event loop keeps.
  @inlinable package mutating func removeAllKeepingCapacity() {
    while !isEmpty { removeLast() }
  }
}
