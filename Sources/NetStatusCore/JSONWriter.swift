/// Writes the stable JSON output forms as UTF-8 bytes into one growing buffer. Pure.
///
/// `netstatus watch --json` renders a path on the thread that publishes it, once per change, so this
/// avoids the string concatenation and interpolation of a naive renderer (about five times the
/// instructions, measured with callgrind; see the README's Benchmarks).
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends `text` as it is: punctuation and keys written by the caller.
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends `true` or `false`.
  mutating func bool(_ value: Bool) {
    raw(value ? "true" : "false")
  }

  /// Appends a decimal integer.
  mutating func int(_ value: Int) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      // The magnitude of Int.min does not fit an Int.
      unsigned(value.magnitude)
    } else {
      unsigned(UInt(value))
    }
  }

  private mutating func unsigned(_ value: UInt) {
    guard value >= 10 else {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    unsigned(value / 10)
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// Appends `text` as a JSON string literal, escaped as RFC 8259 requires.
  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // Most strings (names, addresses, enum values) need no escape: one append.
      if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        bytes.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""): raw(#"\""#)
        case UInt8(ascii: "\\"): raw(#"\\"#)
        case UInt8(ascii: "\n"): raw(#"\n"#)
        case UInt8(ascii: "\r"): raw(#"\r"#)
        case UInt8(ascii: "\t"): raw(#"\t"#)
        case 0..<0x20:
          let hex: StaticString = "0123456789abcdef"
          raw(#"\u00"#)
          hex.withUTF8Buffer { digits in
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xF)])
          }
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends `value` as a string literal, or `null`.
  mutating func optionalString(_ value: String?) {
    if let value { string(value) } else { raw("null") }
  }
}
