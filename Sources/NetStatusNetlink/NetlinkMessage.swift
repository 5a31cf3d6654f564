/// rtnetlink's numbers, spelled out in Swift so the decoder and the evaluator need no C headers and compile
/// (and can be fuzzed) on every platform. The values are the kernel's ABI (`linux/netlink.h`,
/// `linux/rtnetlink.h`, `linux/if_link.h`, `linux/if_addr.h`, `linux/if_arp.h`, `linux/if.h`).
package enum RTNL {
  // nlmsghdr
  package static let headerLength = 16
  package static let NLMSG_NOOP: UInt16 = 1
  package static let NLMSG_ERROR: UInt16 = 2
  package static let NLMSG_DONE: UInt16 = 3
  package static let NLMSG_OVERRUN: UInt16 = 4
  package static let NLM_F_REQUEST: UInt16 = 0x01
  package static let NLM_F_MULTI: UInt16 = 0x02
  package static let NLM_F_ACK: UInt16 = 0x04
  package static let NLM_F_DUMP_INTR: UInt16 = 0x10
  package static let NLM_F_ROOT: UInt16 = 0x100
  package static let NLM_F_MATCH: UInt16 = 0x200
  package static let NLM_F_DUMP: UInt16 = NLM_F_ROOT | NLM_F_MATCH
  package static let NLM_F_REPLACE: UInt16 = 0x100  // on NEW requests and notifications, same bit as NLM_F_ROOT

  // message types
  package static let RTM_NEWLINK: UInt16 = 16
  package static let RTM_DELLINK: UInt16 = 17
  package static let RTM_GETLINK: UInt16 = 18
  package static let RTM_NEWADDR: UInt16 = 20
  package static let RTM_DELADDR: UInt16 = 21
  package static let RTM_GETADDR: UInt16 = 22
  package static let RTM_NEWROUTE: UInt16 = 24
  package static let RTM_DELROUTE: UInt16 = 25
  package static let RTM_GETROUTE: UInt16 = 26
  package static let RTM_NEWRULE: UInt16 = 32
  package static let RTM_DELRULE: UInt16 = 33
  package static let RTM_NEWNEXTHOP: UInt16 = 104
  package static let RTM_DELNEXTHOP: UInt16 = 105

  // multicast groups, as bind() masks (RTMGRP_*)
  package static let RTMGRP_LINK: UInt32 = 0x1
  package static let RTMGRP_IPV4_IFADDR: UInt32 = 0x10
  package static let RTMGRP_IPV4_ROUTE: UInt32 = 0x40
  package static let RTMGRP_IPV6_IFADDR: UInt32 = 0x100
  package static let RTMGRP_IPV4_RULE: UInt32 = 0x80
  package static let RTMGRP_IPV6_ROUTE: UInt32 = 0x400
  /// RTNLGRP_IPV6_RULE (19) as a bind() mask.
  package static let RTMGRP_IPV6_RULE: UInt32 = 1 << (19 - 1)
  /// RTNLGRP_NEXTHOP (32) as a bind() mask: the last bit nl_groups can hold.
  package static let RTMGRP_NEXTHOP: UInt32 = 1 << (32 - 1)

  // address families
  package static let AF_UNSPEC: UInt8 = 0
  package static let AF_INET: UInt8 = 2
  package static let AF_BRIDGE: UInt8 = 7
  package static let AF_INET6: UInt8 = 10

  // ifinfomsg: 16 bytes; IFLA_*
  package static let ifinfomsgLength = 16
  package static let IFLA_ADDRESS: UInt16 = 1
  package static let IFLA_IFNAME: UInt16 = 3
  package static let IFLA_MASTER: UInt16 = 10
  package static let IFLA_OPERSTATE: UInt16 = 16
  package static let IFLA_LINKINFO: UInt16 = 18
  package static let IFLA_INFO_KIND: UInt16 = 1
  package static let IFF_UP: UInt32 = 0x1
  package static let IFF_LOOPBACK: UInt32 = 0x8
  package static let IFF_RUNNING: UInt32 = 0x40
  package static let IFF_LOWER_UP: UInt32 = 0x10000
  package static let IFF_DORMANT: UInt32 = 0x20000
  package static let IF_OPER_UNKNOWN: UInt8 = 0
  package static let IF_OPER_DOWN: UInt8 = 2
  package static let IF_OPER_DORMANT: UInt8 = 5
  package static let IF_OPER_UP: UInt8 = 6

  // ARPHRD_*
  package static let ARPHRD_ETHER: UInt16 = 1
  package static let ARPHRD_PPP: UInt16 = 512
  package static let ARPHRD_RAWIP: UInt16 = 519
  package static let ARPHRD_TUNNEL: UInt16 = 768
  package static let ARPHRD_TUNNEL6: UInt16 = 769
  package static let ARPHRD_SIT: UInt16 = 776
  package static let ARPHRD_IPGRE: UInt16 = 778
  package static let ARPHRD_IP6GRE: UInt16 = 823
  package static let ARPHRD_LOOPBACK: UInt16 = 772
  package static let ARPHRD_NONE: UInt16 = 65534

  // ifaddrmsg: 8 bytes; IFA_*
  package static let ifaddrmsgLength = 8
  package static let IFA_ADDRESS: UInt16 = 1
  package static let IFA_LOCAL: UInt16 = 2
  package static let IFA_FLAGS: UInt16 = 8
  package static let IFA_F_DADFAILED: UInt32 = 0x08
  package static let IFA_F_TENTATIVE: UInt32 = 0x40

  // rtmsg: 12 bytes; RTA_*
  package static let rtmsgLength = 12
  package static let RTA_DST: UInt16 = 1
  package static let RTA_OIF: UInt16 = 4
  package static let RTA_GATEWAY: UInt16 = 5
  package static let RTA_PRIORITY: UInt16 = 6
  package static let RTA_PREFSRC: UInt16 = 7
  package static let RTA_MULTIPATH: UInt16 = 9
  package static let RTA_TABLE: UInt16 = 15
  package static let RTA_VIA: UInt16 = 18
  package static let RTA_NH_ID: UInt16 = 30
  /// rtm_flags on a lookup request: answer with the FIB entry that matched, not a resolved route. A lookup
  /// with RTA_OIF that matches no entry then fails instead of inventing an on-link route.
  package static let RTM_F_FIB_MATCH: UInt32 = 0x2000
  package static let RTN_UNICAST: UInt8 = 1
  package static let RTN_LOCAL: UInt8 = 2
  package static let RTN_BLACKHOLE: UInt8 = 6
  package static let RTN_UNREACHABLE: UInt8 = 7
  package static let RTN_PROHIBIT: UInt8 = 8
  package static let RTN_THROW: UInt8 = 9
  package static let RT_TABLE_DEFAULT: UInt32 = 253
  package static let RT_TABLE_MAIN: UInt32 = 254
  package static let RT_TABLE_LOCAL: UInt32 = 255
  package static let RT_SCOPE_SITE: UInt8 = 200
  package static let RT_SCOPE_LINK: UInt8 = 253
  package static let RT_SCOPE_HOST: UInt8 = 254
  package static let RTNH_F_DEAD: UInt32 = 0x1
  package static let RTNH_F_LINKDOWN: UInt32 = 0x10
  package static let rtnexthopLength = 8

  // attributes
  package static let attributeHeaderLength = 4
  package static let NLA_TYPE_MASK: UInt16 = 0x3fff

  /// NLMSG_ALIGN / RTA_ALIGN: rounds up to a multiple of 4.
  package static func align(_ length: Int) -> Int { (length + 3) & ~3 }
}

