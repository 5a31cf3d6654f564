/// A ``PathSource`` that follows another ``NetworkMonitor`` and passes on its paths once they have held
/// (``Settler``): what ``NetworkMonitor/settled(offlineAfter:onlineAfter:clock:)`` builds its monitor on, so that
/// every front-end of that monitor sees settled paths without settling anything itself.
///
/// Each session subscribes to the followed monitor (starting it if needed; stopping the session never stops it).
/// When the followed monitor forgets its path (it stopped), the settler forgets too, and the next path is passed on
/// at once. When it fails for good, the failure is passed on at once: a failure is not a change to hold.
///
/// Its paths are the followed monitor's, already filtered and judged by it (with the same filter): the settled monitor
/// passes them on unchanged (``PathSource/appliesInterfaceFilter``), and never applies the filter a second time, which on Apple
/// platforms would judge `NWPathMonitor`'s paths again from their interface types.
struct SettledPathSource<C: Clock>: PathSource where C.Duration == Duration {
  let upstream: NetworkMonitor
  let onlineAfter: Duration
  let offlineAfter: Duration
  let clock: C

  func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
    let upstream = self.upstream
    let session = SettledSession(
      settler: Settler<NetworkPath, C.Instant>(upHold: onlineAfter, downHold: offlineAfter), clock: clock
    ) { event in
      switch event {
      case .value(let path): sink.send(path)
      case .finished: sink.fail(upstream.lastError ?? .sourceFailed("the followed monitor stopped for good"))
      }
    }
    session.follow(upstream)
    return session
  }

  var appliesInterfaceFilter: Bool { true }
  var networkNamespacePath: String? { upstream.source.networkNamespacePath }
  var followedSource: (any PathSource)? { upstream.source }
  var sourceDiagnostics: [SourceDiagnostic] { upstream.source.sourceDiagnostics }
  func advertisedCaptivePortal(interfaceIndex: Int) -> String? {
    upstream.source.advertisedCaptivePortal(interfaceIndex: interfaceIndex)
  }
}
