/// An IPv4 or IPv6 address as the kernel sends it: 4 or 16 bytes in network order.
///
/// Pure and platform independent, so that the decoder and the evaluator can be tested anywhere.
struct IPAddressBytes: Sendable, Hashable, CustomStringConvertible {
  /// The address's bytes, 4 for IPv4 and 16 for IPv6.
  let bytes: [UInt8]

  /// Wraps 4 or 16 bytes; any other count is not an IP address.
  init?(_ bytes: some Collection<UInt8>) {
    guard bytes.count == 4 || bytes.count == 16 else { return nil }
    self.bytes = Array(bytes)
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
    self.bytes = result
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
          result.append(UInt16(v4.bytes[0]) << 8 | UInt16(v4.bytes[1]))
          result.append(UInt16(v4.bytes[2]) << 8 | UInt16(v4.bytes[3]))
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
    self.bytes = words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
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

  /// Whether this is an IPv4 address.
  var isIPv4: Bool { bytes.count == 4 }

  /// Whether the address only reaches the local link: IPv4 169.254.0.0/16, IPv6 fe80::/10.
  var isLinkLocal: Bool {
    if isIPv4 { return bytes[0] == 169 && bytes[1] == 254 }
    return bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80
  }

  /// Whether the address is a loopback address: 127.0.0.0/8 or ::1.
  var isLoopback: Bool {
    if isIPv4 { return bytes[0] == 127 }
    return bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
  }

  /// Whether `other` is of the same family and its first `prefixLength` bits equal this address's: whether
  /// `other` lies in the prefix `self/prefixLength`.
  func sharesPrefix(with other: IPAddressBytes, length prefixLength: Int) -> Bool {
    guard bytes.count == other.bytes.count, prefixLength >= 0, prefixLength <= bytes.count * 8 else { return false }
    let wholeBytes = prefixLength / 8
    for index in 0..<wholeBytes where bytes[index] != other.bytes[index] { return false }
    let remainingBits = prefixLength % 8
    guard remainingBits > 0 else { return true }
    let mask = UInt8(0xff) << (8 - remainingBits)
    return bytes[wholeBytes] & mask == other.bytes[wholeBytes] & mask
  }

  /// Whether every byte is zero (0.0.0.0 or ::).
  var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

  /// Dotted-quad IPv4, or RFC 5952 IPv6 (lowercase, longest run of two or more zero groups as `::`).
  var description: String {
    if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
    let words = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
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
