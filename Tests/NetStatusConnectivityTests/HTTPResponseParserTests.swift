import NetlinkTestSupport
import Testing

@testable import NetStatusConnectivity

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// A connection that ends where the answer should begin is no answer, typed as such: the transport tells it
  /// from a malformed answer by the case, not by the reason's text.
  @Test(arguments: ["", "HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"])
  func aCloseBeforeAnyAnswerIsClosedWithoutAnswer(text: String) {
    #expect(parse(text) == .closedWithoutAnswer, "\(parse(text).summary)")
  }

  @Test func aCloseInsideTheHeadIsMalformedNotClosedWithoutAnswer() {
    #expect(parse("H") == .malformed("the answer ended inside its header"))
    #expect(parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 2") == .malformed("the answer ended inside its header"))
  }

  @Test func anOversizedHeaderIsTooLong() {
    var parser = HTTPResponseParser(maximumHeaderBytes: 100)
    let outcome = parser.feed(Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 200)).utf8))
    guard case .tooLong(let reason) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(reason == "the header did not end within 100 bytes")
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

/// Answers that never end: each must stop at a limit, with a reason that says what happened, however long
/// the server keeps sending.
@Suite("HTTP response parser: endless answers")
struct HTTPResponseParserLimitTests {
  /// Feeds `head`, then `piece` again and again in 8 KiB blocks, up to 4 MiB; returns the outcome and the
  /// bytes fed when it stopped needing more (or after 4 MiB).
  func flood(_ head: String, _ piece: String, parser: HTTPResponseParser = HTTPResponseParser()) -> (
    outcome: HTTPResponseParser.Outcome, fed: Int
  ) {
    var parser = parser
    var outcome = parser.feed(Array(head.utf8))
    var fed = head.utf8.count
    let unit = Array(piece.utf8)
    let block = Array(repeating: unit, count: max(1, 8192 / unit.count)).flatMap { $0 }
    while outcome == .needMore, fed < 4 * 1024 * 1024 {
      outcome = parser.feed(block)
      fed += block.count
    }
    return (outcome, fed)
  }

  @Test(arguments: [
    ("", "HTTP/1.1 100 Continue\r\n\r\n", "interim (1xx) responses"),
    ("HTTP/1.1 200 OK\r\nX-Flood: ", "a", "the header did not end within 64 KiB"),
    ("HTTP/1.1 200 OK\r\n", "X-Flood: a\r\n", "the header did not end within 64 KiB"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", "X-Trailer: y\r\n", "the trailer"),
    ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1\r\nx\r\n", "did not end within 256 KiB"),
    (
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1;" + String(repeating: "e", count: 900) + "\r\nx\r\n",
      "did not end within 256 KiB"
    ),
  ])
  func endlessAnswersStopAtALimit(head: String, piece: String, reason: String) {
    let (outcome, fed) = flood(head, piece)
    guard case .tooLong(let found) = outcome else {
      Issue.record(
        "expected the answer to be too long (\(reason)) after at most 256 KiB; got \(outcome.summary) after \(fed) bytes"
      )
      return
    }
    #expect(found.contains(reason), "\(found)")
    #expect(fed <= 256 * 1024 + 8192, "stopped after \(fed) bytes")
  }

  @Test func aLongBodyWithBigChunksIsStillJudgedAtTheBodyLimit() {
    // A portal's login page can be long: its first 64 KiB are kept and the answer is judged on them.
    let (outcome, fed) = flood(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", "1000\r\n" + String(repeating: "x", count: 4096) + "\r\n"
    )
    guard case .complete(let response) = outcome else {
      Issue.record("\(outcome.summary) after \(fed) bytes")
      return
    }
    #expect(response.body.count == 64 * 1024)
    #expect(!response.isBodyComplete)
  }

  @Test func manyInterimResponsesWithinTheLimitAreSkipped() throws {
    let text =
      String(repeating: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n", count: 100)
      + "HTTP/1.1 204 No Content\r\n\r\n"
    guard case .complete(let response) = HTTPResponseParser.parse(Array(text.utf8)) else {
      Issue.record("complete")
      return
    }
    #expect(response.status == 204)
  }

  @Test func aLongHeaderFedByteByByteIsParsedInLinearTime() {
    // A 60 KiB header (under the limit), one byte at a time: rescanning the whole header on every byte would
    // take billions of steps; scanning only what is new takes a few hundred thousand.
    var parser = HTTPResponseParser()
    let text =
      "HTTP/1.1 200 OK\r\n"
      + String(repeating: "X-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 1000)
      + "Content-Length: 0\r\n\r\n"
    // The thread's CPU time, not the wall clock's: other suites run in parallel on the same cores, and a wall-clock
    // bound measured them too.
    let started = Self.threadCPUTime()
    var outcome = HTTPResponseParser.Outcome.needMore
    for byte in text.utf8 { outcome = parser.feed(CollectionOfOne(byte)) }
    let elapsed = Self.threadCPUTime() - started
    guard case .complete(let response) = outcome else {
      Issue.record("\(outcome.summary)")
      return
    }
    #expect(response.headers.count == 1001)
    #expect(elapsed < .seconds(2), "\(elapsed) of CPU for a \(text.utf8.count)-byte header fed one byte at a time")
  }

  /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`).
  static func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }
}

extension HTTPResponseParser.Outcome {
  /// The outcome without its body bytes, for failure messages.
  var summary: String {
    switch self {
    case .needMore: "needMore"
    case .complete(let response): "complete(HTTP \(response.status), \(response.body.count) body bytes)"
    case .malformed(let reason): "malformed(\(reason))"
    case .closedWithoutAnswer: "closedWithoutAnswer"
    case .tooLong(let reason): "tooLong(\(reason))"
    }
  }
}
