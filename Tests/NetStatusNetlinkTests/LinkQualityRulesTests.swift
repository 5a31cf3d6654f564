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
}
