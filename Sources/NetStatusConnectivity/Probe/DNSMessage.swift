/// DNS messages as the probe's stub resolver needs them: an A or AAAA query for one name, and what a reply
/// to it says (RFC 1035 section 4). Pure: no I/O; never traps on any input.
enum DNSMessage {
  /// The record types asked for.
  enum RecordType: UInt16, Sendable, CaseIterable {
    /// An IPv4 address.
    case a = 1
    /// An IPv6 address.
    case aaaa = 28

    /// `A` or `AAAA`.
    var name: String { self == .a ? "A" : "AAAA" }
    /// The length of its address.
    var addressLength: Int { self == .a ? 4 : 16 }
  }

  /// The type of a CNAME record (an alias).
  static let cnameType: UInt16 = 5
  /// The Internet class.
  static let internetClass: UInt16 = 1

  /// What a reply says about the name and type asked.
  enum Reply: Sendable, Hashable {
    /// The name's addresses of that type (4 or 16 bytes each), aliases followed.
    case addresses([[UInt8]])
    /// The name exists but has no address of that type (NOERROR without one: "NODATA").
    case noAddress
    /// The name does not exist (NXDOMAIN).
    case noSuchName
    /// The server could not answer: SERVFAIL, REFUSED, NOTIMP, FORMERR… (the response code), or a
    /// truncated reply without an address (`nil`: the probe does not retry over TCP).
    case failed(responseCode: Int?)
  }

  /// The name in the wire form of a question, or `nil` when it is not a DNS name: an empty label, a label
  /// longer than 63 bytes, more than 253 bytes in all. A trailing dot is allowed.
  static func encode(name: String) -> [UInt8]? {
    var text = Substring(name)
    if text.hasSuffix(".") { text = text.dropLast() }
    guard !text.isEmpty, text.utf8.count <= 253 else { return nil }
    var bytes: [UInt8] = []
    for label in text.split(separator: ".", omittingEmptySubsequences: false) {
      guard !label.isEmpty, label.utf8.count <= 63 else { return nil }
      bytes.append(UInt8(label.utf8.count))
      bytes += label.utf8
    }
    return bytes + [0]
  }

  /// A query with `id` for `type` records of `name` (recursion desired), or `nil` when `name` is not a DNS
  /// name.
  static func query(id: UInt16, name: String, type: RecordType) -> [UInt8]? {
    guard let encoded = encode(name: name) else { return nil }
    var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
    bytes += encoded
    bytes += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), 0, UInt8(internetClass)]
    return bytes
  }

  /// What `bytes` says if it is the reply to the query with `id` for `type` records of `name`; `nil` when
  /// it is not (another id, not a reply, another question, or not a DNS message): ignore it.
  static func reply(_ bytes: [UInt8], id: UInt16, name: String, type: RecordType) -> Reply? {
    guard bytes.count >= 12, UInt16(bytes[0]) << 8 | UInt16(bytes[1]) == id,
      bytes[2] & 0x80 != 0,  // a response
      bytes[2] & 0x78 == 0,  // to a standard query
      word(bytes, 4) == 1  // with our one question
    else { return nil }
    let wanted = canonical(name)
    guard let question = readName(bytes, at: 12), question.name == wanted, question.end + 4 <= bytes.count,
      word(bytes, question.end) == type.rawValue, word(bytes, question.end + 2) == internetClass
    else { return nil }
    let responseCode = Int(bytes[3] & 0x0F)
    if responseCode == 3 { return .noSuchName }
    guard responseCode == 0 else { return .failed(responseCode: responseCode) }

    // The answer section: follow aliases from the name asked, then take the addresses of any of them.
    var records: [(owner: String, type: UInt16, data: Range<Int>)] = []
    var offset = question.end + 4
    for _ in 0..<Int(word(bytes, 6)) {
      guard let owner = readName(bytes, at: offset), owner.end + 10 <= bytes.count else { break }
      let recordType = word(bytes, owner.end)
      let recordClass = word(bytes, owner.end + 2)
      let length = Int(word(bytes, owner.end + 8))
      let start = owner.end + 10
      guard start + length <= bytes.count else { break }
      if recordClass == internetClass { records.append((owner.name, recordType, start..<(start + length))) }
      offset = start + length
    }
    var names: Set<String> = [wanted]
    var grew = true
    while grew {
      grew = false
      for record in records where record.type == cnameType && names.contains(record.owner) {
        if let target = readName(bytes, at: record.data.lowerBound), names.insert(target.name).inserted {
          grew = true
        }
      }
    }
    let addresses = records.filter {
      $0.type == type.rawValue && names.contains($0.owner) && $0.data.count == type.addressLength
    }.map { Array(bytes[$0.data]) }
    if !addresses.isEmpty { return .addresses(addresses) }
    let truncated = bytes[2] & 0x02 != 0
    return truncated ? .failed(responseCode: nil) : .noAddress
  }

  /// The response code's name: `SERVFAIL`, `REFUSED`, …
  static func responseCodeName(_ code: Int?) -> String {
    switch code {
    case nil: "a truncated reply"
    case 1: "FORMERR"
    case 2: "SERVFAIL"
    case 4: "NOTIMP"
    case 5: "REFUSED"
    case let code?: "response code \(code)"
    }
  }

  /// A name read at `offset` (labels, and compression pointers, at most 64 of them): lower-case, dotted,
  /// without a trailing dot; `end` is where the name ends in place (after its first pointer). `nil` when
  /// the bytes are not a name.
  static func readName(_ bytes: [UInt8], at offset: Int) -> (name: String, end: Int)? {
    var labels: [String] = []
    var position = offset
    var end: Int?
    var jumps = 0
    var length = 0
    while true {
      guard position < bytes.count else { return nil }
      let byte = bytes[position]
      switch byte & 0xC0 {
      case 0x00:
        if byte == 0 { return (labels.joined(separator: "."), end ?? position + 1) }
        let count = Int(byte)
        length += count + 1
        guard position + 1 + count <= bytes.count, length <= 255 else { return nil }
        labels.append(canonical(String(decoding: bytes[(position + 1)..<(position + 1 + count)], as: UTF8.self)))
        position += 1 + count
      case 0xC0:
        guard position + 1 < bytes.count, jumps < 64 else { return nil }
        if end == nil { end = position + 2 }
        jumps += 1
        position = Int(byte & 0x3F) << 8 | Int(bytes[position + 1])
      default:
        return nil  // 0x40 and 0x80: label types that are not used
      }
    }
  }

  /// A name compared the DNS way: ASCII letters without case, no trailing dot.
  static func canonical(_ name: String) -> String {
    var text = Substring(name)
    if text.hasSuffix(".") { text = text.dropLast() }
    return String(
      decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
  }

  /// The big-endian 16-bit number at `offset` (0 past the end).
  private static func word(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    guard offset + 1 < bytes.count else { return 0 }
    return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
  }
}
