/// A value whose changes a ``Settler`` holds back until they have lasted: what counts as up (online) and what
/// counts as the same value.
package protocol SettledValue: Sendable {
  /// Whether the value is on the "online" side: a satisfied path, full internet access, a condition met. A change
  /// of this side is held for the hold of the side it goes to.
  var isUp: Bool { get }

  /// Whether this value repeats `other`: nothing to publish, and a pending change back to it is dropped.
  func isSettledRepeat(of other: Self) -> Bool

  /// Whether the value says something: going from a value that does not (or from none) to one that does is not a
  /// change to hold, and is published at once.
  var isKnown: Bool { get }
}

extension SettledValue {
  /// Every value is known, unless the type says otherwise.
  package var isKnown: Bool { true }
}

extension NetworkPath: SettledValue {
  /// A satisfied path.
  package var isUp: Bool { isConnected }

  /// The monitor's own notion of a repeat (``NetworkPath/isRepeat(of:)``).
  package func isSettledRepeat(of other: NetworkPath) -> Bool { isRepeat(of: other) }
}

extension ConnectivityState: SettledValue {
  /// Full internet access.
  package var isUp: Bool { isFull }

  /// Equal states.
  package func isSettledRepeat(of other: ConnectivityState) -> Bool { self == other }

  /// Anything but ``ConnectivityState/unknown``: the first verdict is published at once. Going back to unknown (a
  /// new check over another interface) is a change to the down side, held as one.
  package var isKnown: Bool { self != .unknown }
}

extension Bool: SettledValue {
  /// `true`: a condition met (`netstatus wait --stable`).
  package var isUp: Bool { self }

  /// Equal values.
  package func isSettledRepeat(of other: Bool) -> Bool { self == other }
}
