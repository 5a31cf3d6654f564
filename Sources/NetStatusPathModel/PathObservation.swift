/// Which delivery of the system's path monitor a ``NetworkPath`` is: on Apple platforms, a number the source gives
/// each path `NWPathMonitor` delivers; `0` for paths that are values only (built, decoded, from the Linux source).
///
/// Always equal to any other and hashed as nothing, so that paths compare by their properties alone; the monitor and
/// its front-ends read ``number`` to tell a new delivery from a repeat (``NetworkPath/isRepeat(of:)``).
package struct PathObservation: Sendable, Hashable {
  /// The delivery's number; `0` when the path is a value only.
  package var number: UInt64 = 0

  package init(number: UInt64 = 0) {
    self.number = number
  }

  package static func == (lhs: PathObservation, rhs: PathObservation) -> Bool { true }
  package func hash(into hasher: inout Hasher) {}
}
