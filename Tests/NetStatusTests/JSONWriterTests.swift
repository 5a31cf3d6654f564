import Foundation
import Testing

@testable import NetStatusCore

@Suite("JSONWriter")
struct JSONWriterTests {
  func written(_ body: (inout JSONWriter) -> Void) -> String {
    var json = JSONWriter()
    body(&json)
    return json.text
  }

  @Test func escapesWhatRFC8259Requires() {
    #expect(written { $0.string("plain") } == #""plain""#)
    #expect(written { $0.string("a\"b\\c") } == #""a\"b\\c""#)
    #expect(written { $0.string("\n\r\t") } == #""\n\r\t""#)
    #expect(written { $0.string("\u{0}\u{1}\u{1F}") } == #""\u0000\u0001\u001f""#)
    #expect(written { $0.string("/\u{7F}") } == "\"/\u{7F}\"", "solidus and DEL need no escape")
  }

  /// The scan for bytes to escape reads eight bytes at a time, then the rest one by one: each such byte is found at
  /// every position of a word and of the tail, and bytes just outside the escaped ranges (space, `!`, `#`, `[`, `]`,
  /// non-ASCII) are not taken for one.
  @Test(arguments: ["\u{0}", "\u{1F}", "\n", "\"", "\\"])
  func findsAnEscapedByteAtEveryPosition(special: String) throws {
    for length in [1, 7, 8, 9, 15, 16, 17, 24] {
      for position in 0..<length {
        let text =
          String(repeating: "a", count: position) + special + String(repeating: "b", count: length - position - 1)
        let json = written { $0.string(text) }
        #expect(json != "\"\(text)\"", "escaped at \(position) of \(length)")
        #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
      }
    }
    let plain = " !#[]~\u{7F}é" + String(repeating: "x ", count: 9)
    #expect(written { $0.string(plain) } == "\"\(plain)\"")
  }

  @Test func keepsNonASCIITextAsUTF8() throws {
    let text = "Wi‑Fi café 📶"
    let json = written { $0.string(text) }
    #expect(json == "\"\(text)\"")
    #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
  }

  @Test(arguments: [0, 7, 10, 12_345, -3, Int.max, Int.min])
  func writesIntegersInDecimal(value: Int) {
    #expect(written { $0.int(value) } == String(value))
  }

  @Test func writesLiteralsAndNull() {
    #expect(written { $0.bool(true) } == "true")
    #expect(written { $0.bool(false) } == "false")
    #expect(written { $0.optionalString(nil) } == "null")
    #expect(written { $0.optionalString("x") } == #""x""#)
  }

  @Test func everyControlCharacterRoundTripsThroughJSONDecoder() throws {
    let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))) + "\"\\end"
    let json = written { $0.string(text) }
    #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
  }

  @Test func enumJSONStringsAreTheirRawValuesQuoted() {
    for status in NetworkPath.Status.allCases {
      #expect(written { status.writeJSON(to: &$0) } == "\"\(status.rawValue)\"")
    }
    for reason in NetworkPath.UnsatisfiedReason.allCases {
      #expect(written { reason.writeJSON(to: &$0) } == "\"\(reason.rawValue)\"")
    }
    for type in InterfaceType.allCases { #expect(written { type.writeJSON(to: &$0) } == "\"\(type.rawValue)\"") }
  }

  @Test func jsonLineIsTheRepresentationAndANewline() {
    var path = NetworkPathTests.ethernet
    path.availableInterfaces.append(NetworkInterface(name: "wlan\"0", index: 3, type: .wifi))
    path.gateways.append("2001:db8::1")
    for path in [path, .offline] {
      #expect(path.jsonLine == Array((path.jsonRepresentation + "\n").utf8))
    }
  }

  @Test func outgrowsTheMemoryItWasLent() throws {
    let quotes = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
      var json = JSONWriter(scratch: scratch)
      json.raw("[")
      json.string(String(repeating: "\"", count: 50))
      json.int(Int.min)
      json.raw("]")
      return json.text
    }
    #expect(quotes == "[\"" + String(repeating: #"\""#, count: 50) + "\"" + String(Int.min) + "]")

    // A line longer than the stack memory a watch line is written in.
    var path = NetworkPathTests.ethernet
    for index in 0..<40 {
      path.availableInterfaces.append(NetworkInterface(name: "veth\(index)\u{1}", index: index, type: .other))
    }
    let line = path.jsonLine
    #expect(line.count > 1024)
    #expect(line == Array((path.jsonRepresentation + "\n").utf8))
    #expect(try JSONDecoder().decode(NetworkPath.self, from: Data(line)) == path)
  }
}
