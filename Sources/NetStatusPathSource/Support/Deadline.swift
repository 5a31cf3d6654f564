/// Runs `operation` and returns its result, or `nil` once `timeout` has passed (`nil`: no limit); the
/// operation is then cancelled. The operation must end when cancelled (async sequences of NetStatus do).
///
/// The one place where NetStatus races something against a clock: ``NetworkMonitor/waitForPath(timeout:)``,
/// ``ConnectivityMonitor/waitForInternetAccess(timeout:)`` and `netstatus wait` use it.
package func withDeadline<Value: Sendable>(
  _ timeout: Duration?,
  _ operation: @escaping @Sendable () async -> Value?
) async -> Value? {
  guard let timeout else { return await operation() }
  return await withTaskGroup(of: Value?.self) { group in
    group.addTask { await operation() }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}
