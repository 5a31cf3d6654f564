import Testing

@testable import NetStatusNetlink

/// Names as bytes (`Sources/NetStatusNetlink/SystemName.swift`): one-to-one, every byte given back, and the name
/// itself whenever it is UTF-8 without a backslash.
@Suite("system names")
struct SystemNameTests {
  @Test("UTF-8 without a backslash is itself")
  func plain() {
    for name in ["eth0", "wlp2s0", "ens3f1np1", "vétérinaire", "网络", "tun🦊", "a b", ""] {
      #expect(SystemName.decode(Array(name.utf8)) == name)
      #expect(SystemName.bytes(of: name) == Array(name.utf8))
    }
  }

  @Test("bytes that are not UTF-8 are \\xHH, a backslash is \\\\")
  func escapes() {
    #expect(SystemName.decode([0x78, 0xFF]) == #"x\xff"#)
    #expect(SystemName.decode([0x78, 0xFE]) == #"x\xfe"#)
    #expect(SystemName.decode([0x6E, 0x78, 0x80]) == #"nx\x80"#)
    #expect(SystemName.decode([0x6E, 0x78, 0xC3]) == #"nx\xc3"#, "a lead byte without its continuation")
    #expect(SystemName.decode([0x6E, 0x78, 0xC3, 0xA9]) == "nxé")
    #expect(SystemName.decode([0xC0, 0x80]) == #"\xc0\x80"#, "an overlong NUL")
    #expect(SystemName.decode([0xED, 0xA0, 0x80]) == #"\xed\xa0\x80"#, "a surrogate")
    #expect(SystemName.decode([0xF4, 0x90, 0x80, 0x80]) == #"\xf4\x90\x80\x80"#, "past U+10FFFF")
    #expect(SystemName.decode(Array(#"a\b"#.utf8)) == #"a\\b"#)
    #expect(SystemName.decode(Array(#"x\xff"#.utf8)) == #"x\\xff"#, "the text \\xff is not the byte")
    #expect(SystemName.decode([0x61, 0, 0x62]) == "a", "up to a NUL")
  }

  @Test("the bytes come back; a lone backslash typed by hand is itself")
  func bytesBack() {
    #expect(SystemName.bytes(of: #"x\xff"#) == [0x78, 0xFF])
    #expect(SystemName.bytes(of: #"x\xFF"#) == [0x78, 0xFF])
    #expect(SystemName.bytes(of: #"a\\b"#) == Array(#"a\b"#.utf8))
    #expect(SystemName.bytes(of: #"a\b"#) == Array(#"a\b"#.utf8))
    #expect(SystemName.bytes(of: #"a\x4"#) == Array(#"a\x4"#.utf8))
    #expect(SystemName.bytes(of: #"end\"#) == Array(#"end\"#.utf8))
    SystemName.withCString(#"x\xff"#) { pointer in
      #expect(pointer[0] == 0x78 && UInt8(bitPattern: pointer[1]) == 0xFF && pointer[2] == 0)
    }
  }

  @Test("every byte sequence: decoded, its bytes come back; two sequences never share a name")
  func oneToOne() {
    var generator = SystemRandomNumberGenerator()
    var seen: [String: [UInt8]] = [:]
    // Short sequences over bytes that matter: ASCII, the backslash, continuation and lead bytes, the invalid ones.
    let alphabet: [UInt8] = [0x61, 0x5C, 0x78, 0x66, 0x80, 0xA9, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator)!
      }
      let name = SystemName.decode(bytes)
      #expect(SystemName.bytes(of: name) == bytes, "\(bytes) → \(name)")
      if let other = seen[name] {
        #expect(other == bytes, "\(other) and \(bytes) both named \(name)")
      }
      seen[name] = bytes
    }
    for byte in UInt8(1)...UInt8(255) {
      #expect(SystemName.bytes(of: SystemName.decode([byte])) == [byte])
    }
  }
}
