/// Why a ``ConnectivityProbe`` cannot be made from what it was given.
///
/// ```swift
/// do {
///     let probe = try ConnectivityProbe(url: "https://example.com/")
/// } catch {
///     print(error)  // explains that the probe speaks plain HTTP, and what to use instead
/// }
/// ```
public enum ConnectivityProbeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The URL's scheme is not `http`. `https` is refused too: the probe speaks plain HTTP.
  case unsupportedScheme(url: String, scheme: String)
  /// The URL is not a usable `http://` URL.
  case invalidURL(url: String, reason: String)
  /// A setting is out of range: which one, with the value given (a timeout that is not positive, a status
  /// outside 100–599, …). Thrown by ``ConnectivityProbe/init(url:expecting:timeout:settleDelay:initialBackoff:maximumBackoff:recheckInterval:)``.
  case settingOutOfRange(SettingProblem)

  /// Which setting of a ``ConnectivityProbe`` is out of range, and the value given. Its description says what to
  /// give instead.
  public enum SettingProblem: Sendable, Hashable, CustomStringConvertible {
    /// ``ConnectivityProbe/timeout`` is zero or negative.
    case timeoutNotPositive(Duration)
    /// ``ConnectivityProbe/settleDelay`` is negative.
    case settleDelayNegative(Duration)
    /// ``ConnectivityProbe/initialBackoff`` is zero or negative.
    case initialBackoffNotPositive(Duration)
    /// ``ConnectivityProbe/maximumBackoff`` is smaller than ``ConnectivityProbe/initialBackoff``.
    case maximumBackoffBelowInitial(maximum: Duration, initial: Duration)
    /// ``ConnectivityProbe/recheckInterval`` is zero or negative.
    case recheckIntervalNotPositive(Duration)
    /// The expected status (``ConnectivityProbe/Expectation/status(_:)``) is not an HTTP status (100–599).
    case statusNotHTTP(Int)
    /// The expected body text (``ConnectivityProbe/Expectation/body(_:)``) is empty.
    case emptyBodyText
    /// The expected header's name (``ConnectivityProbe/Expectation/header(name:value:)``) is empty or has a colon.
    case invalidHeaderName(String)

    /// What is wrong, and what to give instead.
    public var description: String {
      switch self {
      case .timeoutNotPositive(let timeout):
        "the timeout is \(timeout), but a check needs time to answer: give a positive timeout, such as "
          + ".seconds(5) (the default)"
      case .settleDelayNegative(let delay):
        "the settle delay is \(delay), which is negative: give .zero to check as soon as the path changes, or a "
          + "positive delay such as .milliseconds(250) (the default)"
      case .initialBackoffNotPositive(let backoff):
        "the initial backoff is \(backoff), but checks while the internet does not answer must be spaced: give a "
          + "positive backoff, such as .seconds(1) (the default)"
      case .maximumBackoffBelowInitial(let maximum, let initial):
        "the maximum backoff (\(maximum)) is smaller than the initial one (\(initial)): give a maximum at least "
          + "as long as the initial backoff (300 seconds by default), or a shorter initial one"
      case .recheckIntervalNotPositive(let interval):
        "the recheck interval is \(interval), but rechecks must be spaced: give a positive interval, such as "
          + ".seconds(300), or nil never to recheck while the internet answers"
      case .statusNotHTTP(let status):
        "the expected status \(status) is not an HTTP status (100–599): give the status the URL answers with, "
          + "such as .status(204)"
      case .emptyBodyText:
        "the expected body text is empty, so any 2xx answer would match (a portal's page too): give the text the "
          + "body starts with, such as .body(\"NetworkManager is online\")"
      case .invalidHeaderName(let name):
        "the expected header name '\(name.escapingControlCharacters())' is not a header name (it is empty or has a "
          + "colon): give the name alone, such as .header(name: \"X-NetworkManager-Status\", value: \"online\")"
      }
    }
  }

  /// What is wrong, and what to do.
  public var description: String {
    switch self {
    case .unsupportedScheme(let url, let scheme) where scheme == "https":
      return "the probe URL \(url) uses https, but the connectivity probe speaks plain HTTP only: captive portals "
        + "can only intercept plain HTTP, and there is no portable TLS on Linux. Use an http:// URL that "
        + "answers with a known reply, such as http://connectivity-check.ubuntu.com/ (204)"
    case .unsupportedScheme(let url, let scheme):
      return "the probe URL \(url) uses the scheme '\(scheme)'; the connectivity probe needs an http:// URL"
    case .invalidURL(let url, let reason):
      return "the probe URL '\(url)' is not usable: \(reason). Give an http://HOST[:PORT]/PATH URL"
    case .settingOutOfRange(let problem):
      return "invalid connectivity probe setting: \(problem)"
    }
  }
}
