#if os(Linux)
  /// What a session's worker and its handle share: whether the session was stopped from inside its own work.
  ///
  /// `@unchecked Sendable`: ``isStopRequested`` is read and written on the event loop's thread only. A stop from
  /// another thread waits until the loop has closed the session (``NetlinkEventHub/stop(_:)``), so the worker never
  /// runs after it and need not know; a stop from inside the session's work (its sink) returns at once, and the
  /// worker must send nothing more in that work.
  final class NetlinkSessionControl: @unchecked Sendable {
    /// Whether the session was stopped from inside its work: the worker sends nothing more.
    var isStopRequested = false
  }
#endif
