import Testing

@testable import NetStatus

@Suite("HTTP response parser")
struct HTTPResponseParserTests {
  func parse(_ text: String, maximumBodyBytes: Int = 64 * 1024) -> HTTPResponseParser.Outcome {
    HTTPResponseParser.parse(Array(text.utf8), maximumBodyBytes: maximumBodyBytes)
  }

  func response(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HTTPResponse {
    guard case .complete(let response) = parse(text) else {
      Issue.record("not complete: \(parse(text))", sourceLocation: sourceLocation)
      throw CancellationError()
    }
    return response
  }

  @Test func noContent() throws {
    let response = try response("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nDate: today\r\n\r\n")
    #expect(response.version == "HTTP/1.1")
    #expect(response.status == 204)
    #expect(response.reason == "No Content")
    #expect(response.headers.map(\.name) == ["Content-Length", "Date"])
    #expect(response.header("content-length") == "0", "names compare without case")
    #expect(response.body.isEmpty)
    #expect(response.isBodyComplete)
  }

  @Test func noContentIsCompleteWithoutWaitingForTheClose() {
    var parser = HTTPResponseParser()
    guard case .complete(let response) = parser.feed(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)) else {
      Issue.record("a 204 has no body: complete at the end of its header")
      return
    }
    #expect(response.status == 204)
  }

  @Test func redirectWithLocationAndBody() throws {
    let response = try response(
      "HTTP/1.1 302 Found\r\nLocation: http://portal.example/login\r\nContent-Length: 5\r\n\r\nhello")
    #expect(response.isRedirect)
    #expect(response.header("Location") == "http://portal.example/login")
    #expect(response.body == Array("hello".utf8))
    #expect(response.isBodyComplete)
  }

  @Test func contentLengthStopsReadingEvenIfMoreArrives() {
    var parser = HTTPResponseParser()
    let outcome = parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA".utf8))
    guard case .complete(let response) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(response.body == Array("ok".utf8))
    #expect(parser.feed(Array("more".utf8)) == outcome, "finished parsers keep their answer")
  }

  @Test func bodyUntilTheConnectionCloses() throws {
    var parser = HTTPResponseParser()
    #expect(parser.feed(Array("HTTP/1.0 200 OK\r\n\r\nNetworkManager ".utf8)) == .needMore)
    #expect(parser.feed(Array("is online\n".utf8)) == .needMore)
    guard case .complete(let response) = parser.finish() else {
      Issue.record("complete at the close")
      return
    }
    #expect(String(decoding: response.body, as: UTF8.self) == "NetworkManager is online\n")
    #expect(response.isBodyComplete)
  }

  @Test func byteByByteGivesTheSameResponse() throws {
    let text =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-NetworkManager-Status: online\r\n\r\n"
      + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nTrailer: x\r\n\r\n"
    var parser = HTTPResponseParser()
    var outcome = HTTPResponseParser.Outcome.needMore
    for byte in text.utf8 {
      #expect(outcome == .needMore)
      outcome = parser.feed([byte])
    }
    #expect(outcome == parse(text))
    guard case .complete(let response) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
    #expect(response.isBodyComplete)
    #expect(response.header("x-networkmanager-status") == "online")
  }

  @Test func interimResponsesAreSkipped() throws {
    let response = try response("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n")
    #expect(response.status == 204)
  }

  @Test func bareLineFeedsAndFoldedHeadersAreTolerated() throws {
    let response = try response("HTTP/1.1 302 Found\nLocation: http://a/\n  continued\nX:  spaced  \n\n")
    #expect(response.header("Location") == "http://a/ continued")
    #expect(response.header("X") == "spaced")
  }

  @Test func aLongBodyIsCutAtTheLimit() throws {
    let body = String(repeating: "x", count: 100)
    guard
      case .complete(let response) = parse(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + body, maximumBodyBytes: 10)
    else {
      Issue.record("complete")
      return
    }
    #expect(response.body.count == 10)
    #expect(!response.isBodyComplete)
  }

  @Test func aBodyCutByTheCloseIsStillAResponse() throws {
    let response = try response("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
    #expect(response.body == Array("short".utf8))
    #expect(!response.isBodyComplete)
  }

  @Test(arguments: [
    ("", "the connection closed without an answer"),
    ("HTTP/1.1 200 OK\r\nContent-Le", "the answer ended inside its header"),
    ("SSH-2.0-OpenSSH_9.6\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/1.1 2000 OK\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/1.1 099 Low\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/1.1 600 High\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/x 200 OK\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/1.1\r\n\r\n", "the status line is not HTTP"),
    ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "a header line has no colon"),
    ("HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n", "a header name is not a token"),
    ("HTTP/1.1 200 OK\r\n: x\r\n\r\n", "a header name is not a token"),
    ("HTTP/1.1 200 OK\r\n folded first\r\n\r\n", "the header starts with a continuation line"),
    ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the Content-Length is not one number"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "the Content-Length is not one number"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "the Content-Length is not one number"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk size is not a hexadecimal number"),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n",
      "a chunk size is not a hexadecimal number"
    ),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "a chunk is longer than its size"),
  ])
  func malformedAnswersAreReportedNotTrapped(text: String, reason: String) {
    guard case .malformed(let found) = parse(text) else {
      Issue.record("expected malformed (\(reason)), got \(parse(text))")
      return
    }
    #expect(found.hasPrefix(reason), "\(found)")
  }

  @Test func anOversizedHeaderIsMalformed() {
    var parser = HTTPResponseParser(maximumHeaderBytes: 100)
    let outcome = parser.feed(Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 200)).utf8))
    guard case .malformed(let reason) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(reason.contains("longer than 100 bytes"))
  }

  @Test func invalidUTF8AndControlBytesNeverTrap() {
    var bytes = Array("HTTP/1.1 200 OK\r\nX: ".utf8) + [0xFF, 0xFE, 0x00, 0x80] + Array("\r\n\r\n".utf8)
    bytes += [0xC3, 0x28, 0x00]
    guard case .complete(let response) = HTTPResponseParser.parse(bytes) else {
      Issue.record("complete")
      return
    }
    #expect(response.body == [0xC3, 0x28, 0x00])
  }

  @Test func randomBytesNeverTrap() {
    var generator = SplitMix64(seed: 6)
    let pieces = Array("HTTP/1.1 200 OK\r\n\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n0;:\t ".utf8)
    for _ in 0..<2000 {
      let count = Int(generator.next() % 120)
      let bytes = (0..<count).map { _ in
        generator.next() % 3 == 0
          ? UInt8(truncatingIfNeeded: generator.next()) : pieces[Int(generator.next() % UInt64(pieces.count))]
      }
      var parser = HTTPResponseParser(maximumHeaderBytes: 64, maximumBodyBytes: 16)
      var split = bytes[...]
      while !split.isEmpty {
        let take = Int(generator.next() % 8) + 1
        _ = parser.feed(split.prefix(take))
        split = split.dropFirst(take)
      }
      _ = parser.finish()
    }
  }
}
