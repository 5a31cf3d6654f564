import Testing

@testable import NetStatusConnectivity

/// The judging every transport shares (ProbeAnswerReader.swift), without I/O.
@Suite("Probe answer reader")
struct ProbeAnswerReaderTests {
  static let answer204 = Array("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n".utf8)

  @Test func anAnswerSplitAcrossReadsIsCompleteAtItsEnd() {
    var reader = ProbeAnswerReader(limits: HTTPResponseParser.Limits())
    #expect(reader.received(Self.answer204[..<10]) == nil)
    let result = reader.received(Self.answer204[10...])
    guard case .response(let response) = result else {
      Issue.record("not a response: \(result)")
      return
    }
    #expect(response.status == 204)
    #expect(reader.reads == 2 && reader.received == Self.answer204.count)
  }

  @Test func theReadLimitEndsAnAnswerThatComesAByteAtATime() {
    var reader = ProbeAnswerReader(limits: HTTPResponseParser.Limits(maximumReads: 3))
    #expect(reader.received(Array("H".utf8)) == nil)
    #expect(reader.received(Array("T".utf8)) == nil)
    #expect(
      reader.received(Array("T".utf8)) == .failed(.answerTooLong("the answer did not end within 3 reads (3 bytes)")))
  }

  @Test func theDeadlineSaysWhetherAnythingCame() {
    var reader = ProbeAnswerReader(limits: HTTPResponseParser.Limits())
    #expect(reader.deadlinePassed(.seconds(1)) == .failed(.timedOut(.seconds(1))))
    _ = reader.received(Array("HTTP/1.1 200 OK\r\n".utf8))
    #expect(reader.deadlinePassed(.seconds(1)) == .failed(.answerUnfinished(within: .seconds(1), received: 17)))
  }

  @Test func theEndOfTheStreamAndAResetAreToldApart() {
    var closed = ProbeAnswerReader(limits: HTTPResponseParser.Limits())
    #expect(closed.peerClosed() == .failed(.closedWithoutAnswer(.byPeer)))
    var reset = ProbeAnswerReader(limits: HTTPResponseParser.Limits())
    #expect(reset.failed(errno: 104) == .failed(.closedWithoutAnswer(.whileReceiving(errno: 104))))
    // A body framed by the close, complete when the reset came: the answer stands.
    var framedByClose = ProbeAnswerReader(limits: HTTPResponseParser.Limits())
    #expect(framedByClose.received(Array("HTTP/1.1 200 OK\r\n\r\nhello".utf8)) == nil)
    guard case .response(let response) = framedByClose.failed(errno: 104) else {
      Issue.record("the answer received before the reset was lost")
      return
    }
    #expect(response.body == Array("hello".utf8))
  }
}
