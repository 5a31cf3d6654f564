/// Why a ``NetworkPath`` is expensive: ``NetworkPath/expenseSource``.
public enum ExpenseSource: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The path's interface is cellular.
  case cellular
  /// The system's network manager says the path's interface is metered (on Linux, NetworkManager's `Metered`
  /// is "yes": set by the user or the connection's profile).
  case metered
  /// The system's network manager guesses that the path's interface is metered (on Linux, NetworkManager's
  /// `Metered` is "guess-yes": for example, the DHCP server sent the ANDROID_METERED option of a phone's
  /// hotspot).
  case meteredGuessed

  /// The name, as written: `cellular`, `metered` or `meteredGuessed`.
  public var description: String { rawValue }
}
