#if os(Linux)
  import Glibc
  import Testing

  @testable import NetStatusCore

  /// The `"time"` of a watch line: RFC 3339 in UTC with microseconds, written without a calendar library, so it
  /// is checked against the C library's own calendar (gmtime_r).
  @Suite("JSON timestamps")
  struct JSONTimestampTests {
    @Test(arguments: [
      (Int64(0), Int32(0), #""1970-01-01T00:00:00.000000Z""#),
      (951_782_400, 5, #""2000-02-29T00:00:00.000005Z""#),
      (1_796_076_031, 183_483, #""2026-11-30T22:00:31.183483Z""#),
      (-1, 999_999, #""1969-12-31T23:59:59.999999Z""#),
      (253_402_300_799, 0, #""9999-12-31T23:59:59.000000Z""#),
    ])
    func knownMoments(_ seconds: Int64, _ micros: Int32, _ expected: String) {
      #expect(JSONTimestamp(seconds: seconds, microseconds: micros).jsonString == expected)
    }

    @Test func agreesWithTheCLibrarysCalendarOverFourCenturies() {
      var generator = SystemRandomNumberGenerator()
      for _ in 0..<20_000 {
        let seconds = Int64.random(in: -2_208_988_800...10_413_792_000, using: &generator)  // 1900–2300
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let expected =
          "\"\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
          + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).000042Z\""
        let written = JSONTimestamp(seconds: seconds, microseconds: 42).jsonString
        guard written == expected else {
          Issue.record("\(seconds): \(written) against gmtime_r's \(expected)")
          return
        }
      }
    }
  }
#endif
