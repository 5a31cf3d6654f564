import Testing

@testable import NetStatusNetlink

#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

/// The thresholds LinkQualityRules.swift documents, one boundary at a time.
@Suite("link quality rules")
struct LinkQualityRulesTests {
  @Test(
    "wired Ethernet: the negotiated speed's bands",
    arguments: [
      (nil, NetworkPath.LinkQuality.unknown), (0, .unknown), (-1, .unknown), (1, .minimal), (10, .minimal),
      (99, .minimal), (100, .moderate), (999, .moderate), (1_000, .good), (2_500, .good), (100_000, .good),
    ] as [(Int?, NetworkPath.LinkQuality)])
  func wired(speed: Int?, quality: NetworkPath.LinkQuality) {
    #expect(LinkQualityRules.wired(megabitsPerSecond: speed) == quality)
  }

  @Test(
    "sysfs speed text",
    arguments: [
      ("1000\n", 1000), ("10000", 10000), ("-1\n", nil), ("0\n", nil), ("", nil), ("fast\n", nil),
      ("4294967295\n", nil), (" 100\n", nil),
    ] as [(String, Int?)])
  func sysfsSpeed(text: String, speed: Int?) {
    #expect(LinkQualityRules.sysfsSpeed(text) == speed)
  }

  @Test(
    "Wi-Fi: the signal's bands, in dBm",
    arguments: [
      (nil, NetworkPath.LinkQuality.unknown), (-30, .good), (-67, .good), (-68, .moderate), (-80, .moderate),
      (-81, .minimal), (-95, .minimal),
    ] as [(Int?, NetworkPath.LinkQuality)])
  func wifi(signal: Int?, quality: NetworkPath.LinkQuality) {
    #expect(LinkQualityRules.wifi(signal: signal) == quality)
  }

  @Test("NetworkManager's strength: its percentage of a signal, and the same bands on its scale")
  func networkManagerStrength() {
    // nm_wifi_utils_level_to_quality's points: -100 dBm and weaker 0, -40 and stronger 100.
    #expect(LinkQualityRules.networkManagerStrength(signal: -120) == 0)
    #expect(LinkQualityRules.networkManagerStrength(signal: -100) == 0)
    #expect(LinkQualityRules.networkManagerStrength(signal: -70) == 50)
    #expect(LinkQualityRules.networkManagerStrength(signal: -40) == 100)
    #expect(LinkQualityRules.networkManagerStrength(signal: -20) == 100)
    // The boundaries the documentation gives: 55 % and 34 %.
    #expect(LinkQualityRules.networkManagerStrength(signal: -67) == 55)
    #expect(LinkQualityRules.networkManagerStrength(signal: -80) == 34)
    // Every signal NetworkManager could have read is rated as the signal itself is.
    for signal in -100 ... -40 {
      let strength = LinkQualityRules.networkManagerStrength(signal: signal)
      guard strength > 0 else { continue }
      #expect(
        LinkQualityRules.wifi(networkManagerStrength: strength) == LinkQualityRules.wifi(signal: signal),
        "\(signal) dBm, \(strength) %")
    }
    #expect(LinkQualityRules.wifi(networkManagerStrength: nil) == .unknown)
    #expect(LinkQualityRules.wifi(networkManagerStrength: 0) == .unknown, "no reading")
    #expect(LinkQualityRules.wifi(networkManagerStrength: 100) == .good)
  }

  @Test(
    "cellular: ModemManager's signal quality's bands",
    arguments: [
      (nil, NetworkPath.LinkQuality.unknown), (0, .unknown), (1, .minimal), (19, .minimal), (20, .moderate),
      (49, .moderate), (50, .good), (100, .good),
    ] as [(UInt32?, NetworkPath.LinkQuality)])
  func cellular(signalQuality: UInt32?, quality: NetworkPath.LinkQuality) {
    #expect(LinkQualityRules.cellular(signalQuality: signalQuality) == quality)
  }

  @Test("cellular: the boundaries are the RSSIs the documentation gives, on ModemManager's scale")
  func cellularBoundaries() {
    // MM_RSSI_TO_QUALITY: -113 dBm and weaker 0 %, -51 dBm and stronger 100 %, linear between (integer division).
    func modemManagerQuality(rssi: Int) -> UInt32 {
      let clamped: Int = min(max(rssi, -113), -51)
      let belowBest: Int = (clamped + 51) * 100 / -62
      return UInt32(100 - belowBest)
    }
    #expect(modemManagerQuality(rssi: -82) == LinkQualityRules.cellularGoodQuality)
    #expect(modemManagerQuality(rssi: -100) == LinkQualityRules.cellularModerateQuality + 1)
    #expect(modemManagerQuality(rssi: -101) == LinkQualityRules.cellularModerateQuality)
    #expect(LinkQualityRules.cellular(signalQuality: modemManagerQuality(rssi: -85)) == .moderate)
    #expect(LinkQualityRules.cellular(signalQuality: modemManagerQuality(rssi: -105)) == .minimal)
  }

  @Test("iwd: the agent's levels are the Wi-Fi boundaries, and each level is a band")
  func iwdLevels() {
    #expect(LinkQualityRules.iwdSignalLevels == [-67, -80])
    #expect(LinkQualityRules.wifi(iwdLevel: nil) == .unknown)
    #expect(LinkQualityRules.wifi(iwdLevel: 0) == LinkQualityRules.wifi(signal: -67))
    #expect(LinkQualityRules.wifi(iwdLevel: 1) == LinkQualityRules.wifi(signal: -68))
    #expect(LinkQualityRules.wifi(iwdLevel: 1) == LinkQualityRules.wifi(signal: -80))
    #expect(LinkQualityRules.wifi(iwdLevel: 2) == LinkQualityRules.wifi(signal: -81))
    #expect(LinkQualityRules.wifi(iwdLevel: 9) == .minimal, "past the last level")
  }
}
