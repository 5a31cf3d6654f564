#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

/// How NetStatus rates a Linux link's quality (``NetworkPath/linkQuality``) from what the system already knows of
/// it: pure rules, so that they are tested on every platform apart from the reads that feed them.
///
/// Wired Ethernet, from the negotiated speed the driver reports (sysfs `speed`, in Mb/s, read when the link
/// changes):
///
/// | speed | quality |
/// |---|---|
/// | none, unknown (`-1`) or 0 | ``NetworkPath/LinkQuality/unknown`` |
/// | below 100 Mb/s (10 Mb/s Ethernet) | ``NetworkPath/LinkQuality/minimal`` |
/// | 100 to 999 Mb/s (Fast Ethernet) | ``NetworkPath/LinkQuality/moderate`` |
/// | 1,000 Mb/s and more (Gigabit and up) | ``NetworkPath/LinkQuality/good`` |
///
/// The speed is what the link negotiated, not what the network beyond it carries: a gigabit link to a slow uplink
/// reads good.
///
/// Wi-Fi, from the received signal strength of the access point in use, in dBm:
///
/// | signal | quality |
/// |---|---|
/// | none | ``NetworkPath/LinkQuality/unknown`` |
/// | below -80 dBm | ``NetworkPath/LinkQuality/minimal`` |
/// | -80 to -68 dBm | ``NetworkPath/LinkQuality/moderate`` |
/// | -67 dBm and stronger | ``NetworkPath/LinkQuality/good`` |
///
/// -67 dBm is the signal the Wi-Fi vendors' design guides ask for voice and video calls, -80 dBm about the weakest
/// at which a link still carries data reliably. NetworkManager gives a percentage instead (an access point's
/// `Strength`, computed from the dBm with its `nm_wifi_utils_level_to_quality`: -100 dBm and weaker 0 %, -40 dBm and
/// stronger 100 %, linear between), so its boundaries are those two signals on its scale: 55 % and 34 %. iwd's signal
/// level agent is registered with the same two signals as its levels.
///
/// Cellular, from the `SignalQuality` ModemManager gives the modem (a percentage):
///
/// | signal quality | quality |
/// |---|---|
/// | none, or 0 % | ``NetworkPath/LinkQuality/unknown`` |
/// | 1 to 19 % | ``NetworkPath/LinkQuality/minimal`` |
/// | 20 to 49 % | ``NetworkPath/LinkQuality/moderate`` |
/// | 50 % and more | ``NetworkPath/LinkQuality/good`` |
///
/// ModemManager derives the percentage from the RSSI the modem reports (its `MM_RSSI_TO_QUALITY`: -113 dBm and weaker
/// 0 %, -51 dBm and stronger 100 %, linear between; an AT modem's `+CSQ` 0 to 31 scales the same range), so 50 % is
/// about -82 dBm and 20 % about -101 dBm: the operators' usual reading of a cellular RSSI calls -85 dBm and stronger a
/// good signal and -100 dBm and weaker a poor one, where data slows down and drops. ModemManager reports 0 % for a
/// modem it has no reading of, which is unknown here. The value's `recent` flag is not used: ModemManager re-reads
/// the signal every 30 s, and a value it no longer calls recent is still its last reading.
package enum LinkQualityRules {
  /// The weakest signal rated ``NetworkPath/LinkQuality/good``, in dBm.
  package static let wifiGoodSignal = -67
  /// The weakest signal rated ``NetworkPath/LinkQuality/moderate``, in dBm.
  package static let wifiModerateSignal = -80

  /// The levels NetStatus registers its iwd signal level agent with (`RegisterSignalLevelAgent`'s `levels`, in dBm,
  /// strongest first): the two boundaries above, so that iwd's level is the quality's band.
  package static let iwdSignalLevels: [Int16] = [Int16(wifiGoodSignal), Int16(wifiModerateSignal)]

  /// The quality of a Wi-Fi link whose station iwd's signal level agent put at `level` (`nil`: none known) out of
  /// ``iwdSignalLevels``: 0, at or above the first boundary, is good; 1 moderate; 2, below the last, minimal.
  package static func wifi(iwdLevel level: UInt8?) -> NetworkPath.LinkQuality {
    guard let level else { return .unknown }
    switch level {
    case 0: return .good
    case 1: return .moderate
    default: return .minimal
    }
  }

  /// The quality of a Wi-Fi link whose access point is received at `signal` dBm (`nil`: no reading).
  package static func wifi(signal: Int?) -> NetworkPath.LinkQuality {
    guard let signal else { return .unknown }
    if signal >= wifiGoodSignal { return .good }
    if signal >= wifiModerateSignal { return .moderate }
    return .minimal
  }

  /// The quality of the Wi-Fi link nl80211 describes with `station` (its access point, on a client's interface): by
  /// its ``WirelessStation/signal``.
  package static func wifi(station: WirelessStation) -> NetworkPath.LinkQuality {
    wifi(signal: station.signal)
  }

  /// The quality of a Wi-Fi link whose access point NetworkManager gives `strength` percent (`nil`: none known; 0,
  /// NetworkManager's value for an access point it has no reading of, and a signal at -100 dBm that carries nothing
  /// anyway, is unknown).
  package static func wifi(networkManagerStrength strength: UInt8?) -> NetworkPath.LinkQuality {
    guard let strength, strength > 0 else { return .unknown }
    if strength >= networkManagerStrength(signal: wifiGoodSignal) { return .good }
    if strength >= networkManagerStrength(signal: wifiModerateSignal) { return .moderate }
    return .minimal
  }

  /// The percentage NetworkManager gives a signal of `signal` dBm (its `nm_wifi_utils_level_to_quality`): -100 dBm
  /// and weaker 0, -40 dBm and stronger 100, linear between, rounded down.
  package static func networkManagerStrength(signal: Int) -> UInt8 {
    let belowBest = abs(min(max(signal, -100), -40) + 40)
    return UInt8(100 - Int(100.0 * Double(belowBest) / 60.0))
  }

  /// The weakest ModemManager `SignalQuality` rated ``NetworkPath/LinkQuality/good``, in percent.
  package static let cellularGoodQuality: UInt32 = 50
  /// The weakest ModemManager `SignalQuality` rated ``NetworkPath/LinkQuality/moderate``, in percent.
  package static let cellularModerateQuality: UInt32 = 20

  /// The quality of a cellular link whose modem ModemManager gives `signalQuality` percent (`nil`: no modem known;
  /// 0, ModemManager's value for a modem without a reading, is unknown too).
  package static func cellular(signalQuality: UInt32?) -> NetworkPath.LinkQuality {
    guard let signalQuality, signalQuality > 0 else { return .unknown }
    if signalQuality >= cellularGoodQuality { return .good }
    if signalQuality >= cellularModerateQuality { return .moderate }
    return .minimal
  }

  /// The quality of a wired Ethernet link that negotiated `megabitsPerSecond` (`nil` when the driver says nothing).
  package static func wired(megabitsPerSecond speed: Int?) -> NetworkPath.LinkQuality {
    guard let speed, speed > 0 else { return .unknown }
    if speed >= 1_000 { return .good }
    if speed >= 100 { return .moderate }
    return .minimal
  }

  /// A sysfs `speed` attribute's value in Mb/s: `nil` when it is not a positive number (`-1`, the kernel's
  /// SPEED_UNKNOWN, when the link has no carrier or the driver cannot tell; a read error on a link that is down).
  package static func sysfsSpeed(_ text: String) -> Int? {
    var digits = Substring(text)
    while let last = digits.last, last == "\n" || last == " " || last == "\t" { digits.removeLast() }
    guard let speed = Int(digits), speed > 0, speed < UInt32.max else { return nil }
    return speed
  }
}
