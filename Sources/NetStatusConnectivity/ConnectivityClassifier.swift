/// Judges a probe exchange: turns a response or a transport failure, and the expectation, into a
/// ``ConnectivityState``. Pure.
///
/// - The expected answer: ``ConnectivityState/full``.
/// - Any other HTTP answer: ``ConnectivityState/portal(redirect:)``, with the `Location` of a 3xx answer
///   (made absolute when it is relative to the probe URL).
/// - No usable answer (refused, unreachable, timed out, closed, not HTTP): ``ConnectivityState/limited``.
/// - A local failure that says nothing about the network: ``ConnectivityState/unknown``.
enum ConnectivityClassifier {
  /// The state and a short account of what was seen.
  static func classify(_ result: ProbeExchange.Result, probe: ConnectivityProbe) -> (
    state: ConnectivityState, detail: String
  ) {
    switch result {
    case .failed(let failure):
      switch failure {
      case .local, .cancelled: return (.unknown, failure.description)
      default: return (.limited, failure.description)
      }
    case .response(let response):
      let summary = "HTTP \(response.status)"
      if matches(response, probe.expectation) { return (.full, summary) }
      if response.isRedirect {
        let target = response.header("Location").flatMap { probe.endpoint.resolve(location: $0) }
        return (.portal(redirect: target), summary + (target.map { " to \($0)" } ?? " without a Location"))
      }
      return (.portal(redirect: nil), summary + ", " + mismatch(response, probe.expectation))
    }
  }

  /// Whether the response is the expected answer.
  static func matches(_ response: HTTPResponse, _ expectation: ConnectivityProbe.Expectation) -> Bool {
    switch expectation {
    case .status(let status):
      return response.status == status
    case .body(let text):
      return (200..<300).contains(response.status) && response.body.starts(with: Array(text.utf8))
    case .header(let name, let value):
      return response.headers(named: name).contains { $0 == value.trimmingHTTPWhitespace() }
    }
  }

  /// Why the response is not the expected one.
  private static func mismatch(_ response: HTTPResponse, _ expectation: ConnectivityProbe.Expectation) -> String {
    switch expectation {
    case .status(let status):
      return "expected \(status)"
    case .body:
      guard (200..<300).contains(response.status) else { return "expected a 2xx answer with the expected body" }
      return "the body is not the expected text"
    case .header(let name, let value):
      guard let found = response.header(name) else { return "no \(name) header" }
      return "\(name) is '\(found)', expected '\(value)'"
    }
  }
}