/// A network interface as rtnetlink describes it (`RTM_NEWLINK`).
package struct NetlinkLink: Sendable, Hashable {
  /// The interface index (`ifi_index`).
  package var index: Int32
  /// The name (`IFLA_IFNAME`); empty when the kernel sent none.
  package var name: String
  /// The hardware type (`ifi_type`, an `ARPHRD_*` value).
  package var hardwareType: UInt16
  /// The device flags (`ifi_flags`: IFF_UP, IFF_LOWER_UP…).
  package var flags: UInt32
  /// The RFC 2863 operational state (`IFLA_OPERSTATE`), when sent.
  package var operationalState: UInt8?
  /// The link kind (`IFLA_LINKINFO`/`IFLA_INFO_KIND`: veth, bridge, wireguard…), for virtual links.
  package var kind: String?
  /// The hardware (MAC) address (`IFLA_ADDRESS`), when the link has one.
  package var hardwareAddress: [UInt8]?
  /// The index of the link this one is a port of (`IFLA_MASTER`): a bridge's or bond's port, a VRF's member.
  package var master: Int32? = nil

  /// A link with these fields.
  package init(
    index: Int32, name: String, hardwareType: UInt16, flags: UInt32, operationalState: UInt8?, kind: String?,
    hardwareAddress: [UInt8]?, master: Int32? = nil
  ) {
    self.index = index
    self.name = name
    self.hardwareType = hardwareType
    self.flags = flags
    self.operationalState = operationalState
    self.kind = kind
    self.hardwareAddress = hardwareAddress
    self.master = master
  }

  /// Whether the link is administratively up and has carrier: IFF_UP and IFF_LOWER_UP.
  ///
  /// IFF_LOWER_UP is the carrier itself: the kernel clears it the moment carrier goes, while the operational
  /// state (IFLA_OPERSTATE) lags by up to a second (linkwatch), so the operational state is not consulted.
  /// Drivers that do not manage carrier keep it on, so they read as having carrier.
  package var isUsable: Bool {
    flags & RTNL.IFF_UP != 0 && flags & RTNL.IFF_LOWER_UP != 0
  }
}

