/// A duration written the way systemd writes time spans (`systemd.time(7)`): `500ms`, `5s`, `2min`, `1h 30min`,
/// `1.5h`, `infinity`; a plain number is seconds. Pure.
///
/// One or more parts, each a decimal number (digits, optionally a fraction) and a unit, optionally separated by
/// spaces (between parts, and between a number and its unit); a number without a unit is allowed only alone. Units: `us`/`usec`/`µs`, `ms`/`msec`,
/// `s`/`sec`/`second`/`seconds`, `m`/`min`/`minute`/`minutes`, `h`/`hr`/`hour`/`hours`, `d`/`day`/`days`,
/// `w`/`week`/`weeks`. Signs, hexadecimal, exponents, `inf`/`nan` and months or years (whose length varies) are
/// not time spans; nor is anything longer than ``maximum``.
enum TimeSpan: Equatable {
  /// A finite duration.
  case finite(Duration)
  /// `infinity`: no limit.
  case infinity

  /// The longest finite span taken: 365 days. Longer is a typo, or `infinity`.
  static let maximum = Duration.seconds(365 * 24 * 3600)

  /// What the help texts say a span is.
  static let syntax = "a time span such as 500ms, 5s, 2min, 1h 30min or infinity (a plain number is seconds)"

  private static let units: [(names: [String], microseconds: Int64)] = [
    (["us", "usec", "µs", "μs"], 1),
    (["ms", "msec"], 1_000),
    (["s", "sec", "second", "seconds"], 1_000_000),
    (["m", "min", "minute", "minutes"], 60_000_000),
    (["h", "hr", "hour", "hours"], 3_600_000_000),
    (["d", "day", "days"], 86_400_000_000),
    (["w", "week", "weeks"], 604_800_000_000),
  ]

  /// Parses `text`, or `nil` when it is not a time span.
  static func parse(_ text: String) -> TimeSpan? {
    let trimmed = text.trimmingSpaces
    if trimmed == "infinity" { return .infinity }
    var rest = Substring(trimmed)
    guard !rest.isEmpty else { return nil }
    var total: Int64 = 0
    var parts = 0
    var bareNumber = false
    while !rest.isEmpty {
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      guard !digits.isEmpty else { return nil }
      rest = rest.dropFirst(digits.count)
      var fraction = Substring("")
      if rest.first == "." {
        rest = rest.dropFirst()
        fraction = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard !fraction.isEmpty else { return nil }
        rest = rest.dropFirst(fraction.count)
      }
      rest = rest.drop(while: { $0 == " " })  // "5 s" as systemd takes it
      let unitName = rest.prefix(while: { !($0.isASCII && $0.isNumber) && $0 != " " && $0 != "." })
      rest = rest.dropFirst(unitName.count)
      let scale: Int64
      if unitName.isEmpty {
        bareNumber = true
        scale = 1_000_000
      } else {
        guard let unit = units.first(where: { $0.names.contains(String(unitName)) }) else { return nil }
        scale = unit.microseconds
      }
      guard let value = microseconds(whole: digits, fraction: fraction, scale: scale) else { return nil }
      let (sum, overflow) = total.addingReportingOverflow(value)
      guard !overflow else { return nil }
      total = sum
      parts += 1
      rest = rest.drop(while: { $0 == " " })
    }
    if bareNumber, parts > 1 { return nil }
    let duration = Duration.microseconds(total)
    guard duration <= maximum else { return nil }
    return .finite(duration)
  }

  /// `whole.fraction` × `scale` microseconds, rounded up to a whole microsecond (never down to 0 when not 0); `nil`
  /// on overflow.
  private static func microseconds(whole: Substring, fraction: Substring, scale: Int64) -> Int64? {
    guard whole.count <= 18, let integer = Int64(whole) else { return nil }
    let (product, overflow) = integer.multipliedReportingOverflow(by: scale)
    guard !overflow else { return nil }
    guard !fraction.isEmpty else { return product }
    // At most 12 fractional digits are computed with (a picosecond of a week is below a microsecond); a non-zero
    // digit past them still rounds up, so that a positive span never becomes 0, which means "no limit".
    let digits = fraction.prefix(12)
    let beyond = fraction.dropFirst(12).contains { $0 != "0" }
    guard let numerator = Int64(digits) else { return nil }
    var denominator: Int64 = 1
    for _ in 0..<digits.count { denominator *= 10 }
    // numerator/denominator × scale, rounded up, without overflowing: scale ≤ 6.1e11 and numerator < 1e12.
    let (high, low) = scale.multipliedFullWidth(by: numerator)
    let (quotient, remainder) = denominator.dividingFullWidth((high, low))
    let part = remainder > 0 || beyond ? quotient + 1 : quotient
    let (sum, sumOverflow) = product.addingReportingOverflow(part)
    return sumOverflow ? nil : sum
  }
}

extension String {
  /// Without leading and trailing spaces.
  fileprivate var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
