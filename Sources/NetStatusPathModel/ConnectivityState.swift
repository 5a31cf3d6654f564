/// Whether the internet answers over the current path, in NetworkManager's vocabulary.
///
/// A satisfied ``NetworkPath`` means that a route exists, not that the internet answers: hotel Wi-Fi
/// holds you at a login page, an upstream link can be dead. A ``ConnectivityMonitor`` tells these apart
/// by fetching a URL you configure (see ``ConnectivityProbe``).
///
/// ```swift
/// switch connectivity.state {
/// case .full: sync()
/// case .portal(let redirect): showLoginHint(redirect)
/// case .limited, .noPath: showOfflineBanner()
/// case .unknown: break  // not checked yet
/// }
/// ```
///
/// ## JSON
///
/// The JSON form is stable; `netstatus --probe URL --json` prints it under `"connectivity"`. `state` is
/// always present; `redirect` only for a portal that redirected:
///
/// ```json
/// {"state":"full"}
/// {"state":"portal","redirect":"http://portal.example/login"}
/// {"state":"portal"}
/// ```
///
/// Under `"connectivity"`, the CLI adds each address family's state (``ConnectivityMonitor/ipv4State``,
/// ``ConnectivityMonitor/ipv6State``) by name, or `null` for a family the path does not support:
/// `{"state":"full","ipv4":"full","ipv6":"limited"}`. Decoding ignores them.
///
/// The cases follow NetworkManager's states; NetworkManager's "none" is ``noPath`` here, and keeps its name in
/// ``name`` and the JSON form. The monitor never reports an optional state: it says ``unknown`` instead of `nil`.
public enum ConnectivityState: Sendable, Hashable, CustomStringConvertible {
  /// Not checked yet: no path is known (not reported yet, or the path monitor is stopped), or the first
  /// check over this path has not finished.
  case unknown
  /// There is no path: the network path is not satisfied. No probe is sent. Named `none` in ``name`` and JSON.
  case noPath
  /// There is a path, but the probe failed: the connection was refused, the destination was unreachable
  /// or blackholed, or no answer came in time.
  case limited
  /// Something answered, but not as expected: a captive portal (or a proxy, or a wrong server).
  ///
  /// - Parameter redirect: Where the answer redirected to (its `Location` header), for a 3xx answer that had
  ///   one; the login page of a captive portal, usually.
  case portal(redirect: String?)
  /// The probe got the expected answer: the internet answers.
  case full

  /// The state's name in NetworkManager's vocabulary: `unknown`, `none`, `limited`, `portal` or `full`.
  public var name: String {
    switch self {
    case .unknown: "unknown"
    case .noPath: "none"
    case .limited: "limited"
    case .portal: "portal"
    case .full: "full"
    }
  }

  /// Whether the internet answers (the state is ``full``).
  public var isFull: Bool { self == .full }

  /// The redirect target of a portal, if it redirected.
  public var redirect: String? {
    if case .portal(let redirect) = self { return redirect }
    return nil
  }

  /// The name, and the redirect target of a portal: `portal (redirect to http://portal.example/login)`.
  ///
  /// The target came from the network: control characters in it (a terminal escape sequence, a BEL, a
  /// bidirectional override) are shown escaped, as `\x1B` or `\u{202E}`. ``redirect`` keeps the exact value.
  public var description: String {
    if let redirect { return "portal (redirect to \(redirect.escapingControlCharacters()))" }
    return name
  }
}

extension ConnectivityState: Codable {
  private enum CodingKeys: String, CodingKey {
    case state, redirect
  }

  /// Decodes the documented JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .state)
    switch name {
    case "unknown": self = .unknown
    case "none": self = .noPath
    case "limited": self = .limited
    case "portal": self = .portal(redirect: try container.decodeIfPresent(String.self, forKey: .redirect))
    case "full": self = .full
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .state, in: container,
        debugDescription: "unknown connectivity state '\(name)'; expected unknown, none, limited, portal or full")
    }
  }

  /// Encodes the documented JSON form (`redirect` only when there is one).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .state)
    try container.encodeIfPresent(redirect, forKey: .redirect)
  }
}
