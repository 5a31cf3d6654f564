/// A value the fan-out passes on to subscribers only when it does not repeat the last one passed on.
///
/// A repeat is an equal value, except for a ``NetworkPath`` from the system's path monitor: on Apple platforms each
/// path `NWPathMonitor` delivers is a change even when equal to the one before (``NetworkPath/isRepeat(of:)``).
package protocol FanOutElement: Equatable, Sendable {
  /// Whether `self` repeats `other`, and so is not passed on again.
  func isRepeat(of other: Self) -> Bool
}

extension FanOutElement {
  /// Whether `self` repeats `other`: by default, whether they are equal.
  package func isRepeat(of other: Self) -> Bool { self == other }

  /// Whether `self` repeats `other`; nothing repeats `nil` (no value passed on yet).
  package func isRepeat(of other: Self?) -> Bool {
    guard case .some(let other) = other else { return false }
    return isRepeat(of: other)
  }
}

extension NetworkPath: FanOutElement {}
extension ConnectivityState: FanOutElement {}
extension Bool: FanOutElement {}
