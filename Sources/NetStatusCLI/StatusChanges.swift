import NetStatusCore

/// A signal each time the path, the connectivity state or (for `wait --interface`) the links may have changed: the current state first, then
/// each change. Consumers read the current values from the monitors; a slow consumer sees one signal for
/// a burst of changes.
final class StatusChanges: Sendable {
  let stream: AsyncStream<Void>
  private let tasks: [Task<Void, Never>]
  private let continuation: AsyncStream<Void>.Continuation

  init(monitor: NetworkMonitor, connectivity: ConnectivityMonitor?, links: LinkStates? = nil) {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    self.stream = stream
    self.continuation = continuation
    var tasks = [
      Task {
        for await _ in monitor.paths { continuation.yield() }
      }
    ]
    if let connectivity {
      tasks.append(
        Task {
          for await _ in connectivity.states { continuation.yield() }
        })
    }
    if let links {
      tasks.append(
        Task {
          for await _ in links.changes { continuation.yield() }
        })
    }
    self.tasks = tasks
  }

  /// Signals once at `deadline` (`wait --stable`: the wanted state may have held long enough). Returns the timer's
  /// task, to cancel when the deadline changes.
  func signal(at deadline: ContinuousClock.Instant) -> Task<Void, Never> {
    let continuation = self.continuation
    return Task {
      do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
      continuation.yield()
    }
  }

  /// Ends the subscriptions and waits until their tasks have let go of the monitors, so that none is still
  /// alive when the process exits (LeakSanitizer, in the ASan run, reports the weak-reference side tables of
  /// objects alive at exit).
  func end() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }
}
