/// Reads an HTTP/1.x response from bytes as they arrive. Pure: no I/O; never traps on any input; the work
/// it does is linear in the bytes fed, however they are split.
///
/// Feed it what the socket returns with ``feed(_:)``; when the peer closes, call ``finish()``. Both say
/// whether the response is complete, needs more bytes, is malformed, or is too long. Bodies are framed by
/// `Content-Length`, by chunked transfer coding, or by the end of the connection; 1xx interim responses
/// are skipped; 204 and 304 have no body. Only the first ``maximumBodyBytes`` of a body are kept: the probe
/// compares a short text, and a portal's login page can be large; the answer is judged once they are in.
///
/// An answer must end within limits, so that a server that keeps sending cannot keep the probe reading:
/// every head (the status lines and header fields of the interim responses and of the final one, and the
/// trailer) counts against ``maximumHeaderBytes``, and everything fed against ``maximumAnswerBytes``
/// (which also bounds chunk framing: a body of one-byte chunks costs six bytes per byte kept).
package struct HTTPResponseParser {
  /// What the parser has decided so far.
  package enum Outcome: Sendable, Hashable {
    /// The response is not complete yet.
    case needMore
    /// The response, complete (or cut at the body limit, see ``HTTPResponse/isBodyComplete``).
    case complete(HTTPResponse)
    /// The bytes are not an HTTP response, with the reason.
    case malformed(String)
    /// The connection ended where an answer should have begun: nothing came (or only interim 1xx responses).
    /// No answer at all, rather than a malformed one.
    case closedWithoutAnswer
    /// The answer did not end within the parser's limits (an endless header, endless interim responses or
    /// trailers, or more bytes than an answer may take), with what happened.
    case tooLong(String)
  }

  /// The most bytes of heads accepted, in all: the status lines and header fields of every interim (1xx)
  /// response and of the final one, and the trailer of a chunked body.
  let maximumHeaderBytes: Int
  /// The most body bytes kept; reading stops there.
  let maximumBodyBytes: Int
  /// The most bytes an answer may take before it is complete, framing included.
  let maximumAnswerBytes: Int

  /// Where a chunked body is: a size line, a chunk's data, the CRLF after it, or the trailer.
  enum ChunkPhase {
    case size
    case data(remaining: Int)
    case dataEnd
    case trailers
  }

  /// How a body is delimited.
  enum Framing {
    case length(remaining: Int)
    case chunked(ChunkPhase)
    case untilClose
  }

  private enum Phase {
    case head
    case body(Framing)
    case finished(Outcome)
  }

  /// Bytes received and not yet dropped; those before ``position`` are consumed.
  private var buffer: [UInt8] = []
  /// Where the unconsumed bytes of ``buffer`` start.
  private var position = 0
  /// Where the search for the end of the current head or line resumes: bytes before it were searched.
  private var scanFrom = 0
  /// Bytes of heads consumed so far (interim responses, the final head, trailer lines).
  private var headBytes = 0
  /// Interim (1xx) responses skipped so far.
  private var interimResponses = 0
  /// Bytes fed so far.
  private var received = 0
  private var phase = Phase.head
  private var response: HTTPResponse?
  /// Whether body bytes beyond the limit were dropped.
  private var truncated = false

  /// Creates a parser.
  init(maximumHeaderBytes: Int = 64 * 1024, maximumBodyBytes: Int = 64 * 1024, maximumAnswerBytes: Int = 256 * 1024) {
    self.maximumHeaderBytes = max(maximumHeaderBytes, 64)
    self.maximumBodyBytes = max(maximumBodyBytes, 0)
    self.maximumAnswerBytes = max(maximumAnswerBytes, self.maximumHeaderBytes)
  }

  /// The limits an answer must end within: the probe's by default.
  package struct Limits: Sendable, Hashable {
    /// See ``HTTPResponseParser/maximumHeaderBytes``.
    package var maximumHeaderBytes = 64 * 1024
    /// See ``HTTPResponseParser/maximumBodyBytes``.
    package var maximumBodyBytes = 64 * 1024
    /// See ``HTTPResponseParser/maximumAnswerBytes``.
    package var maximumAnswerBytes = 256 * 1024
    /// The most reads from the socket an answer may take (the connection counts them). The byte limits
    /// bound what is read, this bounds the work: a server that sends one byte per segment would otherwise
    /// cost a wake-up, a `poll`, a `recv` and a parse per byte. An answer over a real network comes in
    /// segments of hundreds of bytes or more: 64 KiB takes a few hundred reads.
    package var maximumReads = 4096

    /// The probe's limits, or others (tests).
    package init(
      maximumHeaderBytes: Int = 64 * 1024, maximumBodyBytes: Int = 64 * 1024, maximumAnswerBytes: Int = 256 * 1024,
      maximumReads: Int = 4096
    ) {
      self.maximumHeaderBytes = maximumHeaderBytes
      self.maximumBodyBytes = maximumBodyBytes
      self.maximumAnswerBytes = maximumAnswerBytes
      self.maximumReads = maximumReads
    }
  }

  /// Creates a parser with these limits.
  package init(limits: Limits) {
    self.init(
      maximumHeaderBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes,
      maximumAnswerBytes: limits.maximumAnswerBytes)
  }

  /// Parses a whole response: these bytes, then the end of the connection.
  static func parse(_ bytes: [UInt8], maximumBodyBytes: Int = 64 * 1024) -> Outcome {
    var parser = HTTPResponseParser(maximumBodyBytes: maximumBodyBytes)
    let outcome = parser.feed(bytes)
    return outcome == .needMore ? parser.finish() : outcome
  }

  /// Adds bytes received from the peer.
  package mutating func feed(_ bytes: some Collection<UInt8>) -> Outcome {
    if case .finished(let outcome) = phase { return outcome }
    compact()
    buffer.append(contentsOf: bytes)
    received += bytes.count
    let outcome = advance(atEnd: false)
    guard outcome == .needMore, received > maximumAnswerBytes else { return outcome }
    return finish(.tooLong("the answer did not end within \(Self.size(maximumAnswerBytes))"))
  }

  /// The peer closed the connection: a body framed by the close ends here, and anything else that is not
  /// complete is truncated (a cut body is still a response; a cut header is malformed).
  package mutating func finish() -> Outcome {
    if case .finished(let outcome) = phase { return outcome }
    return advance(atEnd: true)
  }

  // MARK: Steps

  /// Drops the consumed bytes once they are at least half the buffer: each byte is moved at most a few
  /// times, so the copying stays linear in the bytes fed.
  private mutating func compact() {
    guard position > 0, position * 2 >= buffer.count else { return }
    buffer.removeFirst(position)
    scanFrom -= position
    position = 0
  }

  /// The unconsumed bytes.
  private var available: Int { buffer.count - position }

  /// Consumes `count` bytes; the next search starts after them.
  private mutating func consume(_ count: Int) {
    position += count
    scanFrom = position
  }

  private mutating func advance(atEnd: Bool) -> Outcome {
    while true {
      switch phase {
      case .finished(let outcome):
        return outcome
      case .head:
        guard let headEnd = Self.endOfHead(in: buffer, from: max(position, scanFrom)) else {
          // The blank line may start in the last two bytes and end in the next feed.
          scanFrom = max(position, buffer.count - 2)
          if headBytes + available > maximumHeaderBytes { return finish(.tooLong(headTooLong)) }
          if atEnd {
            if available == 0 { return finish(.closedWithoutAnswer) }
            return finish(.malformed("the answer ended inside its header"))
          }
          return .needMore
        }
        let length = headEnd.end - position
        if headBytes + length > maximumHeaderBytes { return finish(.tooLong(headTooLong)) }
        headBytes += length
        let head = Array(buffer[position..<headEnd.start])
        consume(length)
        switch Self.parseHead(head) {
        case .failure(let reason):
          return finish(.malformed(reason.description))
        case .success(let parsed):
          if (100..<200).contains(parsed.status), parsed.status != 101 {
            interimResponses += 1
            continue  // an interim response (100 Continue, 103 Early Hints): the real one follows
          }
          response = parsed
          switch Self.framing(of: parsed) {
          case .failure(let reason): return finish(.malformed(reason.description))
          case .success(nil): return complete(bodyComplete: true)
          case .success(let framing?): phase = .body(framing)
          }
        }
      case .body(let framing):
        if let outcome = advanceBody(framing, atEnd: atEnd) { return outcome }
      }
    }
  }

  /// Why the heads are too long: what the server kept sending.
  private var headTooLong: String {
    interimResponses > 0
      ? "the server sent more than \(Self.size(maximumHeaderBytes)) of interim (1xx) responses and headers "
        + "without a final answer (\(interimResponses) interim responses)"
      : "the header did not end within \(Self.size(maximumHeaderBytes))"
  }

  /// Consumes body bytes; returns an outcome when the parser stops here, `nil` to keep going.
  private mutating func advanceBody(_ framing: Framing, atEnd: Bool) -> Outcome? {
    switch framing {
    case .untilClose:
      take(available)
      if bodyIsFull { return complete(bodyComplete: false) }
      return atEnd ? complete(bodyComplete: true) : .needMore
    case .length(let remaining):
      let count = min(remaining, available)
      take(count)
      let left = remaining - count
      if left == 0 { return complete(bodyComplete: true) }
      if bodyIsFull { return complete(bodyComplete: false) }
      phase = .body(.length(remaining: left))
      return atEnd ? complete(bodyComplete: false) : .needMore
    case .chunked(let chunk):
      switch chunk {
      case .size:
        guard let line = takeLine() else {
          if available > 1024 { return finish(.malformed("a chunk size line is too long")) }
          return atEnd ? complete(bodyComplete: false) : .needMore
        }
        guard line.count <= 1024 else { return finish(.malformed("a chunk size line is too long")) }
        guard let size = Self.chunkSize(line) else {
          return finish(.malformed("a chunk size is not a hexadecimal number"))
        }
        phase = .body(.chunked(size == 0 ? .trailers : .data(remaining: size)))
        return nil
      case .data(let remaining):
        let count = min(remaining, available)
        take(count)
        let left = remaining - count
        if bodyIsFull { return complete(bodyComplete: false) }
        phase = .body(.chunked(left == 0 ? .dataEnd : .data(remaining: left)))
        if left > 0 { return atEnd ? complete(bodyComplete: false) : .needMore }
        return nil
      case .dataEnd:
        guard let line = takeLine() else {
          if available >= 2 { return finish(.malformed("a chunk does not end with CRLF")) }
          return atEnd ? complete(bodyComplete: false) : .needMore
        }
        guard line.isEmpty else { return finish(.malformed("a chunk is longer than its size")) }
        phase = .body(.chunked(.size))
        return nil
      case .trailers:
        let before = position
        guard let line = takeLine() else {
          if headBytes + available > maximumHeaderBytes { return finish(.tooLong(trailerTooLong)) }
          // The body is whole; only the (ignored) trailer is cut.
          return atEnd ? complete(bodyComplete: true) : .needMore
        }
        headBytes += position - before
        if headBytes > maximumHeaderBytes { return finish(.tooLong(trailerTooLong)) }
        return line.isEmpty ? complete(bodyComplete: true) : nil
      }
    }
  }

  /// Why the trailer is too long.
  private var trailerTooLong: String {
    "the trailer did not end within the \(Self.size(maximumHeaderBytes)) allowed for headers"
  }

  private var bodyIsFull: Bool { (response?.body.count ?? 0) >= maximumBodyBytes }

  /// Moves `count` bytes from the buffer to the body, keeping at most the limit.
  private mutating func take(_ count: Int) {
    guard count > 0 else { return }
    let room = maximumBodyBytes - (response?.body.count ?? 0)
    if room > 0 { response?.body.append(contentsOf: buffer[position..<(position + min(room, count))]) }
    if count > room { truncated = true }
    consume(count)
  }

  /// Takes one line (without its CRLF or LF) from the buffer, or `nil` when no full line is there (the
  /// next search then starts where this one stopped).
  private mutating func takeLine() -> ArraySlice<UInt8>? {
    let from = max(position, scanFrom)
    guard let newline = buffer[from...].firstIndex(of: UInt8(ascii: "\n")) else {
      scanFrom = buffer.count
      return nil
    }
    var line = buffer[position..<newline]
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    consume(newline + 1 - position)
    return line
  }

  private mutating func complete(bodyComplete: Bool) -> Outcome {
    guard var response else { return finish(.malformed("no response")) }
    response.isBodyComplete = bodyComplete && !truncated
    return finish(.complete(response))
  }

  private mutating func finish(_ outcome: Outcome) -> Outcome {
    phase = .finished(outcome)
    buffer = []
    position = 0
    scanFrom = 0
    return outcome
  }

  /// `64 KiB`, or `100 bytes` for a size that is not a whole number of KiB.
  static func size(_ bytes: Int) -> String {
    bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
  }
}