/// An interface address as rtnetlink describes it (`RTM_NEWADDR`).
package struct NetlinkAddress: Sendable, Hashable {
  /// What makes an address unique in ``KernelState``.
  package struct Key: Sendable, Hashable {
    package var interfaceIndex: Int32
    package var address: IPAddressBytes
    package var prefixLength: UInt8
  }

  /// The interface's index (`ifa_index`).
  package var interfaceIndex: Int32
  /// The address (`IFA_LOCAL`, or `IFA_ADDRESS` when there is no local address).
  package var address: IPAddressBytes
  /// The prefix length (`ifa_prefixlen`).
  package var prefixLength: UInt8
  /// The flags (`IFA_FLAGS` when sent, which holds all 32 bits, else `ifa_flags`).
  package var flags: UInt32
  /// The scope (`ifa_scope`: RT_SCOPE_UNIVERSE, LINK, HOST).
  package var scope: UInt8

  /// The address's identity.
  package var key: Key { Key(interfaceIndex: interfaceIndex, address: address, prefixLength: prefixLength) }

  /// Whether the address can carry traffic beyond the local link: not tentative (DAD still running), not
  /// dadfailed, not link-local or host scope, not loopback.
  package var isUsableBeyondLink: Bool {
    if flags & (RTNL.IFA_F_TENTATIVE | RTNL.IFA_F_DADFAILED) != 0 { return false }
    if scope == RTNL.RT_SCOPE_LINK || scope == RTNL.RT_SCOPE_HOST { return false }
    return !address.isLinkLocal && !address.isLoopback
  }
}

/// One next hop of a route: the route's own (RTA_GATEWAY/RTA_OIF) or one of `RTA_MULTIPATH`'s.
package struct NetlinkNextHop: Sendable, Hashable {
  /// The outgoing interface, when known.
  package var interfaceIndex: Int32?
  /// The gateway (RTA_GATEWAY, or RTA_VIA's address), when there is one.
  package var gateway: IPAddressBytes?
  /// RTNH_F_* flags (RTNH_F_DEAD, RTNH_F_LINKDOWN…).
  package var flags: UInt32
}

/// A route as rtnetlink describes it (`RTM_NEWROUTE`): a notification, or the kernel's answer to a route
/// lookup (``RouteLookupRequest``).
package struct NetlinkRoute: Sendable, Hashable {
  /// AF_INET or AF_INET6.
  package var family: UInt8
  /// The destination's prefix length: 0 for a default route.
  package var destinationLength: UInt8
  /// The destination (RTA_DST); `nil` for a default route.
  package var destination: IPAddressBytes?
  /// The type-of-service selector (`rtm_tos`).
  package var tos: UInt8
  /// The routing table (RTA_TABLE, or `rtm_table`).
  package var table: UInt32
  /// Who installed it (`rtm_protocol`).
  package var routingProtocol: UInt8
  /// The scope (`rtm_scope`).
  package var scope: UInt8
  /// The type (`rtm_type`: RTN_UNICAST, RTN_BLACKHOLE…).
  package var type: UInt8
  /// The flags (`rtm_flags`, which include RTNH_F_LINKDOWN and RTNH_F_DEAD for single-path routes).
  package var flags: UInt32
  /// The metric (RTA_PRIORITY), 0 when absent.
  package var priority: UInt32
  /// The outgoing interface (RTA_OIF).
  package var interfaceIndex: Int32?
  /// The gateway (RTA_GATEWAY or RTA_VIA).
  package var gateway: IPAddressBytes?
  /// The source address the kernel would use (RTA_PREFSRC): in a lookup's answer, the address it picked.
  package var preferredSource: IPAddressBytes?
  /// The nexthop object the route uses (RTA_NH_ID), when it uses one.
  package var nexthopID: UInt32?
  /// The next hops of a multipath route (RTA_MULTIPATH); empty otherwise.
  package var multipath: [NetlinkNextHop]

  /// Whether `address` falls inside the route's destination prefix (a default route contains every
  /// address of its family). Only such a route can change the answer of a lookup for `address`.
  package func contains(_ address: IPAddressBytes) -> Bool {
    Self.prefix(family: family, length: destinationLength, destination: destination, contains: address)
  }

  /// Whether `address` falls inside the prefix `destination/length` of `family`: ``contains(_:)``, for the routes
  /// decoded without a whole ``NetlinkRoute`` too (``RouteFields``).
  package static func prefix(
    family: UInt8, length: UInt8, destination: IPAddressBytes?, contains address: IPAddressBytes
  )
    -> Bool
  {
    guard address.isIPv4 == (family == RTNL.AF_INET) else { return false }
    guard length > 0 else { return true }
    guard let destination else { return false }
    return destination.sharesPrefix(with: address, length: Int(length))
  }
}

