/// Reads a probe's answer as a transport receives it, and says when the exchange is over and how: the judging shared
/// by every transport (the Linux sockets of `Linux/HTTPProbeConnection.swift`, Network's `NWConnection` in
/// `Apple/NWConnectionProbeTransport.swift`), so that each answer ends alike whatever carried it. Pure: no I/O.
///
/// The transport feeds each read with ``received(_:)`` and reports how reading ended (``peerClosed()``,
/// ``failed(errno:)``, ``deadlinePassed(_:)``); each returns the exchange's result once there is one. The limits are
/// ``HTTPResponseParser``'s bytes and ``HTTPResponseParser/Limits/maximumReads``, the reads an answer may take.
package struct ProbeAnswerReader {
  private var parser: HTTPResponseParser
  private let maximumReads: Int
  /// Bytes received so far.
  package private(set) var received = 0
  /// Reads that returned bytes so far.
  package private(set) var reads = 0

  /// A reader of one answer, within `limits`.
  package init(limits: HTTPResponseParser.Limits) {
    parser = HTTPResponseParser(limits: limits)
    maximumReads = limits.maximumReads
  }

  /// The request a probe sends for `endpoint`: `GET /path HTTP/1.1` with the headers a probe needs, and no cookies or
  /// identifiers. Every transport sends these bytes.
  package static func request(for endpoint: HTTPProbeURL) -> [UInt8] {
    Array(
      ("GET \(endpoint.target) HTTP/1.1\r\n" + "Host: \(endpoint.hostHeader)\r\n"
        + "User-Agent: NetStatus connectivity probe\r\n"
        + "Accept: */*\r\n" + "Cache-Control: no-cache\r\n" + "Connection: close\r\n" + "\r\n").utf8)
  }

  /// The bytes of one read (not empty); the result once the answer is complete, malformed or over a limit (the reads
  /// included), else `nil`: read on.
  package mutating func received(_ bytes: some Collection<UInt8>) -> ProbeExchange.Result? {
    reads += 1
    received += bytes.count
    if let result = Self.result(parser.feed(bytes)) { return result }
    guard reads < maximumReads else {
      return .failed(.answerTooLong("the answer did not end within \(maximumReads) reads (\(received) bytes)"))
    }
    return nil
  }

  /// The peer closed its side (a FIN): a body framed by the close ends here; anything else incomplete is cut.
  package mutating func peerClosed() -> ProbeExchange.Result {
    Self.result(parser.finish()) ?? .failed(.malformed("the answer ended early"))
  }

  /// Reading failed with `errno` (a reset): a complete answer already in still counts; otherwise the connection
  /// closed without one.
  package mutating func failed(errno: Int32) -> ProbeExchange.Result {
    if received > 0, case .complete(let response) = parser.finish() { return .response(response) }
    return .failed(.closedWithoutAnswer(.whileReceiving(errno: errno)))
  }

  /// The deadline passed while waiting for the answer: no answer at all, or one that did not end in time.
  package func deadlinePassed(_ timeout: Duration) -> ProbeExchange.Result {
    .failed(received == 0 ? .timedOut(timeout) : .answerUnfinished(within: timeout, received: received))
  }

  /// What a parser outcome means for the exchange; `nil` while more is needed.
  private static func result(_ parsed: HTTPResponseParser.Outcome) -> ProbeExchange.Result? {
    switch parsed {
    case .needMore: return nil
    case .complete(let response): return .response(response)
    case .closedWithoutAnswer: return .failed(.closedWithoutAnswer(.byPeer))
    case .malformed(let reason): return .failed(.malformed(reason))
    case .tooLong(let reason): return .failed(.answerTooLong(reason))
    }
  }
}
