/// An IPv4 or IPv6 address as the kernel sends it: 4 or 16 bytes in network order.
///
/// Pure and platform independent, so that the decoder and the evaluator can be tested anywhere. The bytes are
/// stored inline (no heap allocation): addresses are decoded, compared and copied on every change.
package struct IPAddressBytes: Sendable, Hashable, CustomStringConvertible {
  /// The bytes; an IPv4 address uses the first 4, the rest stay zero.
  private let storage: SIMD16<UInt8>
  /// Whether this is an IPv4 address (4 bytes); otherwise IPv6 (16 bytes).
  let isIPv4: Bool

  /// The address's bytes, 4 for IPv4 and 16 for IPv6.
  var bytes: [UInt8] { (0..<(isIPv4 ? 4 : 16)).map { storage[$0] } }

  /// The byte at `index` (0 is the first, most significant).
  subscript(index: Int) -> UInt8 { storage[index] }

  /// Wraps 4 or 16 bytes; any other count is not an IP address.
  package init?(_ bytes: some Collection<UInt8>) {
    guard bytes.count == 4 || bytes.count == 16 else { return nil }
    var storage = SIMD16<UInt8>()
    for (index, byte) in bytes.enumerated() { storage[index] = byte }
    self.storage = storage
    self.isIPv4 = bytes.count == 4
  }

  /// Parses dotted-quad IPv4 text, for tests and resolver configuration. IPv6 text is parsed by
  /// ``init(ipv6Text:)``.
  init?(ipv4Text text: some StringProtocol) {
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
  init?(ipv6Text input: some StringProtocol) {
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

  /// Parses IPv4 or IPv6 text.
  init?(text: some StringProtocol) {
    if let v4 = IPAddressBytes(ipv4Text: text) {
      self = v4
    } else if let v6 = IPAddressBytes(ipv6Text: text) {
      self = v6
    } else {
      return nil
    }
  }

  /// Whether the address only reaches the local link: IPv4 169.254.0.0/16, IPv6 fe80::/10.
  var isLinkLocal: Bool {
    if isIPv4 { return storage[0] == 169 && storage[1] == 254 }
    return storage[0] == 0xfe && storage[1] & 0xc0 == 0x80
  }

  /// Whether the address is a loopback address: 127.0.0.0/8 or ::1.
  var isLoopback: Bool {
    if isIPv4 { return storage[0] == 127 }
    var loopback = SIMD16<UInt8>()
    loopback[15] = 1
    return storage == loopback
  }

  /// Whether `other` is of the same family and its first `prefixLength` bits equal this address's: whether
  /// `other` lies in the prefix `self/prefixLength`.
  func sharesPrefix(with other: IPAddressBytes, length prefixLength: Int) -> Bool {
    guard isIPv4 == other.isIPv4, prefixLength >= 0, prefixLength <= (isIPv4 ? 32 : 128) else { return false }
    let wholeBytes = prefixLength / 8
    for index in 0..<wholeBytes where storage[index] != other.storage[index] { return false }
    let remainingBits = prefixLength % 8
    guard remainingBits > 0 else { return true }
    let mask = UInt8(0xff) << (8 - remainingBits)
    return storage[wholeBytes] & mask == other.storage[wholeBytes] & mask
  }

  /// Whether every byte is zero (0.0.0.0 or ::).
  var isUnspecified: Bool { storage == SIMD16<UInt8>() }

  /// Dotted-quad IPv4, or RFC 5952 IPv6 (lowercase, longest run of two or more zero groups as `::`).
  package var description: String {
    if isIPv4 {
      // Digits written by hand: this runs for every gateway of every path, and interpolation costs ten times more.
      var text: [UInt8] = []
      text.reserveCapacity(15)
      for index in 0..<4 {
        if index > 0 { text.append(UInt8(ascii: ".")) }
        let byte = storage[index]
        if byte >= 100 { text.append(UInt8(ascii: "0") + byte / 100) }
        if byte >= 10 { text.append(UInt8(ascii: "0") + byte / 10 % 10) }
        text.append(UInt8(ascii: "0") + byte % 10)
      }
      return String(decoding: text, as: UTF8.self)
    }
    let words = stride(from: 0, to: 16, by: 2).map { UInt16(storage[$0]) << 8 | UInt16(storage[$0 + 1]) }
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
