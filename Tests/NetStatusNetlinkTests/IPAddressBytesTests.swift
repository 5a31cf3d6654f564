import NetStatusPathModel
import Testing

@testable import NetStatusNetlink

@Suite("IP address text")
struct IPAddressBytesTests {
  @Test(
    "RFC 5952 round trips",
    arguments: [
      "0.0.0.0", "192.0.2.1", "255.255.255.255", "::", "::1", "2001:db8::1", "fe80::1", "2001:db8:0:1:1:1:1:1",
      "2001:0:0:1::1", "1::", "2001:db8::1:0:0:1",
    ])
  func roundTrip(_ text: String) throws {
    #expect(try #require(IPAddressBytes(text: text)).description == text)
  }

  @Test("normalisation and rejects")
  func normalise() {
    #expect(IPAddressBytes(text: "2001:DB8:0:0:0:0:0:1")?.description == "2001:db8::1")
    #expect(IPAddressBytes(text: "::ffff:192.0.2.1")?.description == "::ffff:c000:201")
    #expect(IPAddressBytes(text: "fe80::1%eth0")?.description == "fe80::1")
    for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1::2::3", ":::", "12345::", "g::1", "1:2:3:4:5:6:7:8:9"] {
      #expect(IPAddressBytes(text: bad) == nil, "\(bad)")
    }
    #expect(IPAddressBytes([1, 2, 3]) == nil)
  }

  @Test(
    "stored bytes are the address's bytes in network order, and nothing around them",
    arguments: ["192.0.2.1", "2001:db8::8:1"])
  func store(_ text: String) throws {
    let parsed = try #require(IPAddressBytes(text: text))
    var bytes = [UInt8](repeating: 0xaa, count: 20)
    bytes.withUnsafeMutableBytes { parsed.store(into: $0, at: 2) }
    let count = parsed.isIPv4 ? 4 : 16
    #expect(Array(bytes[2..<(2 + count)]) == parsed.bytes)
    #expect(bytes[..<2].allSatisfy { $0 == 0xaa } && bytes[(2 + count)...].allSatisfy { $0 == 0xaa })
  }
}
