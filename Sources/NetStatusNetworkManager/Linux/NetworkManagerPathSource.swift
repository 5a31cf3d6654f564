#if os(Linux)
  import NetStatusSystem
  import Synchronization

  /// The Linux path source of the process's own network namespace with NetworkManager's view applied: a path whose
  /// device NetworkManager considers metered is expensive (``NetworkManagerView/apply(to:)``), a path over a modem
  /// takes the link quality of its signal (``ModemManagerView/apply(to:)``), a path over Wi-Fi NetworkManager does
  /// not manage that of iwd's signal level (``IwdView/apply(to:after:)``), and the path is sent again when a view
  /// changes.
  ///
  /// It wraps another source (the rtnetlink source of the process's namespace) and ``NetworkManagerWatch/system``:
  /// each path of the inner source is sent with the current view applied, synchronously on the inner source's
  /// thread, and each change of the view sends the last path again, on the watch's thread. Only one thread sends at a
  /// time, and the last path sent is always the newest path with the newest view. Without NetworkManager (no
  /// libsystemd, no bus, no service) paths pass unchanged, and ``sourceDiagnostics`` says why.
  ///
  /// Only for the namespace NetworkManager manages: a monitor of another namespace uses the rtnetlink source alone.
  package final class NetworkManagerPathSource: PathSource {
    let inner: any PathSource
    package let watch: NetworkManagerWatch

    package init(wrapping inner: any PathSource, watch: NetworkManagerWatch = .system) {
      self.inner = inner
      self.watch = watch
    }

    package var networkNamespacePath: String? { inner.networkNamespacePath }

    package var sourceDiagnostics: [SourceDiagnostic] {
      inner.sourceDiagnostics + [
        watch.status.diagnostic, watch.modemManagerStatus.diagnostic, watch.iwdStatus.diagnostic,
      ]
    }

    package func advertisedCaptivePortal(interfaceIndex: Int) -> String? {
      inner.advertisedCaptivePortal(interfaceIndex: interfaceIndex)
    }

    package func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      let session = NetworkManagerPathSession(sink: sink, watch: watch)
      let (id, status) = watch.subscribe(
        { [weak session] status in session?.update(status) },
        modemManager: { [weak session] status in session?.update(status) },
        iwd: { [weak session] status in session?.update(status) })
      session.begin(
        subscription: id, status: status, modemManager: watch.modemManagerStatus, iwd: watch.iwdStatus)
      do throws(NetworkMonitorError) {
        let innerSession = try inner.start(filter: filter, sink: PathSink { [weak session] in session?.receive($0) })
        session.attach(innerSession)
      } catch {
        session.stop()
        throw error
      }
      return session
    }
  }

  /// A running ``NetworkManagerPathSource``.
  final class NetworkManagerPathSession: PathSourceSession {
    private struct State {
      var subscription: UInt64?
      var inner: (any PathSourceSession)?
      var view: NetworkManagerView?
      var modems: ModemManagerView?
      var iwd: IwdView?
      /// A status of ModemManager (of iwd) came before
      /// ``NetworkManagerPathSession/begin(subscription:status:modemManager:iwd:)``.
      var modemsUpdated = false
      var iwdUpdated = false
      /// The inner source's last path, as it sent it.
      var raw: NetworkPath?
      /// A thread is sending: another change only marks ``pending``, and that thread sends again.
      var sending = false
      var pending = false
      var stopped = false
      /// The inner session has started: until then only the starting thread sends (the first path is known when
      /// the monitor's start returns), and a view that changes meanwhile is sent by ``attach(_:)``.
      var attached = false
      var viewChangedWhileStarting = false

      /// The path to send now.
      var applied: NetworkPath? {
        raw.map { path in
          let networkManager = view?.apply(to: path) ?? path
          let cellular = modems?.apply(to: networkManager) ?? networkManager
          return iwd?.apply(to: cellular, after: view) ?? cellular
        }
      }
    }

    private let sink: PathSink
    private let watch: NetworkManagerWatch
    private let state = Mutex(State())

    init(sink: PathSink, watch: NetworkManagerWatch) {
      self.sink = sink
      self.watch = watch
    }

    func begin(
      subscription: UInt64, status: NetworkManagerStatus, modemManager: ModemManagerStatus, iwd: IwdStatus
    ) {
      let stopped = state.withLockedValue { state -> Bool in
        state.subscription = subscription
        // A status the watch sent meanwhile is newer than the one `subscribe` returned.
        if state.view == nil { state.view = status.view }
        if !state.modemsUpdated { state.modems = modemManager.view }
        if !state.iwdUpdated { state.iwd = iwd.view }
        return state.stopped
      }
      if stopped { watch.unsubscribe(subscription) }
    }

    func attach(_ inner: any PathSourceSession) {
      let (stopped, resend) = state.withLockedValue { state -> (Bool, Bool) in
        if !state.stopped { state.inner = inner }
        state.attached = true
        return (state.stopped, state.viewChangedWhileStarting && state.raw != nil)
      }
      if stopped {
        inner.stop()
      } else if resend {
        deliver()
      }
    }

    /// An event of the inner source.
    func receive(_ event: PathSink.Event) {
      switch event {
      case .path(let path):
        state.withLockedValue { $0.raw = path }
        deliver()
      case .failure(let error):
        sink.fail(error)
      }
    }

    /// A new status of NetworkManager.
    func update(_ status: NetworkManagerStatus) {
      apply { state in
        guard state.view != status.view else { return false }
        state.view = status.view
        return true
      }
    }

    /// A new status of ModemManager.
    func update(_ status: ModemManagerStatus) {
      apply { state in
        state.modemsUpdated = true
        guard state.modems != status.view else { return false }
        state.modems = status.view
        return true
      }
    }

    /// A new status of iwd.
    func update(_ status: IwdStatus) {
      apply { state in
        state.iwdUpdated = true
        guard state.iwd != status.view else { return false }
        state.iwd = status.view
        return true
      }
    }

    /// Takes a service's new view (`change` keeps it, and says whether it differs) and sends the path with it; before
    /// the inner session is attached, ``attach(_:)`` sends it.
    private func apply(_ change: (inout State) -> Bool) {
      let changed = state.withLockedValue { state -> Bool in
        guard change(&state) else { return false }
        guard state.attached else {
          state.viewChangedWhileStarting = true
          return false
        }
        return state.raw != nil
      }
      if changed { deliver() }
    }

    /// Sends the newest path with the newest view, unless another thread is sending (it then sends again).
    private func deliver() {
      var next = state.withLockedValue { state -> NetworkPath? in
        guard !state.stopped else { return nil }
        guard !state.sending else {
          state.pending = true
          return nil
        }
        state.sending = true
        state.pending = false
        return state.applied
      }
      while let path = next {
        sink.send(path)
        next = state.withLockedValue { state -> NetworkPath? in
          guard !state.stopped, state.pending else {
            state.sending = false
            return nil
          }
          state.pending = false
          return state.applied
        }
      }
    }

    func stop() {
      let (inner, subscription) = state.withLockedValue { state -> ((any PathSourceSession)?, UInt64?) in
        state.stopped = true
        return (state.inner.take(), state.subscription.take())
      }
      inner?.stop()
      if let subscription { watch.unsubscribe(subscription) }
    }
  }
#endif
