#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A moment as JSON output writes it: RFC 3339 in UTC with microseconds, `"2026-11-30T22:19:01.123456Z"`. The
/// `"time"` of a `netstatus watch --json` line. Written digit by digit, without a calendar library: a line per
/// change should cost little.
package struct JSONTimestamp: Sendable, Equatable {
  /// Seconds since 1970-01-01T00:00:00Z.
  package var seconds: Int64
  /// 0 to 999,999.
  package var microseconds: Int32

  package init(seconds: Int64, microseconds: Int32) {
    self.seconds = seconds
    self.microseconds = microseconds
  }

  /// Now, from the realtime clock.
  package static func now() -> JSONTimestamp {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return JSONTimestamp(seconds: Int64(now.tv_sec), microseconds: Int32(now.tv_nsec / 1_000))
  }

  /// The civil date of `days` since 1970-01-01 (proleptic Gregorian): Howard Hinnant's `civil_from_days`.
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    // Within an era (0 to 146,096 days, 0 to 399 years) every value is small and not negative: unsigned 32-bit
    // arithmetic, where a division by a constant is a multiplication and a shift, with no sign fix-up.
    let dayOfEra = UInt32(truncatingIfNeeded: z - era * 146_097)
    let yearOfEra = (dayOfEra &- dayOfEra / 1_460 &+ dayOfEra / 36_524 &- dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra &- (365 &* yearOfEra &+ yearOfEra / 4 &- yearOfEra / 100)
    let monthIndex = (5 &* dayOfYear &+ 2) / 153
    let day = dayOfYear &- (153 &* monthIndex &+ 2) / 5 &+ 1
    let month = monthIndex < 10 ? monthIndex &+ 3 : monthIndex &- 9
    return (Int64(yearOfEra) + era * 400 + (month <= 2 ? 1 : 0), Int64(month), Int64(day))
  }

  /// The two digits of 0 to 99, one after another: a pair is copied from here, not worked out with a division
  /// and a remainder.
  private static var digitPairs: StaticString {
    """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """
  }

  /// Writes the quoted string: its 29 bytes stored in place, two digits at a time from ``digitPairs``, in unsigned
  /// arithmetic (a division by a constant is a multiplication, and needs no sign fix-up). Years outside 0–9999 are
  /// clamped to them (RFC 3339 has four digits).
  package func writeJSON(to json: inout JSONWriter) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = UInt32(truncatingIfNeeded: seconds - days * 86_400)
    let (year, month, day) = Self.civil(fromDays: days)
    let clampedYear = UInt32(truncatingIfNeeded: min(max(year, 0), 9_999))
    let micros = UInt32(truncatingIfNeeded: min(max(microseconds, 0), 999_999))
    let pairs = Self.digitPairs.utf8Start
    json.appendBytes(29) { out in
      @inline(__always) func pair(_ value: UInt32, at offset: Int) {
        let digits = pairs + Int(value &* 2)
        out[offset] = digits[0]
        out[offset + 1] = digits[1]
      }
      // "YYYY-MM-DDTHH:MM:SS.ffffffZ"
      out[0] = UInt8(ascii: "\"")
      pair(clampedYear / 100, at: 1)
      pair(clampedYear % 100, at: 3)
      out[5] = UInt8(ascii: "-")
      pair(UInt32(truncatingIfNeeded: month), at: 6)
      out[8] = UInt8(ascii: "-")
      pair(UInt32(truncatingIfNeeded: day), at: 9)
      out[11] = UInt8(ascii: "T")
      let minuteOfDay = secondOfDay / 60
      pair(minuteOfDay / 60, at: 12)
      out[14] = UInt8(ascii: ":")
      pair(minuteOfDay % 60, at: 15)
      out[17] = UInt8(ascii: ":")
      pair(secondOfDay % 60, at: 18)
      out[20] = UInt8(ascii: ".")
      let hundredths = micros / 100
      pair(hundredths / 100, at: 21)
      pair(hundredths % 100, at: 23)
      pair(micros % 100, at: 25)
      out[27] = UInt8(ascii: "Z")
      out[28] = UInt8(ascii: "\"")
    }
  }

  /// The quoted string, for tests and logs.
  package var jsonString: String {
    var json = JSONWriter()
    writeJSON(to: &json)
    return json.text
  }
}
