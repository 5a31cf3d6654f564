// How a monitor takes in what its source reports: a path, or the failure that ends the monitor's subscriptions.

import Dispatch

extension NetworkMonitor {
  /// What a source's sink holds of its monitor: a weak reference (the session must not keep the monitor alive), in a
  /// `weak let`. A captured `[weak self]` is a mutable box, read through the runtime's exclusivity check (an
  /// access-set update) on every change the source reports.
  final class Receiver: Sendable {
    weak let monitor: NetworkMonitor?

    init(_ monitor: NetworkMonitor) {
      self.monitor = monitor
    }
  }

  func receive(_ event: PathSink.Event, generation: UInt64) {
    switch event {
    case .path(let path):
      if let appliedFilter {
        publish(appliedFilter.apply(to: path), generation: generation, error: nil)
      } else {
        publish(path, generation: generation, error: nil)
      }
    case .failure(let error):
      publish(NetworkPath.offline, generation: generation, error: error)
    }
  }

  /// What ``publish(_:generation:error:)`` decides under the lock, to act on once it is released. A struct, not a
  /// tuple: an optional tuple of these fields is copied through its runtime metadata.
  struct PublishDecision {
    var changed: Bool
    var fanout: Broadcast<NetworkPath>.Fanout
    /// The handlers to run, boxed, or `nil` when none must run: an optional ``Handlers`` (a queue and five
    /// closures) is copied and destroyed through its runtime metadata, even when `nil`.
    var handlers: HandlersToRun?
    var stopsFailedSession: Bool
    /// The source failed: the subscriptions end, after this last path.
    var ended: Broadcast<NetworkPath>.FinishFanout?

    /// Nothing to do: the path is of a session that has ended. Returned rather than `nil`: an optional decision was
    /// destroyed through its runtime metadata on every publish.
    static var ignored: PublishDecision {
      PublishDecision(
        changed: false, fanout: Broadcast<NetworkPath>.Fanout(), handlers: nil, stopsFailedSession: false,
        ended: nil)
    }
  }

  /// The ``Handlers`` a publish runs, taken out of the lock in one reference.
  final class HandlersToRun: Sendable {
    let handlers: Handlers

    init(_ handlers: Handlers) {
      self.handlers = handlers
    }
  }

  /// Records a path (and an error, if the source failed), then notifies everyone, outside the lock. When the source
  /// failed, every subscription ends after this path (``Broadcast/finish()``): the monitor can no longer deliver.
  ///
  /// The handlers are copied out of the lock only when some must run: a change with no path closures set (a
  /// command-line tool, a daemon) copies none of them.
  func publish(_ path: NetworkPath, generation: UInt64, error: NetworkMonitorError?) {
    // A failure stops the monitor: it no longer holds itself (released after the lock; the caller still holds it).
    var released: NetworkMonitor?
    defer { _ = released.take() }
    let decision = state.withLockedValue { state -> PublishDecision in
      guard state.isMonitoring, state.generation == generation else { return .ignored }
      var stopsFailedSession = false
      if let error {
        state.lastError = error
        state.isMonitoring = false
        state.generation &+= 1
        state.failedSession = state.session.take()
        stopsFailedSession = state.failedSession != nil
        released = state.startedByCall.take()
      }
      // Compared in place, through the stored optional: `currentPath != path` would first copy `path` into an
      // optional, and binding the current path would copy it. `isRepeat(of:)` is symmetric.
      if state.currentPath?.isRepeat(of: path) == true {
        return PublishDecision(
          changed: false, fanout: Broadcast<NetworkPath>.Fanout(),
          handlers: error == nil ? nil : HandlersToRun(state.handlers),
          stopsFailedSession: stopsFailedSession,
          ended: error == nil ? nil : state.broadcast.finish())
      }
      state.currentPath = path
      let needsHandlers =
        error != nil || state.handlers.pathUpdate != nil || state.handlers.netStatusChange != nil
      let fanout = state.broadcast.publish(path)
      return PublishDecision(
        changed: true, fanout: fanout, handlers: needsHandlers ? HandlersToRun(state.handlers) : nil,
        stopsFailedSession: stopsFailedSession,
        ended: error == nil ? nil : state.broadcast.finish())
    }
    let toRun = decision.handlers
    if decision.changed {
      // The handlers' block is queued before the subscribers run: the NetStatus module's notification poster is one
      // of them, and on the main queue a change's handler (which keeps the app's state, as the tutorials' do) runs
      // before its notification is posted, so that an observer reads state that already has the change.
      if let toRun {
        let pathUpdate = toRun.handlers.pathUpdate
        let netStatusChange = toRun.handlers.netStatusChange
        if pathUpdate != nil || netStatusChange != nil {
          toRun.handlers.queue.async {
            pathUpdate?(path)
            netStatusChange?()
          }
        }
      }
      decision.fanout.run(with: path)
    }
    if let error, let toRun {
      let handlers = toRun.handlers
      if let handler = handlers.error { handlers.queue.async { handler(error) } }
      if let didStop = handlers.didStop { handlers.queue.async(execute: didStop) }
    }
    decision.ended?.run()
    // The failing source calls us from its own thread: stop it from elsewhere so that it can join (not on
    // Dispatch's pool: DetachedWork.swift).
    if decision.stopsFailedSession {
      runDetached(name: "netstatus-stop") { self.stopFailedSession() }
    }
  }

  /// Stops the session whose source failed, unless ``stop()`` has already. Under `lifecycle`, so that a
  /// ``stop()`` that comes meanwhile returns only once the session is stopped: `netstatus watch` exits
  /// right after, and a session thread left unjoined at exit is a leak (ThreadSanitizer reports it).
  func stopFailedSession() {
    lifecycle.withLock {
      state.withLockedValue { $0.failedSession.take() }?.stop()
    }
  }
}
