#if os(Linux)
  import Dispatch
  import Synchronization

  /// What a session's worker and its handle share: the stop request, and the end of the session.
  final class NetlinkSessionControl: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// Signalled once the session's descriptors are closed (after `stop()`, or after it failed); re-signalled by
    /// each waiter, so that every waiter passes.
    let finished = DispatchSemaphore(value: 0)

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Marks the session stopped: from now on its worker sends nothing. Returns whether it was the first stop.
    func requestStop() -> Bool { !stopRequested.exchange(true, ordering: .acquiringAndReleasing) }
  }
#endif
