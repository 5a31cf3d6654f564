/// Why the internet is not there for an app, as far as what is known says: what `.needsInternet()` (NetStatusUI)
/// covers a view for, and what it says.
///
/// It judges the path and, when there is one, a ``ConnectivityMonitor``'s check of the internet:
///
/// | the path | the connectivity check | unavailability |
/// |---|---|---|
/// | not known yet | any | `nil`: an app never flashes "offline" at launch |
/// | unsatisfied | any | ``offline`` |
/// | requires a connection | any | `nil`: a connection attempt brings the network up (an on-demand VPN, cellular that wakes) |
/// | satisfied | none, not checked yet, or full | `nil` |
/// | satisfied | ``ConnectivityState/portal(redirect:)`` | ``captivePortal(loginURL:)`` |
/// | satisfied | ``ConnectivityState/limited`` | ``noInternetAccess`` |
///
/// Without a connectivity monitor only the path is judged: a satisfied path is a route, not proof that the internet
/// answers (hotel Wi-Fi, a dead upstream link), and nothing here says otherwise until something checks.
///
/// ```swift
/// switch network.internetUnavailability {  // a NetworkStatusModel
/// case nil: showContent()
/// case .offline: showOffline()
/// case .captivePortal(let loginURL): showLogin(loginURL)
/// case .noInternetAccess: showNoInternet()
/// }
/// ```
public enum InternetUnavailability: Sendable, Hashable {
  /// The path is unsatisfied: no route, no carrier, no usable address.
  case offline
  /// The network holds traffic at a login page (hotel, airport Wi-Fi): the connectivity check got another answer
  /// than the expected one.
  ///
  /// - Parameter loginURL: Where the portal redirected the check (an `http` or `https` URL), if it did. It came from
  ///   the network: show it as a link to open, never act on it unasked.
  case captivePortal(loginURL: String?)
  /// There is a route, but the internet does not answer: the connectivity check was refused, unreachable or timed
  /// out.
  case noInternetAccess

  /// What is known, judged as the table above says; `nil` when nothing stands in the way (or nothing is known yet).
  ///
  /// - Parameters:
  ///   - path: The path, or `nil` while it is not known.
  ///   - connectivity: A connectivity monitor's state; ``ConnectivityState/unknown`` without one.
  public init?(path: NetworkPath?, connectivity: ConnectivityState = .unknown) {
    guard let path else { return nil }
    switch path.status {
    case .unsatisfied:
      self = .offline
    case .requiresConnection:
      return nil
    case .satisfied:
      switch connectivity {
      case .portal(let redirect):
        self = .captivePortal(loginURL: redirect.flatMap(Self.webURL))
      case .limited:
        self = .noInternetAccess
      case .unknown, .noPath, .full:
        // Unknown: not checked yet. No path while the path is satisfied: the check has not caught up with it.
        return nil
      }
    }
  }

  /// `text` if it is an absolute `http` or `https` URL, the only kinds a login link may open.
  private static func webURL(_ text: String) -> String? {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), text.count > 8 else { return nil }
    guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
    return text
  }
}
