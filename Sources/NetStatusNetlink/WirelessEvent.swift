/// What an nl80211 message on the mlme multicast group says of a Wi-Fi connection: what makes the station's signal
/// and bitrate worth reading again (``NL80211StationRequest``).
package enum WirelessEvent: Sendable, Hashable {
  /// NL80211_CMD_CONNECT with status code 0: the interface connected, to the access point `accessPoint` (its
  /// NL80211_ATTR_MAC, when the event names one).
  case connected(interfaceIndex: Int32, accessPoint: [UInt8]?)
  /// NL80211_CMD_CONNECT with a non-zero IEEE 802.11 status code: the attempt failed (a timeout reads 1,
  /// WLAN_STATUS_UNSPECIFIED_FAILURE).
  case connectFailed(interfaceIndex: Int32, statusCode: UInt16)
  /// NL80211_CMD_ROAM: the interface moved to the access point `accessPoint` of the same network.
  case roamed(interfaceIndex: Int32, accessPoint: [UInt8]?)
  /// NL80211_CMD_DISCONNECT: the connection ended.
  case disconnected(interfaceIndex: Int32)
  /// NL80211_CMD_ASSOCIATE, NL80211_CMD_DEAUTHENTICATE or NL80211_CMD_DISASSOCIATE (`command`): the association
  /// changed, as drivers that leave connecting to user space (mac80211's) report it.
  case associationChanged(interfaceIndex: Int32, command: UInt8)
  /// Any other nl80211 command (scans, regulatory changes, a station added to an access point…).
  case ignored(command: UInt8)

  /// The interface the event is about; `nil` for an ignored command.
  package var interfaceIndex: Int32? {
    switch self {
    case .connected(let index, _), .connectFailed(let index, _), .roamed(let index, _), .disconnected(let index),
      .associationChanged(let index, _):
      return index
    case .ignored:
      return nil
    }
  }

  /// Decodes the attributes, already checked by ``NetlinkByteReader/attributes(in:)``, of an nl80211 message with
  /// `command` (any but NL80211_CMD_NEW_STATION, which is a ``WirelessStation``).
  ///
  /// - Throws: ``NetlinkDecodeError`` when an event this enum names lacks NL80211_ATTR_IFINDEX
  ///   (``NetlinkDecodeError/Reason/missingAttribute``), or when an attribute it reads has the wrong size. An ignored
  ///   command's attributes are not read.
  static func decode(command: UInt8, _ attributes: NetlinkAttributes, at offset: Int, reader: NetlinkByteReader)
    throws(NetlinkDecodeError) -> WirelessEvent
  {
    switch command {
    case NL80211.CMD_CONNECT, NL80211.CMD_ROAM, NL80211.CMD_DISCONNECT, NL80211.CMD_ASSOCIATE,
      NL80211.CMD_DEAUTHENTICATE, NL80211.CMD_DISASSOCIATE:
      break
    default:
      return .ignored(command: command)
    }
    var interfaceIndex: Int32?
    var address: [UInt8]?
    // The kernel always sends NL80211_ATTR_STATUS_CODE with a connect result; without it, nothing says it failed.
    var statusCode: UInt16 = 0
    for attribute in attributes {
      switch attribute.type {
      case NL80211.ATTR_IFINDEX:
        interfaceIndex = Int32(bitPattern: try reader.u32Value(attribute.value))
      case NL80211.ATTR_MAC:
        guard attribute.value.count == NL80211.macAddressLength else {
          throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: attribute.value.lowerBound)
        }
        address = reader.bytes(attribute.value)
      case NL80211.ATTR_STATUS_CODE:
        statusCode = try reader.u16Value(attribute.value)
      default:
        break
      }
    }
    guard let interfaceIndex else { throw NetlinkDecodeError(reason: .missingAttribute, offset: offset) }
    switch command {
    case NL80211.CMD_CONNECT:
      return statusCode == 0
        ? .connected(interfaceIndex: interfaceIndex, accessPoint: address)
        : .connectFailed(interfaceIndex: interfaceIndex, statusCode: statusCode)
    case NL80211.CMD_ROAM:
      return .roamed(interfaceIndex: interfaceIndex, accessPoint: address)
    case NL80211.CMD_DISCONNECT:
      return .disconnected(interfaceIndex: interfaceIndex)
    default:
      return .associationChanged(interfaceIndex: interfaceIndex, command: command)
    }
  }
}
