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
/// ## Changing settings
/// Change a setting with its throwing setter: ``setTimeout(_:)``, ``setSettleDelay(_:)``,
/// ``setBackoff(initial:maximum:)``, ``setRecheckInterval(_:)``, ``setExpectation(_:)``. Each checks the new value
/// as the initializer does, throws ``ConnectivityProbeError/settingOutOfRange(_:)`` when it is out of range, and
/// then leaves the probe as it was. The properties' own setters are deprecated: they do not check.
///
/// ```swift
/// var probe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")
/// try probe.setTimeout(.seconds(2))
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
  /// The settings, checked: by the initializer and by each throwing setter (``setTimeout(_:)``, …).
  var settings: Settings

  /// The settings a probe checks together (the backoffs constrain each other).
  struct Settings: Sendable, Hashable {
    var expectation: Expectation
    var timeout: Duration
    var settleDelay: Duration
    var initialBackoff: Duration
    var maximumBackoff: Duration
    var recheckInterval: Duration?

    /// The first problem, if any, as ``ConnectivityProbe/validate()`` reports it.
    func validate() throws(ConnectivityProbeError) {
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

  /// The expected answer. Change it with ``setExpectation(_:)``, which checks it.
  public var expectation: Expectation {
    get { settings.expectation }
    @available(*, deprecated, message: "not checked: use setExpectation(_:), which throws ConnectivityProbeError")
    set { settings.expectation = newValue }
  }
  /// How long one check may take, from connecting to the end of the answer; it is then ``ConnectivityState/limited``.
  /// Change it with ``setTimeout(_:)``, which checks it.
  public var timeout: Duration {
    get { settings.timeout }
    @available(*, deprecated, message: "not checked: use setTimeout(_:), which throws ConnectivityProbeError")
    set { settings.timeout = newValue }
  }
  /// How long to wait after a path change before checking, so that a burst of changes (an address, then a
  /// route) leads to one check over the settled path. Change it with ``setSettleDelay(_:)``, which checks it.
  public var settleDelay: Duration {
    get { settings.settleDelay }
    @available(*, deprecated, message: "not checked: use setSettleDelay(_:), which throws ConnectivityProbeError")
    set { settings.settleDelay = newValue }
  }
  /// The first wait before checking again while the state is not full. It doubles after each check that
  /// is not full, up to ``maximumBackoff``. Change both with ``setBackoff(initial:maximum:)``, which checks them.
  public var initialBackoff: Duration {
    get { settings.initialBackoff }
    @available(
      *, deprecated, message: "not checked: use setBackoff(initial:maximum:), which throws ConnectivityProbeError"
    )
    set { settings.initialBackoff = newValue }
  }
  /// The longest wait between checks while the state is not full. Change both backoffs with
  /// ``setBackoff(initial:maximum:)``, which checks them.
  public var maximumBackoff: Duration {
    get { settings.maximumBackoff }
    @available(
      *, deprecated, message: "not checked: use setBackoff(initial:maximum:), which throws ConnectivityProbeError"
    )
    set { settings.maximumBackoff = newValue }
  }
  /// How often to check again while the state is full, or `nil` (the default) never to poll while full:
  /// the next check then comes with the next path change. Change it with ``setRecheckInterval(_:)``, which
  /// checks it.
  public var recheckInterval: Duration? {
    get { settings.recheckInterval }
    @available(
      *, deprecated, message: "not checked: use setRecheckInterval(_:), which throws ConnectivityProbeError"
    )
    set { settings.recheckInterval = newValue }
  }

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
    self.endpoint = try HTTPProbeURL(url)
    self.url = url
    self.settings = Settings(
      expectation: expectation, timeout: timeout, settleDelay: settleDelay, initialBackoff: initialBackoff,
      maximumBackoff: maximumBackoff, recheckInterval: recheckInterval)
    try validate()
  }

  /// Checks the settings: positive durations, a backoff cap no smaller than its start, a status in 100–599,
  /// a non-empty body text or header name.
  ///
  /// The initializer and the throwing setters check already; this finds a probe changed through the
  /// deprecated, unchecked property setters. A ``ConnectivityMonitor`` checks its probe so too.
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` with the first setting out of range.
  public func validate() throws(ConnectivityProbeError) {
    try settings.validate()
  }

  // MARK: Changing settings

  /// Applies `change` to a copy of the settings and keeps it only if it checks.
  private mutating func change(_ change: (inout Settings) -> Void) throws(ConnectivityProbeError) {
    var changed = settings
    change(&changed)
    try changed.validate()
    settings = changed
  }

  /// Sets the expected answer, after checking it.
  ///
  /// ```swift
  /// try probe.setExpectation(.header(name: "X-NetworkManager-Status", value: "online"))
  /// ```
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` (a status outside 100–599, an empty body text,
  ///   a header name that is empty or has a colon); the probe is then unchanged.
  public mutating func setExpectation(_ expectation: Expectation) throws(ConnectivityProbeError) {
    try change { $0.expectation = expectation }
  }

  /// Sets how long one check may take, after checking it.
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` when `timeout` is not positive; the probe is then
  ///   unchanged.
  public mutating func setTimeout(_ timeout: Duration) throws(ConnectivityProbeError) {
    try change { $0.timeout = timeout }
  }

  /// Sets how long a path change settles before a check, after checking it.
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` when `settleDelay` is negative; the probe is
  ///   then unchanged.
  public mutating func setSettleDelay(_ settleDelay: Duration) throws(ConnectivityProbeError) {
    try change { $0.settleDelay = settleDelay }
  }

  /// Sets the backoff while the state is not full, both ends at once (each bounds the other), after checking
  /// them.
  ///
  /// ```swift
  /// try probe.setBackoff(initial: .seconds(5), maximum: .seconds(600))
  /// ```
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` when `initial` is not positive or `maximum` is
  ///   smaller than `initial`; the probe is then unchanged.
  public mutating func setBackoff(initial: Duration, maximum: Duration) throws(ConnectivityProbeError) {
    try change {
      $0.initialBackoff = initial
      $0.maximumBackoff = maximum
    }
  }

  /// Sets how often to check again while the state is full (`nil` for never), after checking it.
  ///
  /// - Throws: ``ConnectivityProbeError/settingOutOfRange(_:)`` when `recheckInterval` is not positive; the
  ///   probe is then unchanged.
  public mutating func setRecheckInterval(_ recheckInterval: Duration?) throws(ConnectivityProbeError) {
    try change { $0.recheckInterval = recheckInterval }
  }
}
