/// One source a running ``NetworkMonitor`` draws on, what it adds, and whether it is in use: what
/// ``NetworkMonitor/sourceDiagnostics`` lists and `netstatus show --all` prints.
///
/// A custom ``PathSource`` lists its own (``PathSource/sourceDiagnostics``). A source that cannot be used is never an error: the monitor works without it, and its entry says why.
///
/// ```swift
/// for source in NetworkMonitor.shared.sourceDiagnostics {
///     // "NetworkManager (metered devices, connectivity, Wi-Fi signal): unavailable: NetworkManager is not running"
///     print(source)
/// }
/// ```
public struct SourceDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// Whether a source is in use.
  public enum Status: Sendable, Hashable {
    /// In use.
    case active
    /// Not in use now, for the reason given (a library or service missing, a connection lost, the monitor
    /// stopped).
    case unavailable(reason: String)
  }

  /// The source's name: `rtnetlink`, `NWPathMonitor`, `NetworkManager`, or a custom source's type name.
  public var name: String
  /// What it adds to the monitor's answers, in a few words (`paths`, `metered devices, connectivity, Wi-Fi signal`).
  public var provides: String
  /// Whether it is in use, or why not.
  public var status: Status
  /// What an active source could not use as it expected (a value of an unexpected type), or `nil`.
  public var note: String? = nil

  /// An entry: `note` says what an active source could not use as it expected.
  public init(name: String, provides: String, status: Status, note: String? = nil) {
    self.name = name
    self.provides = provides
    self.status = status
    self.note = note
  }

  /// Whether the source is in use.
  public var isActive: Bool { status == .active }

  /// Why the source is not in use, or `nil` when it is.
  public var unavailableReason: String? {
    if case .unavailable(let reason) = status { return reason }
    return nil
  }

  /// One line: `NetworkManager (metered devices, connectivity, Wi-Fi signal): active`, `…: active (NOTE)`, or
  /// `…: unavailable: REASON`.
  public var description: String {
    "\(name) (\(provides)): "
      + (unavailableReason.map { "unavailable: \($0)" } ?? "active" + (note.map { " (\($0))" } ?? ""))
  }
}
