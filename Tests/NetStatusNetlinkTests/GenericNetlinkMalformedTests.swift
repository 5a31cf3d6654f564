import NetStatusNetlinkFuzzing
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// Malformed generic netlink input: cut short, or lying about its lengths. Each must throw, never trap and never
/// read past its buffer.
@Suite("generic netlink malformed input")
struct GenericNetlinkMalformedTests {
  static let captures = CapturedNL80211.seeds.sorted { $0.key < $1.key }

  /// Where each message of `bytes` starts, and where the last ends: the prefixes that are whole datagrams.
  static func messageBoundaries(_ bytes: [UInt8]) -> Set<Int> {
    var boundaries: Set<Int> = [0]
    var offset = 0
    while offset + 4 <= bytes.count {
      let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
      offset += RTNL.align(length)
      boundaries.insert(min(offset, bytes.count))
    }
    return boundaries
  }

  /// Where each top-level attribute header of the messages of `bytes` is (after nlmsghdr and genlmsghdr), with the
  /// end of its message.
  static func attributeHeaders(_ bytes: [UInt8]) -> [(offset: Int, messageEnd: Int)] {
    var headers: [(offset: Int, messageEnd: Int)] = []
    var message = 0
    while message + 16 <= bytes.count {
      let length = Int(bytes[message]) | Int(bytes[message + 1]) << 8
      let type = Int(bytes[message + 4])
      if type >= 0x10 {  // not NLMSG_ERROR or NLMSG_DONE: a generic netlink message
        var offset = message + 20
        while offset + 4 <= message + length {
          headers.append((offset, message + length))
          offset += RTNL.align(Int(bytes[offset]) | Int(bytes[offset + 1]) << 8)
        }
      }
      message += RTNL.align(length)
    }
    return headers
  }

  static func setLength(_ bytes: inout [UInt8], at offset: Int, to length: Int) {
    bytes[offset] = UInt8(length & 0xff)
    bytes[offset + 1] = UInt8(length >> 8)
  }

