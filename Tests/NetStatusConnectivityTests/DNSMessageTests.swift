import NetlinkTestSupport
import Testing

@testable import NetStatusConnectivity

/// The stub resolver's DNS messages, on bytes built here: queries, and every kind of reply.
@Suite("DNS messages")
struct DNSMessageTests {
  /// A reply to the query `id` for `type` records of `name`: header fields, the question, then `answers`
  /// (already encoded records).
  func reply(
    id: UInt16 = 0x1234, name: String = "probe.example", type: DNSMessage.RecordType = .a, code: UInt8 = 0,
    truncated: Bool = false, answers: [[UInt8]] = []
  ) -> [UInt8] {
    var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x81 | (truncated ? 0x02 : 0), 0x80 | code, 0, 1]
    bytes += [0, UInt8(answers.count), 0, 0, 0, 0]
    bytes += DNSMessage.encode(name: name)! + [0, UInt8(type.rawValue), 0, 1]
    return bytes + answers.flatMap { $0 }
  }

  /// A record: its owner (a pointer to the question's name by default), type, and data.
  func record(owner: [UInt8] = [0xC0, 12], type: UInt16, data: [UInt8]) -> [UInt8] {
    owner + [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 60, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
      + data
  }

  @Test func aQueryAsksForOneNameWithRecursion() throws {
    let query = try #require(DNSMessage.query(id: 0xBEEF, name: "Probe.Example.", type: .aaaa))
    #expect(
      query == [0xBE, 0xEF, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 5] + Array("Probe".utf8) + [7] + Array("Example".utf8)
        + [0, 0, 28, 0, 1])
  }

  @Test(arguments: [
    "", ".", "a..b", ".a", String(repeating: "a", count: 64) + ".example", String(repeating: "a.", count: 127) + "ab",
  ])
  func namesThatAreNotDNSNamesMakeNoQuery(name: String) {
    #expect(DNSMessage.query(id: 1, name: name, type: .a) == nil)
  }

  @Test func addressesAreTakenFromTheAnswer() {
    let bytes = reply(answers: [
      record(type: 1, data: [203, 0, 113, 80]), record(type: 1, data: [203, 0, 113, 81]),
    ])
    #expect(
      DNSMessage.reply(bytes, id: 0x1234, name: "PROBE.example.", type: .a)
        == .addresses([[203, 0, 113, 80], [203, 0, 113, 81]]))
  }

  @Test func aliasesAreFollowedAndUnrelatedRecordsIgnored() {
    // probe.example CNAME edge.example; edge.example A 203.0.113.9; other.example A 192.0.2.1 (not ours).
    let edge = DNSMessage.encode(name: "edge.example")!
    let other = DNSMessage.encode(name: "other.example")!
    let bytes = reply(answers: [
      record(owner: edge, type: 1, data: [203, 0, 113, 9]),
      record(type: 5, data: edge),
      record(owner: other, type: 1, data: [192, 0, 2, 1]),
      record(type: 28, data: [UInt8](repeating: 1, count: 16)),
    ])
    #expect(DNSMessage.reply(bytes, id: 0x1234, name: "probe.example", type: .a) == .addresses([[203, 0, 113, 9]]))
  }

  @Test func noSuchNameNoAddressAndFailuresAreToldApart() {
    #expect(DNSMessage.reply(reply(code: 3), id: 0x1234, name: "probe.example", type: .a) == .noSuchName)
    #expect(DNSMessage.reply(reply(), id: 0x1234, name: "probe.example", type: .a) == .noAddress)
    #expect(DNSMessage.reply(reply(code: 2), id: 0x1234, name: "probe.example", type: .a) == .failed(responseCode: 2))
    #expect(DNSMessage.reply(reply(code: 5), id: 0x1234, name: "probe.example", type: .a) == .failed(responseCode: 5))
    #expect(
      DNSMessage.reply(reply(truncated: true), id: 0x1234, name: "probe.example", type: .a)
        == .failed(responseCode: nil))
    #expect(DNSMessage.responseCodeName(5) == "REFUSED")
  }

  @Test func whatIsNotTheReplyToOurQueryIsIgnored() {
    let good = reply(answers: [record(type: 1, data: [203, 0, 113, 80])])
    #expect(DNSMessage.reply(good, id: 0x4321, name: "probe.example", type: .a) == nil, "another id")
    #expect(DNSMessage.reply(good, id: 0x1234, name: "other.example", type: .a) == nil, "another name")
    #expect(DNSMessage.reply(good, id: 0x1234, name: "probe.example", type: .aaaa) == nil, "another type")
    var query = good
    query[2] &= 0x7F
    #expect(DNSMessage.reply(query, id: 0x1234, name: "probe.example", type: .a) == nil, "a query, not a reply")
    #expect(DNSMessage.reply(Array(good.prefix(11)), id: 0x1234, name: "probe.example", type: .a) == nil)
  }

  @Test func compressionLoopsAndCutRecordsNeverTrap() {
    // An answer whose owner points at itself, then one cut short.
    var looping = reply()
    looping[7] = 2
    let start = looping.count
    looping += [0xC0, UInt8(start)] + [0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2, 3, 4]
    looping += [0xC0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 1, 2]
    #expect(DNSMessage.reply(looping, id: 0x1234, name: "probe.example", type: .a) == .noAddress)
    #expect(DNSMessage.readName([0xC0, 0], at: 0) == nil)
    var generator = SplitMix64(seed: 53)
    let base = reply(answers: [record(type: 1, data: [203, 0, 113, 80])])
    for _ in 0..<3000 {
      var bytes = base
      for _ in 0..<Int(generator.next() % 6) {
        bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
      }
      bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count + 1))))
      _ = DNSMessage.reply(bytes, id: 0x1234, name: "probe.example", type: .a)
    }
  }

  // NamespaceResolver is Linux only.
  #if os(Linux)
    @Test func theHostsFileGivesEveryAddressOfTheName() {
      let text = """
        # a comment
        127.0.0.1   localhost
        203.0.113.80 Portal.Example portal # the portal
        2001:db8::80 portal.example
        not-an-address portal.example
        198.51.100.9 other.example
        """
      #expect(NamespaceResolver.hostsAddresses(for: "portal.example.", in: text) == ["203.0.113.80", "2001:db8::80"])
      #expect(NamespaceResolver.hostsAddresses(for: "portal", in: text) == ["203.0.113.80"])
      #expect(NamespaceResolver.hostsAddresses(for: "missing.example", in: text).isEmpty)
    }
  #endif
}