/// What the event loop reads of a route, decoded without a whole ``NetlinkRoute``
/// (``NetlinkMessageDecoder/routeMessage(in:)``, ``NetlinkMessageDecoder/lookupReply(in:portID:)``): plain values,
/// no array to retain and release.
package struct RouteFields: Sendable, Hashable {
  /// What the evaluator reads when the route answers a lookup.
  package var answer: RouteLookupAnswer
  /// AF_INET or AF_INET6.
  package var family: UInt8
  /// The destination's prefix length: 0 for a default route.
  package var destinationLength: UInt8
  /// The destination (RTA_DST); `nil` for a default route.
  package var destination: IPAddressBytes?

  /// The fields of `route`.
  package init(_ route: NetlinkRoute) {
    self.init(
      answer: RouteLookupAnswer(route), family: route.family, destinationLength: route.destinationLength,
      destination: route.destination)
  }

  /// Fields with these values.
  package init(answer: RouteLookupAnswer, family: UInt8, destinationLength: UInt8, destination: IPAddressBytes?) {
    self.answer = answer
    self.family = family
    self.destinationLength = destinationLength
    self.destination = destination
  }

  /// ``NetlinkRoute/contains(_:)``.
  package func contains(_ address: IPAddressBytes) -> Bool {
    NetlinkRoute.prefix(family: family, length: destinationLength, destination: destination, contains: address)
  }
}

/// What one rtnetlink message says.
package enum NetlinkEvent: Sendable, Hashable {
  /// A link appeared or changed (RTM_NEWLINK).
  case newLink(NetlinkLink)
  /// A link was removed (RTM_DELLINK).
  case deletedLink(NetlinkLink)
  /// An address was added or changed (RTM_NEWADDR).
  case newAddress(NetlinkAddress)
  /// An address was removed (RTM_DELADDR).
  case deletedAddress(NetlinkAddress)
  /// A route was added or changed (RTM_NEWROUTE).
  case newRoute(NetlinkRoute)
  /// A route was removed (RTM_DELROUTE).
  case deletedRoute(NetlinkRoute)
  /// A routing rule or a nexthop object was added, changed or removed (RTM_NEWRULE, RTM_DELRULE,
  /// RTM_NEWNEXTHOP, RTM_DELNEXTHOP). Only the header is read: any such change may change a lookup's answer.
  case routingPolicyChanged(type: UInt16)
  /// The end of a dump (NLMSG_DONE); `errno` is non-zero when the dump failed.
  case done(errno: Int32)
  /// An error or acknowledgement (NLMSG_ERROR); `errno` 0 is an acknowledgement.
  case error(errno: Int32)
  /// The kernel lost data (NLMSG_OVERRUN).
  case overrun
  /// A message that says nothing NetStatus needs: NLMSG_NOOP, other types, other families (for example
  /// the AF_BRIDGE link messages sent when a port joins or leaves a bridge, which do not add or remove the
  /// link itself).
  case ignored(type: UInt16)
}

/// One decoded rtnetlink message: its header and what it says.
package struct NetlinkMessage: Sendable, Hashable {
  /// `nlmsg_type`.
  package var type: UInt16
  /// `nlmsg_flags` (NLM_F_MULTI, NLM_F_DUMP_INTR, NLM_F_REPLACE…).
  package var flags: UInt16
  /// `nlmsg_seq`: the request's sequence number for replies, 0 for notifications.
  package var sequence: UInt32
  /// `nlmsg_pid`: the port of the socket the message concerns (ours for replies, 0 or the requester's for
  /// notifications). The sender is checked separately, from the datagram's address.
  package var portID: UInt32
  /// What the message says.
  package var event: NetlinkEvent

  /// Whether the kernel flagged the dump this message belongs to as inconsistent (NLM_F_DUMP_INTR).
  package var isDumpInterrupted: Bool { flags & RTNL.NLM_F_DUMP_INTR != 0 }
}
