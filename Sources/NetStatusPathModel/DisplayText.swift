extension StringProtocol {
  /// This text, safe to show to a person on a terminal or in a log: every character a terminal would act on
  /// instead of showing, or that would hide or reorder what is shown, is replaced by a visible escape.
  ///
  /// - C0 controls (U+0000–U+001F: ESC, BEL, backspace, tab, line feed, carriage return…), DEL, and the C1
  ///   controls (U+0080–U+009F, where U+009B is a one-byte CSI): `\x1B`.
  /// - Other characters that are not shown: format characters (bidirectional embeddings, overrides and
  ///   isolates such as U+202E, zero-width spaces and joiners, U+FEFF, tag characters), line and paragraph
  ///   separators, private-use, surrogate and unassigned code points: `\u{202E}`.
  ///
  /// Everything else is kept, letters of any script and emoji included. The result holds none of these
  /// characters, so escaping it again changes nothing. NetStatus applies it to every text that came from the
  /// network and is meant for people (a portal's redirect in ``ConnectivityState/description``,
  /// ``ConnectivityCheck/detail``) and `netstatus` to everything it prints for people; JSON escapes in its
  /// own way and keeps the exact value.
  package func escapingControlCharacters() -> String {
    guard unicodeScalars.contains(where: { visibleEscape(for: $0) != nil }) else { return String(self) }
    var result = ""
    result.reserveCapacity(utf8.count + 16)
    for scalar in unicodeScalars {
      if let escape = visibleEscape(for: scalar) {
        result += escape
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

/// The escape that stands for `scalar` when it must not reach a terminal, or `nil` when it can be shown.
private func visibleEscape(for scalar: Unicode.Scalar) -> String? {
  let value = scalar.value
  if value < 0x20 || (0x7F...0x9F).contains(value) { return "\\x" + hex(value, digits: 2) }
  if value < 0xA0 { return nil }  // printable ASCII
  switch scalar.properties.generalCategory {
  case .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned, .control:
    return "\\u{" + hex(value, digits: 4) + "}"
  default:
    return nil
  }
}

/// `value` in upper-case hexadecimal, at least `digits` long.
private func hex(_ value: UInt32, digits: Int) -> String {
  let text = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}
