import NetStatusNetlink

/// Builds rtnetlink messages byte by byte, for decoder tests and for state fed through the decoder.
package struct NetlinkMessageBuilder {
  package var bytes: [UInt8] = []

  /// An empty message.
  package init() {}

  package mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
  }

  /// Appends one attribute (padded to 4 bytes).
  package mutating func attribute(_ type: UInt16, _ value: [UInt8]) {
    append(UInt16(4 + value.count))
    append(type)
    bytes += value
    bytes += repeatElement(0, count: RTNL.align(value.count) - value.count)
  }

  package mutating func attribute(_ type: UInt16, u32 value: UInt32) {
    attribute(type, withUnsafeBytes(of: value) { Array($0) })
  }

  package mutating func attribute(_ type: UInt16, string: String) {
    attribute(type, Array(string.utf8) + [0])
  }

  /// Wraps a body in a header whose length covers it.
  package static func message(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, portID: UInt32 = 0, body: [UInt8])
    -> [UInt8]
  {
    var builder = NetlinkMessageBuilder()
    builder.append(UInt32(16 + body.count))
    builder.append(type)
    builder.append(flags)
    builder.append(sequence)
    builder.append(portID)
    builder.bytes += body
    return builder.bytes
  }

  package static func link(
    _ type: UInt16 = RTNL.RTM_NEWLINK, index: Int32, name: String, hardwareType: UInt16 = RTNL.ARPHRD_ETHER,
    flags: UInt32 = RTNL.IFF_UP | RTNL.IFF_LOWER_UP, operstate: UInt8? = RTNL.IF_OPER_UP, kind: String? = nil,
    family: UInt8 = RTNL.AF_UNSPEC, messageFlags: UInt16 = 0
  ) -> [UInt8] {
    var body = NetlinkMessageBuilder()
    body.append(family)
    body.append(UInt8(0))
    body.append(hardwareType)
    body.append(index)
    body.append(flags)
    body.append(UInt32(0xffff_ffff))
    body.attribute(RTNL.IFLA_IFNAME, string: name)
    if let operstate { body.attribute(RTNL.IFLA_OPERSTATE, [operstate]) }
    if let kind {
      var info = NetlinkMessageBuilder()
      info.attribute(RTNL.IFLA_INFO_KIND, string: kind)
      body.attribute(RTNL.IFLA_LINKINFO | 0x8000, info.bytes)
    }
    return message(type: type, flags: messageFlags, body: body.bytes)
  }

  package static func address(
    _ type: UInt16 = RTNL.RTM_NEWADDR, index: Int32, address: String, prefixLength: UInt8, flags: UInt32 = 0,
    scope: UInt8 = 0
  ) -> [UInt8] {
    let ip = IPAddressBytes(text: address)!
    var body = NetlinkMessageBuilder()
    body.append(ip.isIPv4 ? RTNL.AF_INET : RTNL.AF_INET6)
    body.append(prefixLength)
    body.append(UInt8(truncatingIfNeeded: flags))
    body.append(scope)
    body.append(UInt32(bitPattern: index))
    body.attribute(RTNL.IFA_ADDRESS, ip.bytes)
    if ip.isIPv4 { body.attribute(RTNL.IFA_LOCAL, ip.bytes) }
    body.attribute(RTNL.IFA_FLAGS, u32: flags)
    return message(type: type, body: body.bytes)
  }

  package static func route(
    _ type: UInt16 = RTNL.RTM_NEWROUTE, family: UInt8 = RTNL.AF_INET, destination: String? = nil,
    destinationLength: UInt8 = 0, table: UInt32 = RTNL.RT_TABLE_MAIN, routeType: UInt8 = RTNL.RTN_UNICAST,
    flags: UInt32 = 0, priority: UInt32? = nil, oif: Int32? = nil, gateway: String? = nil,
    preferredSource: String? = nil, nexthopID: UInt32? = nil,
    multipath: [(oif: Int32, gateway: String?, flags: UInt8)] = [], messageFlags: UInt16 = 0, sequence: UInt32 = 0,
    portID: UInt32 = 0
  ) -> [UInt8] {
    var body = NetlinkMessageBuilder()
    body.append(family)
    body.append(destinationLength)
    body.append(UInt8(0))  // src_len
    body.append(UInt8(0))  // tos
    body.append(UInt8(table < 256 ? table : 252))  // RT_TABLE_COMPAT for large tables
    body.append(UInt8(3))  // protocol boot
    body.append(UInt8(0))  // scope universe
    body.append(routeType)
    body.append(flags)
    body.attribute(RTNL.RTA_TABLE, u32: table)
    if let destination { body.attribute(RTNL.RTA_DST, IPAddressBytes(text: destination)!.bytes) }
    if let priority { body.attribute(RTNL.RTA_PRIORITY, u32: priority) }
    if let gateway { body.attribute(RTNL.RTA_GATEWAY, IPAddressBytes(text: gateway)!.bytes) }
    if let oif { body.attribute(RTNL.RTA_OIF, u32: UInt32(bitPattern: oif)) }
    if let preferredSource { body.attribute(RTNL.RTA_PREFSRC, IPAddressBytes(text: preferredSource)!.bytes) }
    if let nexthopID { body.attribute(RTNL.RTA_NH_ID, u32: nexthopID) }
    if !multipath.isEmpty {
      var hops = NetlinkMessageBuilder()
      for hop in multipath {
        var attributes = NetlinkMessageBuilder()
        if let gateway = hop.gateway { attributes.attribute(RTNL.RTA_GATEWAY, IPAddressBytes(text: gateway)!.bytes) }
        hops.append(UInt16(8 + attributes.bytes.count))
        hops.append(hop.flags)
        hops.append(UInt8(0))
        hops.append(hop.oif)
        hops.bytes += attributes.bytes
      }
      body.attribute(RTNL.RTA_MULTIPATH, hops.bytes)
    }
    return message(type: type, flags: messageFlags, sequence: sequence, portID: portID, body: body.bytes)
  }

  package static func done(sequence: UInt32 = 1) -> [UInt8] {
    message(type: RTNL.NLMSG_DONE, flags: RTNL.NLM_F_MULTI, sequence: sequence, body: [0, 0, 0, 0])
  }
}

extension KernelState {
  /// Decodes and applies hand-built messages; a test fails loudly if they do not decode.
  package mutating func feed(_ datagrams: [UInt8]...) throws {
    for datagram in datagrams {
      apply(try NetlinkMessageDecoder.decode(datagram))
    }
  }
}
