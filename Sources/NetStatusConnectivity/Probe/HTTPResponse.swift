/// An HTTP/1.x response as the connectivity probe reads it: status, headers and (the start of) the body.
package struct HTTPResponse: Sendable, Hashable {
  /// One header field, as received (the name keeps its case; the value is trimmed).
  package struct Header: Sendable, Hashable {
    package var name: String
    package var value: String
  }

  /// The protocol version of the status line, such as `HTTP/1.1`.
  package var version: String
  /// The status code, 100 to 599.
  package var status: Int
  /// The reason phrase, possibly empty.
  package var reason: String
  /// The header fields, in order.
  package var headers: [Header]
  /// The body, or its first bytes when it was longer than the parser keeps or the connection ended early.
  package var body: [UInt8]
  /// Whether ``body`` is the whole body: `false` when it was cut at the parser's limit or the connection
  /// closed before the length announced.
  package var isBodyComplete: Bool

  /// The value of the first header with this name (compared without regard to case), or `nil`.
  package func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
  }

  /// The values of every header with this name (compared without regard to case), in order.
  package func headers(named name: String) -> [String] {
    let wanted = name.lowercased()
    return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
  }

  /// Whether the status is a redirection (3xx).
  package var isRedirect: Bool { (300..<400).contains(status) }
}
