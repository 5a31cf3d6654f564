/// How to check that the internet answers: which URL to fetch, what answer to expect, how long to wait,
/// and when to check again. A plain value; give it to a ``ConnectivityMonitor``.
///
/// Nothing is sent unless you create a probe: NetStatus makes no traffic of its own by default.
///
/// ```swift
/// // A URL that answers 204 No Content (as Android, ChromeOS and Ubuntu's checks do):
/// let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")
///
/// // NetworkManager's check: a body that starts with a known text.
/// let nm = try ConnectivityProbe(url: "http://nmcheck.gnome.org/check_network_status.txt",
///                                expecting: .body("NetworkManager is online"))
/// ```
///
/// ## Plain HTTP only
/// The probe fetches an `http://` URL with one HTTP/1.1 GET. `https` is refused: a captive portal can only
/// intercept plain HTTP (which is what makes it detectable), and there is no portable TLS API on Linux.
/// Host names are resolved with the system resolver (from inside the monitored network namespace, if any);
/// in a named namespace with a `/etc/netns/NAME/resolv.conf` of its own, with that file's name servers and
/// the namespace's hosts file, as `ip netns exec NAME` would. An IP address in the URL avoids the lookup.
/// The ``timeout`` covers the lookup too: a name that does not exist is "cannot resolve", a resolver that
/// does not answer is "no answer", and either ends the check (``ConnectivityState/limited``) on time.
///
/// ## When it runs
/// See ``ConnectivityMonitor``: once when monitoring starts, then only when the path changes (after
/// ``settleDelay``), again with backoff while the answer is not ``ConnectivityState/full``
/// (``initialBackoff``, doubling up to ``maximumBackoff``), and while full only every ``recheckInterval``
/// if you set one.
///
/// ## Valid when made
/// The initializer checks every setting, and the properties are read-only: a probe that exists is valid. To change
/// a setting, make a new probe.
///
/// ```swift
/// let probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/", timeout: .seconds(2))
/// ```
public struct ConnectivityProbe: Sendable, Hashable {
  /// What counts as the expected answer.
  public enum Expectation: Sendable, Hashable, CustomStringConvertible {
    /// The answer has this status code (204 for the common "generate_204" style checks).
    case status(Int)
    /// The answer is a success (2xx) whose body starts with this text (NetworkManager's check).
    case body(String)
    /// The answer has this header with this value (the name compared without regard to case, the value
    /// exactly, after trimming spaces), such as `X-NetworkManager-Status: online`.
    case header(name: String, value: String)

    /// `status 204`, `body "NetworkManager is online"`, `header X-NetworkManager-Status: online`.
    public var description: String {
      switch self {
      case .status(let status): "status \(status)"
      case .body(let text): "body starting with \"\(text)\""
      case .header(let name, let value): "header \(name): \(value)"
      }
    }
  }

  /// The URL to fetch, as given.
  public let url: String
  /// The URL taken apart.
  package let endpoint: HTTPProbeURL
  /// The expected answer.
  public let expectation: Expectation
  /// How long one check may take, from connecting to the end of the answer; it is then ``ConnectivityState/limited``.
  public let timeout: Duration
  /// How long to wait after a path change before checking, so that a burst of changes (an address, then a
  /// route) leads to one check over the settled path.
  public let settleDelay: Duration
  /// The first wait before checking again while the state is not full. It doubles after each check that
  /// is not full, up to ``maximumBackoff``.
  public let initialBackoff: Duration
  /// The longest wait between checks while the state is not full.
  public let maximumBackoff: Duration
  /// How often to check again while the state is full, or `nil` (the default) never to poll while full:
  /// the next check then comes with the next path change.
  public let recheckInterval: Duration?
}

// The initializer is in an extension so that Swift still makes the memberwise one, which it calls before checking the
// settings. The memberwise one checks nothing: nothing else calls it.
extension ConnectivityProbe {
  /// Creates a probe.
  ///
  /// - Parameters:
  ///   - url: An `http://` URL that answers in a known way.
  ///   - expectation: The expected answer; `.status(204)` by default.
  ///   - timeout: How long one check may take (5 seconds by default).
  ///   - settleDelay: How long to let a path change settle before checking (250 ms by default).
  ///   - initialBackoff: The first wait before checking again while not full (1 second by default).
  ///   - maximumBackoff: The longest such wait (300 seconds by default, NetworkManager's interval).
  ///   - recheckInterval: How often to check while full; `nil` (the default) for never.
  /// - Throws: ``ConnectivityProbeError`` when the URL is not `http://`
  ///   (``ConnectivityProbeError/unsupportedScheme(url:scheme:)``, ``ConnectivityProbeError/invalidURL(url:reason:)``)
  ///   or a setting is out of range (``ConnectivityProbeError/settingOutOfRange(_:)``).
  public init(
    url: String,
    expecting expectation: Expectation = .status(204),
    timeout: Duration = .seconds(5),
    settleDelay: Duration = .milliseconds(250),
    initialBackoff: Duration = .seconds(1),
    maximumBackoff: Duration = .seconds(300),
    recheckInterval: Duration? = nil
  ) throws(ConnectivityProbeError) {
    let endpoint = try HTTPProbeURL(url)
    self.init(
      url: url, endpoint: endpoint, expectation: expectation, timeout: timeout, settleDelay: settleDelay,
      initialBackoff: initialBackoff, maximumBackoff: maximumBackoff, recheckInterval: recheckInterval)
    try checkSettings()
  }

  /// Throws the first setting out of range, if any: positive durations, a backoff cap no smaller than its start, a
  /// status in 100–599, a non-empty body text or header name.
  private func checkSettings() throws(ConnectivityProbeError) {
    guard timeout > .zero else { throw .settingOutOfRange(.timeoutNotPositive(timeout)) }
    guard settleDelay >= .zero else { throw .settingOutOfRange(.settleDelayNegative(settleDelay)) }
    guard initialBackoff > .zero else { throw .settingOutOfRange(.initialBackoffNotPositive(initialBackoff)) }
    guard maximumBackoff >= initialBackoff else {
      throw .settingOutOfRange(.maximumBackoffBelowInitial(maximum: maximumBackoff, initial: initialBackoff))
    }
    if let recheckInterval, recheckInterval <= .zero {
      throw .settingOutOfRange(.recheckIntervalNotPositive(recheckInterval))
    }
    switch expectation {
    case .status(let status) where !(100..<600).contains(status):
      throw .settingOutOfRange(.statusNotHTTP(status))
    case .body(let text) where text.isEmpty:
      throw .settingOutOfRange(.emptyBodyText)
    case .header(let name, _) where name.isEmpty || name.contains(":"):
      throw .settingOutOfRange(.invalidHeaderName(name))
    default:
      break
    }
  }
}
