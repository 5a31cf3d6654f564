#if canImport(NetStatusSystem)
  import NetStatusSystem
#endif

/// What one probe exchange over the network came to, before it is judged: the transport's report.
package struct ProbeExchange: Sendable, Hashable {
  /// How the exchange ended.
  package enum Result: Sendable, Hashable {
    /// An HTTP response arrived.
    case response(HTTPResponse)
    /// No usable response.
    case failed(ProbeFailure)
  }

  /// How the exchange ended.
  package var result: Result
  /// The interface the exchange was bound to (see ``ConnectivityCheck/interface``), or `nil` when it was not bound
  /// (no interface, or binding was not permitted: the system's routing then chose).
  package var boundInterface: String?
  /// Why the socket could not be bound to the path's interface, when it could not.
  package var bindingProblem: String?
  /// How long the exchange took.
  package var duration: Duration
  /// The CPU time the exchange's own thread used, when it ran on one to the end (for tests and figures).
  package var cpuTime: Duration? = nil

  /// A report.
  package init(
    result: Result, boundInterface: String? = nil, bindingProblem: String? = nil, duration: Duration,
    cpuTime: Duration? = nil
  ) {
    self.result = result
    self.boundInterface = boundInterface
    self.bindingProblem = bindingProblem
    self.duration = duration
    self.cpuTime = cpuTime
  }
}

/// Why a probe exchange produced no usable response.
package enum ProbeFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The connection was refused (a TCP reset to the SYN, or ICMP port unreachable).
  case refused
  /// The destination could not be reached: no route, a blackhole or unreachable route, an unreachable
  /// host or network, or the path went away. `errno` tells which.
  case unreachable(errno: Int32)
  /// Nothing (or not enough) came back within the timeout.
  case timedOut(Duration)
  /// The connection was reset or closed before an answer arrived, and how.
  case closedWithoutAnswer(ClosedConnection)
  /// Something answered, but not in HTTP.
  case malformed(String)
  /// The answer did not end within the limits an answer must fit in (the server kept sending interim
  /// responses, header or trailer lines, or body framing), with what happened.
  case answerTooLong(String)
  /// An answer was arriving when the timeout passed: it did not end in time.
  case answerUnfinished(within: Duration, received: Int)
  /// The host name could not be resolved: the name does not exist or has no address, or no resolver could
  /// say (none is configured, or each refused or failed), with why.
  case nameResolution(host: String, reason: String)
  /// The resolver did not answer about the host name in time (or answered only "try again"): `asked` names
  /// it (`the name server 192.0.2.53`, `the system resolver`), `detail` says how long or why.
  case resolverSilent(host: String, asked: String, detail: String)
  /// The probe could not run here: a local failure (no socket, no thread) or a platform without a
  /// transport. It says nothing about the network.
  case local(String)
  /// The probe was cancelled (the path changed, or monitoring stopped).
  case cancelled

  /// What happened, for people.
  package var description: String {
    switch self {
    case .refused: "connection refused"
    case .unreachable(let errno): "unreachable: " + Self.unreachableReason(errno)
    case .timedOut(let duration): "no answer within \(duration)"
    case .closedWithoutAnswer(let how): how.description
    case .malformed(let reason): "not an HTTP answer: \(reason)"
    case .answerTooLong(let reason): reason
    case .answerUnfinished(let duration, let received):
      "the answer did not end within \(duration) (\(received) bytes received)"
    case .nameResolution(let host, let reason): "cannot resolve \(host): \(reason)"
    case .resolverSilent(let host, let asked, let detail): "no answer from \(asked) for \(host) \(detail)"
    case .local(let reason): "could not probe: \(reason)"
    case .cancelled: "cancelled"
    }
  }

  /// How a connection ended before an answer arrived: typed, so that nothing is decided by matching the text.
  package enum ClosedConnection: Sendable, Hashable, CustomStringConvertible {
    /// The peer closed the connection (a FIN) where the answer should have begun: it sent nothing, or only
    /// interim (1xx) responses.
    case byPeer
    /// Sending the request failed with `errno` (a reset, a broken pipe).
    case whileSending(errno: Int32)
    /// Reading failed with `errno` before an answer arrived (a reset).
    case whileReceiving(errno: Int32)

    /// What happened, for people.
    package var description: String {
      switch self {
      case .byPeer: "the connection closed without an answer"
      case .whileSending(let errno): "the connection failed while sending: \(Errno.describe(errno))"
      case .whileReceiving(let errno): "the connection failed before an answer: \(Errno.describe(errno))"
      }
    }
  }

  /// What an errno from connecting means, as the routing table's verdict.
  private static func unreachableReason(_ errno: Int32) -> String {
    switch errno {
    case Errno.invalidArgument.rawValue: "the route is a blackhole (EINVAL)"
    case Errno.permissionDenied.rawValue, Errno.notPermitted.rawValue:
      "the route prohibits it (\(Errno.describe(errno)))"
    case Errno.networkUnreachable.rawValue: "network unreachable (ENETUNREACH)"
    case Errno.noRouteToHost.rawValue: "host unreachable (EHOSTUNREACH)"
    // The interface the connection was bound to: down, or gone (a stale interface on Apple platforms; Linux's
    // SO_BINDTODEVICE after the interface was deleted).
    case Errno.networkDown.rawValue: "the interface is down (ENETDOWN)"
    case Errno.noSuchDevice.rawValue, Errno.noSuchAddressOrDevice.rawValue:
      "the interface is gone (\(Errno(rawValue: errno).name ?? "errno \(errno)"))"
    case Errno.timedOut.rawValue: "the connection timed out (ETIMEDOUT)"
    default: Errno.describe(errno)
    }
  }
}
