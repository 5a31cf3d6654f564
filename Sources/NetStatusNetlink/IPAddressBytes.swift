/// An IPv4 or IPv6 address as the kernel sends it: 4 or 16 bytes in network order.
///
/// Pure and platform independent, so that the decoder and the evaluator can be tested anywhere. The bytes are
/// stored inline (no heap allocation): addresses are decoded, compared and copied on every change. Two words
/// rather than a `SIMD16`: 8-byte alignment keeps the routes and messages that hold addresses small to copy, and
/// comparing is two integer comparisons.
package struct IPAddressBytes: Sendable, Hashable, CustomStringConvertible {
  /// Bytes 0 to 7, byte 0 in the most significant bits; an IPv4 address uses the first 4, the rest stay zero.
  @usableFromInline let high: UInt64
  /// Bytes 8 to 15, byte 8 in the most significant bits; zero for IPv4.
  @usableFromInline let low: UInt64
  /// Whether this is an IPv4 address (4 bytes); otherwise IPv6 (16 bytes).
  package let isIPv4: Bool

  /// The address's bytes, 4 for IPv4 and 16 for IPv6.
  package var bytes: [UInt8] { (0..<(isIPv4 ? 4 : 16)).map { self[$0] } }

  /// The byte at `index` (0 is the first, most significant).
  package subscript(index: Int) -> UInt8 {
    let word = index < 8 ? high : low
    return UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(index & 7)))
  }

  /// Wraps 4 or 16 bytes; any other count is not an IP address. Inlinable: specialised where it is called (the
  /// Apple source hands it `Data`).
  @inlinable package init?(_ bytes: some Collection<UInt8>) {
    guard bytes.count == 4 || bytes.count == 16 else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    for (index, byte) in bytes.enumerated() {
      if index < 8 {
        high |= UInt64(byte) << (56 - 8 * UInt64(index))
      } else {
        low |= UInt64(byte) << (56 - 8 * UInt64(index - 8))
      }
    }
    self.high = high
    self.low = low
    self.isIPv4 = bytes.count == 4
  }

  /// Reads 4 (`ipv4`) or 16 bytes at `offset` of `buffer`, which must hold them: the decoder's path, without
  /// a collection in between.
  package init(reading buffer: UnsafeRawBufferPointer, at offset: Int, ipv4: Bool) {
    if ipv4 {
      high = UInt64(UInt32(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) << 32
      low = 0
    } else {
      high = UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      low = UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
    }
    isIPv4 = ipv4
  }

  /// Writes the address's 4 or 16 bytes, in network order, at `offset` of `buffer`, which must have room for them:
  /// the lookup requests' path, a word at a time rather than a byte at a time.
  package func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
    if isIPv4 {
      buffer.storeBytes(of: UInt32(truncatingIfNeeded: high >> 32).bigEndian, toByteOffset: offset, as: UInt32.self)
    } else {
      buffer.storeBytes(of: high.bigEndian, toByteOffset: offset, as: UInt64.self)
      buffer.storeBytes(of: low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }
  }

  /// Parses dotted-quad IPv4 text, for tests and resolver configuration. IPv6 text is parsed by
  /// ``init(ipv6Text:)``.
  package init?(ipv4Text text: some StringProtocol) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var result: [UInt8] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = UInt8(part) else { return nil }
      result.append(value)
    }
    self.init(result)
  }

  /// Parses IPv6 text (RFC 4291 forms, with `::` and an optional embedded IPv4 tail; a `%zone` is dropped).
  package init?(ipv6Text input: some StringProtocol) {
    let text = Substring(input).split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    func groups(_ part: Substring) -> [UInt16]? {
      if part.isEmpty { return [] }
      var result: [UInt16] = []
      let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
      for (offset, piece) in pieces.enumerated() {
        if offset == pieces.count - 1, piece.contains("."), let v4 = IPAddressBytes(ipv4Text: piece) {
          result.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
          result.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
          continue
        }
        guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
        result.append(value)
      }
      return result
    }
    let doubleColons = text.ranges(of: "::")
    var words: [UInt16]
    if doubleColons.isEmpty {
      guard let all = groups(text), all.count == 8 else { return nil }
      words = all
    } else if doubleColons.count == 1, let range = doubleColons.first {
      guard let head = groups(text[..<range.lowerBound]), let tail = groups(text[range.upperBound...]),
        head.count + tail.count <= 7
      else { return nil }
      words = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    } else {
      return nil
    }
    self.init(words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })
  }

  /// Parses IPv4 or IPv6 text: ``init(text:)-(StringProtocol)`` for the callers in other modules, which would call the
  /// generic one unspecialised (with run-time metadata for String's and Substring's conformances, at start).
  package init?(text: String) { self.init(text: text[...]) }

  /// Parses IPv4 or IPv6 text.
  package init?(text: Substring) { self.init(parsing: text) }

  /// Parses IPv4 or IPv6 text.
  package init?(text: some StringProtocol) { self.init(parsing: text) }

  /// Parses IPv4 or IPv6 text: the one body of both `init?(text:)`, which differ only in how callers outside the
  /// module reach it.
  private init?(parsing text: some StringProtocol) {
    guard let address = IPAddressBytes(ipv4Text: text) ?? IPAddressBytes(ipv6Text: text) else { return nil }
    self = address
  }

  /// Whether the address only reaches the local link: IPv4 169.254.0.0/16, IPv6 fe80::/10.
  package var isLinkLocal: Bool {
    if isIPv4 { return high >> 48 == 0xa9fe }
    return high >> 54 == 0xfe80 >> 6
  }

  /// Whether the address is a loopback address: 127.0.0.0/8 or ::1.
  package var isLoopback: Bool {
    if isIPv4 { return high >> 56 == 127 }
    return high == 0 && low == 1
  }

  /// Whether `other` is of the same family and its first `prefixLength` bits equal this address's: whether
  /// `other` lies in the prefix `self/prefixLength`.
  package func sharesPrefix(with other: IPAddressBytes, length prefixLength: Int) -> Bool {
    guard isIPv4 == other.isIPv4, prefixLength >= 0, prefixLength <= (isIPv4 ? 32 : 128) else { return false }
    // The first `bits` bits of a word, as a mask (0 bits: none; a shift by 64 would trap).
    func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : ~UInt64(0) << (64 - UInt64(min(bits, 64))) }
    let highMask = mask(prefixLength)
    let lowMask = mask(prefixLength - 64)
    return high & highMask == other.high & highMask && low & lowMask == other.low & lowMask
  }

  /// Whether every byte is zero (0.0.0.0 or ::).
  package var isUnspecified: Bool { high == 0 && low == 0 }

  /// Dotted-quad IPv4, or RFC 5952 IPv6 (lowercase, longest run of two or more zero groups as `::`).
  package var description: String {
    if isIPv4 {
      // Digits written by hand into stack memory: this runs for every gateway of every path, interpolation costs
      // ten times more, and at most 15 bytes make a small string, which allocates nothing.
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { text in
        var count = 0
        func append(_ byte: UInt8) {
          text[count] = byte
          count += 1
        }
        for index in 0..<4 {
          if index > 0 { append(UInt8(ascii: ".")) }
          let byte = self[index]
          if byte >= 100 { append(UInt8(ascii: "0") + byte / 100) }
          if byte >= 10 { append(UInt8(ascii: "0") + byte / 10 % 10) }
          append(UInt8(ascii: "0") + byte % 10)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: text[0..<count]), as: UTF8.self)
      }
    }
    let words = stride(from: 0, to: 16, by: 2).map { UInt16(self[$0]) << 8 | UInt16(self[$0 + 1]) }
    var bestStart = -1
    var bestLength = 0
    var index = 0
    while index < 8 {
      if words[index] == 0 {
        var end = index
        while end < 8 && words[end] == 0 { end += 1 }
        if end - index > bestLength {
          bestStart = index
          bestLength = end - index
        }
        index = end
      } else {
        index += 1
      }
    }
    func hex(_ range: Range<Int>) -> String {
      words[range].map { String($0, radix: 16) }.joined(separator: ":")
    }
    guard bestLength >= 2 else { return hex(0..<8) }
    return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
  }
}
