/// nl80211's numbers (`linux/nl80211.h`), those the Wi-Fi decoders read: the generic netlink family through which
/// cfg80211 reports stations (signal, bitrate) and connection events. Its family id and the ids of its multicast
/// groups are the kernel's to allocate (``GenericNetlinkFamily``); these are fixed by the ABI.
package enum NL80211 {
  /// NL80211_GENL_NAME: the family's name, to ask the controller for its id.
  package static let familyName = "nl80211"
  /// NL80211_MULTICAST_GROUP_MLME: the group of connection events (connect, roam, disconnect, association).
  package static let mlmeGroupName = "mlme"
  /// The genlmsghdr version our requests carry (iw's: 0; the kernel accepts any).
  package static let requestVersion: UInt8 = 0

  /// NL80211_CMD_GET_STATION: a station of an interface (by NL80211_ATTR_MAC), or all of them (NLM_F_DUMP).
  package static let CMD_GET_STATION: UInt8 = 17
  /// NL80211_CMD_NEW_STATION: the answer to NL80211_CMD_GET_STATION, one message a station (and, on the mlme
  /// group, a station added to an access point's interface).
  package static let CMD_NEW_STATION: UInt8 = 19
  /// NL80211_CMD_ASSOCIATE: an association's result, with the (re)association response frame.
  package static let CMD_ASSOCIATE: UInt8 = 38
  /// NL80211_CMD_DEAUTHENTICATE: a deauthentication, sent or received, with its frame.
  package static let CMD_DEAUTHENTICATE: UInt8 = 39
  /// NL80211_CMD_DISASSOCIATE: a disassociation, sent or received, with its frame.
  package static let CMD_DISASSOCIATE: UInt8 = 40
  /// NL80211_CMD_CONNECT: a connection's result (NL80211_ATTR_STATUS_CODE 0 when it succeeded).
  package static let CMD_CONNECT: UInt8 = 46
  /// NL80211_CMD_ROAM: the interface moved to another access point of its network.
  package static let CMD_ROAM: UInt8 = 47
  /// NL80211_CMD_DISCONNECT: the connection ended.
  package static let CMD_DISCONNECT: UInt8 = 48

  /// NL80211_ATTR_IFINDEX: the network interface's index (u32).
  package static let ATTR_IFINDEX: UInt16 = 3
  /// NL80211_ATTR_MAC: a station's or an access point's MAC address (6 bytes).
  package static let ATTR_MAC: UInt16 = 6
  /// NL80211_ATTR_STA_INFO: the station's information, nested (NL80211_STA_INFO_*).
  package static let ATTR_STA_INFO: UInt16 = 21
  /// NL80211_ATTR_STATUS_CODE: a connection's IEEE 802.11 status code (u16; 0 is success).
  package static let ATTR_STATUS_CODE: UInt16 = 72

  /// NL80211_STA_INFO_SIGNAL: the signal of the last frame received from the station, in dBm (a u8 holding an s8).
  package static let STA_INFO_SIGNAL: UInt16 = 7
  /// NL80211_STA_INFO_TX_BITRATE: the rate of the last frame sent to the station, nested (NL80211_RATE_INFO_*).
  package static let STA_INFO_TX_BITRATE: UInt16 = 8
  /// NL80211_STA_INFO_SIGNAL_AVG: the signal averaged over the frames received from the station, in dBm (a u8
  /// holding an s8).
  package static let STA_INFO_SIGNAL_AVG: UInt16 = 13

  /// NL80211_RATE_INFO_BITRATE: the bitrate in units of 100 kbit/s (u16); absent when it does not fit 16 bits.
  package static let RATE_INFO_BITRATE: UInt16 = 1
  /// NL80211_RATE_INFO_BITRATE32: the bitrate in units of 100 kbit/s (u32).
  package static let RATE_INFO_BITRATE32: UInt16 = 5

  /// The address length NL80211_ATTR_MAC has (ETH_ALEN).
  package static let macAddressLength = 6
}

/// NL80211_CMD_GET_STATION dumped for one interface: the request whose answers (``WirelessStation``) say the signal
/// and bitrate of the stations it talks to. On a client's interface that is one station, its access point.
///
/// Pure: the socket sends what ``bytes(family:sequence:)`` returns.
package struct NL80211StationRequest: Sendable, Hashable {
  /// The interface's index (NL80211_ATTR_IFINDEX).
  package var interfaceIndex: Int32

  /// A request for the stations of the interface numbered `interfaceIndex`.
  package init(interfaceIndex: Int32) {
    self.interfaceIndex = interfaceIndex
  }

  /// The request's bytes: nlmsghdr (nl80211's id `family`, NLM_F_REQUEST | NLM_F_DUMP), genlmsghdr
  /// (NL80211_CMD_GET_STATION) and NL80211_ATTR_IFINDEX.
  package func bytes(family: UInt16, sequence: UInt32) -> [UInt8] {
    var attributes: [UInt8] = []
    attributes.appendAttribute(
      type: NL80211.ATTR_IFINDEX, value: Swift.withUnsafeBytes(of: UInt32(bitPattern: interfaceIndex)) { Array($0) })
    return GenericNetlinkHeader(command: NL80211.CMD_GET_STATION, version: NL80211.requestVersion).request(
      type: family, flags: RTNL.NLM_F_REQUEST | RTNL.NLM_F_DUMP, sequence: sequence, attributes: attributes)
  }
}
