/// The names the system gives as bytes (an interface's, a file's in a namespace folder, a command-line argument), as
/// NetStatus holds, compares and prints them: text that says every byte, and that two different names never share.
///
/// Linux names are bytes, not text: an interface may be named with any bytes but `/`, `:`, whitespace and NUL, a
/// namespace file with any but `/` and NUL. Read as UTF-8 with repair, `x\xff` and `x\xfe` both became `x\u{FFFD}`:
/// one of two namespaces went unwatched, a name could not be opened again, and `wait -i` matched an interface that
/// does not exist. So a name is held in this form instead, which is the name itself whenever it is UTF-8 without a
/// backslash (nearly always):
///
/// - each byte that is not part of a valid UTF-8 sequence is `\xHH` (two lowercase hexadecimal digits);
/// - a backslash is `\\`;
/// - everything else is itself.
///
/// ``decode(_:)`` is one-to-one, and ``bytes(of:)`` gives the bytes back, for the system calls that take the name.
/// ``bytes(of:)`` also takes a backslash that starts neither escape as itself, so that a name typed with one
/// (`a\b`) still names the file.
package enum SystemName {
  /// The name of `bytes` (up to a NUL, if any).
  package static func decode(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes.prefix { $0 != 0 })
    // The common case: valid UTF-8 without a backslash is itself.
    if isPlain(bytes) { return String(decoding: bytes, as: UTF8.self) }
    var text = ""
    text.reserveCapacity(bytes.count + 8)
    var position = 0
    while position < bytes.count {
      let length = validSequenceLength(bytes, at: position)
      if length == 0 {
        text += "\\x" + hexDigits(bytes[position])
        position += 1
      } else if bytes[position] == UInt8(ascii: "\\") {
        text += "\\\\"
        position += 1
      } else {
        text += String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        position += length
      }
    }
    return text
  }

  /// Whether `bytes` are valid UTF-8 without a backslash: their name is their text.
  private static func isPlain(_ bytes: [UInt8]) -> Bool {
    var position = 0
    while position < bytes.count {
      // ASCII, the usual name, one byte at a time without the table.
      if bytes[position] < 0x80 {
        if bytes[position] == UInt8(ascii: "\\") { return false }
        position += 1
        continue
      }
      let length = validSequenceLength(bytes, at: position)
      if length == 0 { return false }
      position += length
    }
    return true
  }

  /// The bytes `name` stands for (see ``SystemName``), without a NUL.
  package static func bytes(of name: String) -> [UInt8] {
    let utf8 = Array(name.utf8)
    guard utf8.contains(UInt8(ascii: "\\")) else { return utf8 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    var position = 0
    while position < utf8.count {
      let byte = utf8[position]
      if byte == UInt8(ascii: "\\"), position + 1 < utf8.count {
        let next = utf8[position + 1]
        if next == UInt8(ascii: "\\") {
          bytes.append(byte)
          position += 2
          continue
        }
        if next == UInt8(ascii: "x"), position + 3 < utf8.count,
          let high = hexValue(utf8[position + 2]), let low = hexValue(utf8[position + 3])
        {
          bytes.append(high << 4 | low)
          position += 4
          continue
        }
      }
      bytes.append(byte)
      position += 1
    }
    return bytes
  }

  /// Calls `body` with `name`'s bytes as a C string: what a system call that takes a path is given.
  package static func withCString<Result>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows
    -> Result
  {
    var bytes = bytes(of: name)
    bytes.append(0)
    return try bytes.withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }

  /// How many bytes the valid UTF-8 sequence at `position` has (RFC 3629: no overlong form, no surrogate, nothing
  /// past U+10FFFF), or 0 when the byte there starts none.
  static func validSequenceLength(_ bytes: [UInt8], at position: Int) -> Int {
    let lead = bytes[position]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default: return 0
    }
    guard position + length <= bytes.count else { return 0 }
    // The second byte has the lead's own range; the rest, any continuation byte.
    guard (low...high).contains(bytes[position + 1]) else { return 0 }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[position + offset]) { return 0 }
    return length
  }

  private static func hexDigits(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
  }

  private static func hexValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