  @Test(
    "every prefix of every capture decodes (at a message boundary) or throws",
    arguments: CapturedNL80211.seeds.keys.sorted())
  func prefixes(name: String) throws {
    let bytes = try #require(CapturedNL80211.seeds[name])
    let boundaries = Self.messageBoundaries(bytes)
    let whole = try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family)
    for count in 0..<bytes.count {
      let prefix = Array(bytes.prefix(count))
      let error = genericDecodeError(prefix)
      if boundaries.contains(count) {
        #expect(error == nil, "\(name), \(count) bytes")
        let messages = try GenericNetlinkDecoder.decode(prefix, nl80211Family: CapturedNL80211.family)
        #expect(Array(whole.prefix(messages.count)) == messages, "\(name), \(count) bytes")
      } else {
        #expect(error != nil, "\(name), \(count) bytes")
      }
      prefix.withUnsafeBytes { NetlinkFuzzing.exerciseGenericNetlink($0) }
    }
  }

  @Test(
    "an attribute whose length runs past its message, or is shorter than its header, throws",
    arguments: CapturedNL80211.seeds.keys.sorted())
  func attributeLengthLies(name: String) throws {
    let bytes = try #require(CapturedNL80211.seeds[name])
    let headers = Self.attributeHeaders(bytes)
    if name != "genl-ctrl-not-found" { #expect(!headers.isEmpty, "\(name) has attributes") }
    for (offset, messageEnd) in headers {
      for lie in [messageEnd - offset + 1, messageEnd - offset + 4, 0xffff] {
        var lying = bytes
        Self.setLength(&lying, at: offset, to: lie)
        #expect(genericDecodeError(lying)?.reason == .attributeOutOfBounds, "\(name): nla_len \(lie) at \(offset)")
      }
      for lie in 0..<4 {
        var lying = bytes
        Self.setLength(&lying, at: offset, to: lie)
        #expect(genericDecodeError(lying)?.reason == .attributeLengthTooSmall, "\(name): nla_len \(lie) at \(offset)")
      }
    }
  }

  @Test("nested attributes that lie: a transmit rate past its station information, a group past its list")
  func nestedLengthLies() {
    // NL80211_STA_INFO_TX_BITRATE is at 92 in the station dump, inside NL80211_ATTR_STA_INFO (48 to 144), which
    // leaves it 52 bytes; its true length is 44.
    for lie in [53, 56, 200] {
      var bytes = CapturedNL80211.stationDump
      Self.setLength(&bytes, at: 92, to: lie)
      #expect(genericDecodeError(bytes)?.reason == .attributeOutOfBounds, "TX_BITRATE nla_len \(lie)")
    }
    // Inside TX_BITRATE (92 to 136), NL80211_RATE_INFO_BITRATE32 is at 96: 40 bytes left.
    var rate = CapturedNL80211.stationDump
    Self.setLength(&rate, at: 96, to: 41)
    #expect(genericDecodeError(rate)?.reason == .attributeOutOfBounds)
    // NL80211_STA_INFO_SIGNAL (at 76) claiming its padding as its value stays within STA_INFO: no lie to catch, and
    // its first byte is still the signal.
    var signal = CapturedNL80211.stationDump
    Self.setLength(&signal, at: 76, to: 8)
    #expect(genericDecodeError(signal) == nil)
    // The first multicast group (at 112, 24 bytes) claiming more than CTRL_ATTR_MCAST_GROUPS (108 to 256) holds.
    var group = CapturedNL80211.controllerFamily
    Self.setLength(&group, at: 112, to: 145)
    #expect(genericDecodeError(group)?.reason == .attributeOutOfBounds)
    // Its id attribute (at 116, 8 bytes) claiming more than its group.
    var groupID = CapturedNL80211.controllerFamily
    Self.setLength(&groupID, at: 116, to: 24)
    #expect(genericDecodeError(groupID)?.reason == .attributeOutOfBounds)
    // A zero-length attribute inside a group.
    var zero = CapturedNL80211.controllerFamily
    Self.setLength(&zero, at: 116, to: 0)
    #expect(genericDecodeError(zero)?.reason == .attributeLengthTooSmall)
  }

  @Test("nlmsg_len lies: past the datagram, smaller than nlmsghdr, or cutting genlmsghdr short")
  func messageLengthLies() {
    var past = CapturedNL80211.connect
    Self.setLength(&past, at: 0, to: past.count + 4)
    #expect(genericDecodeError(past)?.reason == .messageLengthPastEnd)
    for length in [0, 15] {
      var small = CapturedNL80211.connect
      Self.setLength(&small, at: 0, to: length)
      #expect(genericDecodeError(small)?.reason == .messageLengthTooSmall)
    }
    for length in [16, 18] {
      var header = Array(CapturedNL80211.connect.prefix(length))
      Self.setLength(&header, at: 0, to: length)
      #expect(genericDecodeError(header)?.reason == .truncatedPayload)
    }
    // A message cut inside an attribute's header, its length saying so.
    var cut = Array(CapturedNL80211.connect.prefix(22))
    Self.setLength(&cut, at: 0, to: 22)
    #expect(genericDecodeError(cut)?.reason == .truncatedAttribute)
  }

  @Test("every byte of every capture set to a lie: the decoder throws or its result keeps its invariants")
  func everyByte() throws {
    var thrown = 0
    for (_, bytes) in Self.captures {
      for offset in bytes.indices {
        for value: UInt8 in [0x00, 0x03, 0x7f, 0xff, bytes[offset] &+ 4] {
          var lying = bytes
          lying[offset] = value
          if genericDecodeError(lying) != nil { thrown += 1 }
          lying.withUnsafeBytes { NetlinkFuzzing.exercise($0) }
        }
      }
    }
    #expect(thrown > 0)
  }
}
