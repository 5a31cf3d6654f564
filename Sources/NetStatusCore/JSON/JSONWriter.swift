/// Writes the stable JSON output forms as UTF-8 bytes into one buffer. Pure.
///
/// `netstatus watch --json` renders a path on the thread that publishes it, once per change, so this
/// avoids the string concatenation and interpolation of a naive renderer, which allocate as they go. It writes
/// through a pointer into memory
/// the caller lends (``init(scratch:)``, stack memory for a watch line: no allocation at all) or into memory of
/// its own, and moves to a larger block of its own when a text outgrows either.
package struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// Bytes written so far.
  private(set) var count = 0
  /// Whether `base` was allocated here (and is freed here), rather than lent by the caller.
  private var ownsBase: Bool

  /// A writer with memory of its own for `capacity` bytes to start with.
  package init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
    ownsBase = true
  }

  /// A writer that writes into `scratch` until it is full. `scratch` must outlive the writer.
  package init(scratch: UnsafeMutableBufferPointer<UInt8>) {
    if let address = scratch.baseAddress, scratch.count >= 16 {
      base = address
      capacity = scratch.count
      ownsBase = false
    } else {
      capacity = 256
      base = .allocate(capacity: capacity)
      ownsBase = true
    }
  }

  deinit {
    if ownsBase { base.deallocate() }
  }

  /// The bytes written so far, valid until the next write.
  package var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

  /// The text written so far.
  package var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

  /// Makes room for `more` bytes. Wrapping arithmetic: a text's size is far from `Int.max`, so an overflow check
  /// per literal would guard nothing.
  @inline(__always)
  private mutating func reserve(_ more: Int) {
    if count &+ more > capacity { grow(to: count &+ more) }
  }

  /// Moves to a block of its own of at least `needed` bytes.
  private mutating func grow(to needed: Int) {
    let larger = max(needed, capacity * 2)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: base, count: count)
    if ownsBase { base.deallocate() }
    base = moved
    capacity = larger
    ownsBase = true
  }

  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    base[count] = byte
    count &+= 1
  }

  /// Appends `text` as it is: punctuation and keys written by the caller. Inlined, so that each literal's
  /// length is a constant and the copy a few stores rather than a call to `memcpy`. The bytes past `count` hold
  /// nothing yet: they are initialized (a plain copy), not updated (which first compares the two addresses).
  @inline(__always)
  package mutating func raw(_ text: StaticString) {
    let length = text.utf8CodeUnitCount
    reserve(length)
    (base + count).initialize(from: text.utf8Start, count: length)
    count &+= length
  }

  /// Appends `ifTrue` or `ifFalse`: a key with its boolean value, written as one literal.
  @inline(__always)
  package mutating func member(_ value: Bool, _ ifTrue: StaticString, else ifFalse: StaticString) {
    if value { raw(ifTrue) } else { raw(ifFalse) }
  }

  /// Appends `true` or `false`.
  @inline(__always)
  package mutating func bool(_ value: Bool) {
    if value { raw("true") } else { raw("false") }
  }

  /// Appends a decimal integer.
  package mutating func int(_ value: Int) {
    // The magnitude of Int.min does not fit an Int.
    var magnitude = value.magnitude
    var digits = 1
    var rest = magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    reserve(digits + 1)
    if value < 0 { append(UInt8(ascii: "-")) }
    var position = count + digits
    count = position
    repeat {
      position -= 1
      base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
  }

  /// Appends exactly `length` bytes that `body` writes at the pointer it is given: one check for room, then plain
  /// stores (a timestamp's 29 bytes, say).
  @inline(__always)
  mutating func appendBytes(_ length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
    reserve(length)
    body(base + count)
    count += length
  }

  /// Appends `text` as a JSON string literal, escaped as RFC 8259 requires.
  package mutating func string(_ text: String) {
    // A native string's bytes are read in place (`withUTF8` on a copy would first check that the copy is unique).
    let plain = text.utf8.withContiguousStorageIfAvailable { plainString($0) }
    if plain == true { return }
    var text = text
    text.withUTF8 { utf8 in
      if plain == nil, plainString(utf8) { return }  // not native: not scanned yet
      // At most 6 bytes per byte (\u00XX), and the quotes.
      reserve(utf8.count * 6 + 2)
      append(UInt8(ascii: "\""))
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
          append(UInt8(ascii: "\\"))
          append(byte)
        case UInt8(ascii: "\n"):
          append(UInt8(ascii: "\\"))
          append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"):
          append(UInt8(ascii: "\\"))
          append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"):
          append(UInt8(ascii: "\\"))
          append(UInt8(ascii: "t"))
        case 0..<0x20:
          let hex: StaticString = "0123456789abcdef"
          let digits = hex.utf8Start
          append(UInt8(ascii: "\\"))
          append(UInt8(ascii: "u"))
          append(UInt8(ascii: "0"))
          append(UInt8(ascii: "0"))
          append(digits[Int(byte >> 4)])
          append(digits[Int(byte & 0xF)])
        default: append(byte)
        }
      }
      append(UInt8(ascii: "\""))
    }
  }

  /// Appends `utf8` as a string literal if it needs no escaping (names, types and addresses rarely do: their bytes
  /// are copied at once); returns whether it did.
  @inline(__always)
  private mutating func plainString(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !Self.needsEscaping(utf8) else { return false }
    reserve(utf8.count + 2)
    append(UInt8(ascii: "\""))
    if let source = utf8.baseAddress { (base + count).update(from: source, count: utf8.count) }
    count += utf8.count
    append(UInt8(ascii: "\""))
    return true
  }

  /// Appends each of `elements` with `element`, separated by commas: the inside of a JSON array (the brackets are
  /// the caller's). Inlined, so that an array costs what the loop written out in place would.
  @inline(__always)
  package mutating func elements<Elements: Collection>(
    _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void
  ) {
    var index = elements.startIndex
    var first = true
    while index != elements.endIndex {
      if !first { raw(",") }
      first = false
      element(&self, elements[index])
      elements.formIndex(after: &index)
    }
  }

  /// Appends `texts` as JSON strings, separated by commas (the brackets are the caller's).
  @inline(__always)
  package mutating func strings(_ texts: [String]) {
    elements(texts) { json, text in json.string(text) }
  }

  /// Whether `utf8` has a byte JSON escapes: a control character, `"` or `\`. Eight bytes at a time (each test a
  /// few operations on a word, for all eight bytes at once), the rest one by one.
  @inline(__always)
  private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = utf8.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    /// Whether a byte of `word` is below `limit` (at most 0x80): the classic "has less" test.
    @inline(__always) func hasByte(below limit: UInt64, in word: UInt64) -> Bool {
      (word &- ones &* limit) & ~word & highs != 0
    }
    var offset = 0
    while offset &+ 8 <= utf8.count {
      let word = UInt64(littleEndian: UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self))
      if hasByte(below: 0x20, in: word) || hasByte(below: 1, in: word ^ (ones &* 0x22))
        || hasByte(below: 1, in: word ^ (ones &* 0x5C))
      {
        return true
      }
      offset &+= 8
    }
    while offset < utf8.count {
      let byte = start[offset]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
      offset &+= 1
    }
    return false
  }

  /// Appends `value` as a string literal, or `null`.
  package mutating func optionalString(_ value: String?) {
    if let value { string(value) } else { raw("null") }
  }
}
