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
package enum LinkQualityRules {
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
