/// A Wi-Fi station as nl80211 describes it (NL80211_CMD_NEW_STATION, the answer to NL80211_CMD_GET_STATION): on
/// a client's interface, its access point, and how well the interface hears it.
///
/// ``signal`` is what rates the link: the average when the driver keeps one, else the last frame's.
package struct WirelessStation: Sendable, Hashable {
  /// NL80211_ATTR_IFINDEX: the interface the station belongs to.
  package var interfaceIndex: Int32
  /// NL80211_ATTR_MAC: the station's MAC address (6 bytes); on a client's interface, the access point's (its BSSID).
  package var address: [UInt8]
  /// NL80211_STA_INFO_SIGNAL: the signal of the last frame received from the station, in dBm; `nil` when the
  /// driver does not report it.
  package var lastSignal: Int?
  /// NL80211_STA_INFO_SIGNAL_AVG: the signal averaged over the frames received, in dBm; `nil` when the driver keeps
  /// no average (most full-MAC drivers report the last signal alone).
  package var averageSignal: Int?
  /// The rate of the last frame sent to the station (NL80211_STA_INFO_TX_BITRATE), in kbit/s: its
  /// NL80211_RATE_INFO_BITRATE32, else its NL80211_RATE_INFO_BITRATE; `nil` when the driver reports neither, or
  /// reports 0 (a rate it cannot compute).
  package var bitrate: Int?

  /// A station with these fields.
  package init(
    interfaceIndex: Int32, address: [UInt8], lastSignal: Int? = nil, averageSignal: Int? = nil, bitrate: Int? = nil
  ) {
    self.interfaceIndex = interfaceIndex
    self.address = address
    self.lastSignal = lastSignal
    self.averageSignal = averageSignal
    self.bitrate = bitrate
  }

  /// The signal to rate the link by, in dBm: ``averageSignal`` when the driver reports it, else ``lastSignal``.
  ///
  /// The average, because the last frame's signal swings by several dB from one frame to the next (fading, a
  /// beacon at a lower rate), and a link rated by it would change quality while nothing changed; mac80211 keeps the
  /// average (an EWMA over the frames received), and what `iw dev … station dump` shows as `signal avg`.
  package var signal: Int? { averageSignal ?? lastSignal }

  /// Decodes NL80211_CMD_NEW_STATION's attributes, already checked by ``NetlinkByteReader/attributes(in:)``.
  ///
  /// - Throws: ``NetlinkDecodeError`` when NL80211_ATTR_IFINDEX or NL80211_ATTR_MAC is missing
  ///   (``NetlinkDecodeError/Reason/missingAttribute``) or of the wrong size, or when NL80211_ATTR_STA_INFO holds a
  ///   malformed attribute.
  static func decode(_ attributes: NetlinkAttributes, at offset: Int, reader: NetlinkByteReader)
    throws(NetlinkDecodeError) -> WirelessStation
  {
    var interfaceIndex: Int32?
    var address: [UInt8]?
    var information: Range<Int>?
    for attribute in attributes {
      switch attribute.type {
      case NL80211.ATTR_IFINDEX:
        interfaceIndex = Int32(bitPattern: try reader.u32Value(attribute.value))
      case NL80211.ATTR_MAC:
        guard attribute.value.count == NL80211.macAddressLength else {
          throw NetlinkDecodeError(reason: .invalidAttributeValue, offset: attribute.value.lowerBound)
        }
        address = reader.bytes(attribute.value)
      case NL80211.ATTR_STA_INFO:
        information = attribute.value
      default:
        break
      }
    }
    guard let interfaceIndex, let address else { throw NetlinkDecodeError(reason: .missingAttribute, offset: offset) }
    var station = WirelessStation(interfaceIndex: interfaceIndex, address: address)
    if let information { try station.read(information: information, reader: reader) }
    return station
  }

  /// Reads NL80211_ATTR_STA_INFO's nested attributes: the signals and the transmit bitrate.
  private mutating func read(information: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError) {
    for attribute in try reader.attributes(in: information) {
      switch attribute.type {
      case NL80211.STA_INFO_SIGNAL:
        lastSignal = Int(Int8(bitPattern: try reader.u8Value(attribute.value)))
      case NL80211.STA_INFO_SIGNAL_AVG:
        averageSignal = Int(Int8(bitPattern: try reader.u8Value(attribute.value)))
      case NL80211.STA_INFO_TX_BITRATE:
        bitrate = try Self.bitrate(attribute.value, reader: reader)
      default:
        break
      }
    }
  }

  /// A rate's nested NL80211_RATE_INFO_* attributes, as kbit/s: BITRATE32, else BITRATE (both in 100 kbit/s); `nil`
  /// when neither is there, when the rate is 0, or when it does not fit an `Int` (on a 32-bit platform).
  private static func bitrate(_ range: Range<Int>, reader: NetlinkByteReader) throws(NetlinkDecodeError) -> Int? {
    var bitrate32: UInt32?
    var bitrate16: UInt16?
    for attribute in try reader.attributes(in: range) {
      switch attribute.type {
      case NL80211.RATE_INFO_BITRATE32:
        bitrate32 = try reader.u32Value(attribute.value)
      case NL80211.RATE_INFO_BITRATE:
        bitrate16 = try reader.u16Value(attribute.value)
      default:
        break
      }
    }
    guard let units = bitrate32 ?? bitrate16.map(UInt32.init), units > 0 else { return nil }
    return Int(exactly: UInt64(units) * 100)
  }
}
