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
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Writes the quoted string. Years outside 0–9999 are clamped to them (RFC 3339 has four digits).
  func writeJSON(to json: inout JSONWriter) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = Self.civil(fromDays: days)
    json.raw("\"")
    json.digits(Int(min(max(year, 0), 9_999)), count: 4)
    json.raw("-")
    json.digits(Int(month), count: 2)
    json.raw("-")
    json.digits(Int(day), count: 2)
    json.raw("T")
    json.digits(Int(secondOfDay / 3_600), count: 2)
    json.raw(":")
    json.digits(Int(secondOfDay / 60 % 60), count: 2)
    json.raw(":")
    json.digits(Int(secondOfDay % 60), count: 2)
    json.raw(".")
    json.digits(Int(min(max(microseconds, 0), 999_999)), count: 6)
    json.raw("Z\"")
  }

  /// The quoted string, for tests and logs.
  package var jsonString: String {
    var json = JSONWriter()
    writeJSON(to: &json)
    return json.text
  }
}
