#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  /// A host-name lookup on a thread of its own, so that the probe's thread can stop waiting for it when its
  /// deadline passes: `getaddrinfo(3)` can be neither interrupted nor given a timeout.
  ///
  /// The thread is created from the probe's thread, so it resolves inside the same network namespace. A
  /// lookup still running when its waiter gives up ends on its own, and its result is dropped.
  final class BoundedHostLookup: Sendable {
    /// Becomes readable once ``result`` is set: poll it with the deadline. Closed with the lookup, when both the
    /// waiter and the thread are done with it (the last reference goes).
    let ready: EventFD
    private let host: String
    private let port: UInt16
    private let lookUp: HTTPProbeConnection.HostLookup
    private let stored = Mutex<Result<[SocketAddress], ProbeFailure>?>(nil)

    private init(ready: consuming EventFD, host: String, port: UInt16, lookUp: @escaping HTTPProbeConnection.HostLookup)
    {
      self.ready = ready
      self.host = host
      self.port = port
      self.lookUp = lookUp
    }

    /// The lookup's answer, once ``ready`` is readable; `nil` before.
    var result: Result<[SocketAddress], ProbeFailure>? { stored.withLockedValue { $0 } }

    /// Starts looking `host` up with `lookUp` on a new thread.
    static func start(
      host: String, port: UInt16, lookUp: @escaping HTTPProbeConnection.HostLookup
    ) -> Result<BoundedHostLookup, ProbeFailure> {
      let ready: EventFD
      do throws(NetworkMonitorError) {
        ready = try EventFD.opened()
      } catch {
        return .failure(.local(error.description))
      }
      let lookup = BoundedHostLookup(ready: ready, host: host, port: port, lookUp: lookUp)
      do throws(SystemCallError) {
        try POSIXThread.detach(name: "netstatus-gai") { lookup.run() }
      } catch {
        return .failure(.local("no thread for the host-name lookup: \(NetworkMonitorError(error).description)"))
      }
      return .success(lookup)
    }

    /// The thread's body: look up, keep the answer, signal.
    private func run() {
      let answer = lookUp(host, port)
      stored.withLockedValue { $0 = answer }
      try? ready.signal()
    }
  }
#endif
