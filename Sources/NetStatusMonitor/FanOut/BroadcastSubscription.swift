/// The subscription of one async iterator to a ``BroadcastHost``; unsubscribes when the iterator is dropped.
package final class BroadcastSubscription<Host: BroadcastHost>: Sendable {
  let host: Host
  let id: UInt64

  /// Subscribes, with the host's current value (if known) as the first to deliver. The host is started by the
  /// first ``next()``, not here: a loop in a task cancelled before it begins must start nothing.
  package init(host: Host) {
    self.host = host
    self.id = host.withBroadcast { broadcast, current in broadcast.addIterator(current: current) }
  }

  deinit {
    host.removeSubscriber(id)
  }

  /// The next value: the pending one, or the next published. `nil` once the task is cancelled, or once the host can
  /// no longer deliver (``Broadcast/finish()``) and nothing is pending.
  ///
  /// The first call lets the host start, unless the task is already cancelled: only a subscriber that will
  /// consume starts it. The start runs off the caller's executor (``runOffExecutor(_:)``): it may block.
  package func next() async -> Host.Element? {
    if !Task.isCancelled, host.withBroadcast({ broadcast, _ in broadcast.claimStart(id) }) {
      let host = host
      await runOffExecutor { host.subscriberAdded() }
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: Broadcast<Host.Element>.Continuation) in
        let action = host.withBroadcast { broadcast, _ in broadcast.next(id, continuation: continuation) }
        if case .resume(let value) = action { continuation.resume(returning: value) }
      }
    } onCancel: {
      let waiting = host.withBroadcast { broadcast, _ in broadcast.cancel(id) }
      waiting?.resume(returning: nil)
    }
  }
}
