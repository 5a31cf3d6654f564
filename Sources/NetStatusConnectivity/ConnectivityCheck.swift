/// The outcome of one connectivity check, with what it saw: for logs, diagnostics and the CLI.
///
/// ```swift
/// if let check = connectivity.lastCheck {
///     print("\(check.state) (\(check.detail)) in \(check.duration)")  // limited (connection refused) in …
/// }
/// ```
public struct ConnectivityCheck: Sendable, Hashable, CustomStringConvertible {
  /// The state the check concluded.
  public var state: ConnectivityState
  /// What the check saw: `HTTP 204`, `HTTP 302 to http://portal.example/login`, `connection refused`,
  /// `no answer within 5 seconds`, … Text the server sent appears with its control characters escaped
  /// (`\x1B`, `\u{202E}`), so that the detail can be shown as it is.
  public var detail: String
  /// The interface the probe was bound to, or `nil` when the system's routing chose. On Linux the socket was bound to
  /// this interface (`SO_BINDTODEVICE`); on Apple platforms the connection was bound to this interface
  /// (`NWParameters.requiredInterface`) when the monitor's source is `NWPathMonitor`'s, and otherwise restricted to
  /// this interface's type (`NWParameters.requiredInterfaceType`).
  public var interface: String?
  /// How long the check took.
  public var duration: Duration
  /// What each address family's own check concluded, when the check was made per family (a family not checked is
  /// `nil`); `nil` when one check stood for both families.
  package var families: FamilyConnectivity?

  /// Creates a check result.
  public init(state: ConnectivityState, detail: String, interface: String?, duration: Duration) {
    self.state = state
    self.detail = detail
    self.interface = interface
    self.duration = duration
  }

  /// `portal (redirect to http://portal.example/login): HTTP 302 via wlan0`, control characters escaped.
  public var description: String {
    ("\(state): \(detail)" + (interface.map { " via \($0)" } ?? "")).escapingControlCharacters()
  }
}
