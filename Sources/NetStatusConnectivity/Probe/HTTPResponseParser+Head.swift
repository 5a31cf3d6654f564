// Reading a response's head: where it ends, its status line and header fields, and how its body is framed.
// Pure functions over bytes, tested on their own (HTTPResponseParserTests).
extension HTTPResponseParser {
  /// Where the header block ends: the empty line (CRLF CRLF, or bare LF LF), searching from `from`. `start`
  /// is where the blank line begins, `end` just after it.
  static func endOfHead(in bytes: [UInt8], from: Int = 0) -> (start: Int, end: Int)? {
    var index = from
    let newline = UInt8(ascii: "\n")
    while index < bytes.count {
      guard bytes[index] == newline else {
        index += 1
        continue
      }
      // A line ended at `index`; is the next line empty?
      let next = index + 1
      if next < bytes.count, bytes[next] == newline { return (index + 1, next + 1) }
      if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == newline {
        return (index + 1, next + 2)
      }
      index += 1
    }
    return nil
  }

  /// Parses the status line and header fields (the head without its final blank line).
  static func parseHead(_ head: [UInt8]) -> Result<HTTPResponse, HeadError> {
    var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
      line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    guard let statusLine = lines.first else { return .failure("the answer has no status line") }
    let statusText = String(decoding: statusLine, as: UTF8.self)
    guard let (version, status, reason) = parseStatusLine(statusText) else {
      return .failure("the status line is not HTTP: \(quoted(statusText))")
    }
    var headers: [HTTPResponse.Header] = []
    for line in lines.dropFirst() {
      if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
        // An obsolete folded continuation line: part of the previous field's value.
        guard !headers.isEmpty else { return .failure("the header starts with a continuation line") }
        let more = String(decoding: line, as: UTF8.self).trimmingHTTPWhitespace()
        headers[headers.count - 1].value += headers[headers.count - 1].value.isEmpty ? more : " " + more
        continue
      }
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
        return .failure("a header line has no colon: \(quoted(String(decoding: line, as: UTF8.self)))")
      }
      let nameBytes = line[line.startIndex..<colon]
      guard !nameBytes.isEmpty, nameBytes.allSatisfy(isTokenByte) else {
        return .failure("a header name is not a token: \(quoted(String(decoding: nameBytes, as: UTF8.self)))")
      }
      let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingHTTPWhitespace()
      headers.append(HTTPResponse.Header(name: String(decoding: nameBytes, as: UTF8.self), value: value))
    }
    return .success(
      HTTPResponse(
        version: version, status: status, reason: reason, headers: headers, body: [], isBodyComplete: false))
  }

  /// `HTTP/1.1 204 No Content` → ("HTTP/1.1", 204, "No Content"); `nil` when it is not a status line.
  static func parseStatusLine(_ line: String) -> (version: String, status: Int, reason: String)? {
    let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2 else { return nil }
    let version = String(parts[0])
    guard version.hasPrefix("HTTP/"), version.count <= 8,
      version.dropFirst(5).allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), version.count > 5
    else { return nil }
    let code = parts[1]
    guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isNumber }), let status = Int(code),
      (100..<600).contains(status)
    else { return nil }
    let reason = parts.count > 2 ? String(parts[2]) : ""
    return (version, status, reason)
  }

  /// How the body of `response` is delimited: `nil` for no body.
  static func framing(of response: HTTPResponse) -> Result<Framing?, HeadError> {
    if response.status == 204 || response.status == 304 || response.status == 101 { return .success(nil) }
    let codings = response.headers(named: "Transfer-Encoding")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingHTTPWhitespace().lowercased() }
      .filter { !$0.isEmpty }
    if let last = codings.last {
      // RFC 9112 6.3: chunked must come last; any other final coding runs to the close.
      return .success(last == "chunked" ? .chunked(.size) : .untilClose)
    }
    let lengths = response.headers(named: "Content-Length")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingHTTPWhitespace() }
    guard let first = lengths.first else { return .success(.untilClose) }
    guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
      first.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(first)
    else {
      return .failure("the Content-Length is not one number: \(quoted(lengths.joined(separator: ", ")))")
    }
    return .success(length == 0 ? nil : .length(remaining: length))
  }

  /// The size of a chunk from its size line (`1a` or `1a;name=value`), or `nil` if it is not hexadecimal.
  static func chunkSize(_ line: some Collection<UInt8>) -> Int? {
    let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
    guard !digits.isEmpty, digits.count <= 15 else { return nil }
    var size = 0
    for byte in digits {
      let value: Int
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
      default: return nil
      }
      size = size * 16 + value  // at most 15 hex digits: no overflow
    }
    return size
  }

  /// RFC 9110 token characters, allowed in header names.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  private static func quoted(_ text: String) -> String {
    let short = text.count > 60 ? String(text.prefix(60)) + "…" : text
    return "\"" + short.escapingControlCharacters() + "\""
  }

  /// Why a head is malformed.
  struct HeadError: Error, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    var description: String
    init(stringLiteral value: String) { description = value }
    init(_ description: String) { self.description = description }
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
  func trimmingHTTPWhitespace() -> String {
    trimmingScalars(" \t")
  }

  /// Without leading and trailing characters from `set`.
  func trimmingScalars(_ set: String) -> String {
    let scalars = Set(set.unicodeScalars)
    var view = Substring(self).unicodeScalars[...]
    while let first = view.first, scalars.contains(first) { view = view.dropFirst() }
    while let last = view.last, scalars.contains(last) { view = view.dropLast() }
    return String(String.UnicodeScalarView(view))
  }
}
