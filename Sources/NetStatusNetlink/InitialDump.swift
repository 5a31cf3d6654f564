/// The protocol that rebuilds the mirrored state from scratch: dump links, then addresses, applying the
/// notifications that arrive in between in order, and start over until one pass completes without loss.
///
/// Pure: it sees what the socket received and says what to do next; its callers do the I/O (a monitor's session,
/// `NetlinkSessionWorker.continueDump(deadlinePassed:)` step by step, and `LinkInventory` with
/// ``run(send:receive:restart:failure:)``). One value serves one rebuild, across its attempts, so that the limits on
/// consecutive failures hold.
///
/// ```swift
/// var dump = InitialDump(sequence: sequence, portID: socket.portID)
/// let state = try dump.run(
///   send: { request, sequence in try socket.send(request.bytes(sequence: sequence), ...) },
///   receive: { /* one receive: .messages(decoded), .overflow, ..., or nil to wait */ },
///   restart: { reason, reopen in /* count; reopen if asked and return the new port; drain */ },
///   failure: { failure in /* the caller's error for a ``Failure`` */ })
/// ```
///
/// or step by step: ``beginAttempt()``, then ``received(_:)`` with what each receive gave, until ``Step/complete(_:)``
/// or ``Step/fail(_:)``.
package struct InitialDump {
  /// What one receive on the socket gave.
  package enum Received {
    /// Nothing arrived within the reply timeout.
    case timedOut
    /// ENOBUFS: the kernel dropped messages, perhaps the answer to the request.
    case overflow
    /// A datagram larger than the receive buffer: its messages are lost.
    case truncated
    /// A datagram that does not decode.
    case undecodable(NetlinkDecodeError)
    /// A decoded datagram.
    case messages([NetlinkMessage])
  }

  /// What to do next.
  package enum Step: Equatable {
    /// Send this dump request, with this sequence number, then receive.
    case send(NetlinkDumpRequest, sequence: UInt32)
    /// Receive (waiting up to the reply timeout) and report with ``received(_:)``.
    case receive
    /// This attempt failed: count a re-sync for `reason`, open a new socket if `reopen` (only a new socket is
    /// certain to be answered after a lost reply), drop what is queued, and call ``beginAttempt()``.
    case restart(reason: String, reopen: Bool)
    /// The dump completed without loss: the new mirrored state.
    case complete(KernelState)
    /// Retrying cannot help: the source fails (its caller says with which error).
    case fail(Failure)
  }

  /// Why a rebuild cannot succeed by retrying: the caller turns it into its own error.
  package enum Failure: Error, Equatable {
    /// The kernel refused the dump with this errno: one that retrying cannot fix (``fatalErrors``), or
    /// ``maximumConsecutiveRefusals`` times in a row.
    case refused(NetlinkDumpRequest, errno: Int32)
    /// ``maximumConsecutiveDecodeFailures`` attempts in a row ended on a datagram that does not decode (a decoder
    /// bug, not a transient loss).
    case undecodable(NetlinkDecodeError)
  }

  /// Consecutive attempts failing on undecodable data before giving up (a decoder bug, not a transient loss:
  /// re-dumping forever would spin).
  package static let maximumConsecutiveDecodeFailures = 5
  /// Consecutive refusals of a dump (other than ENOBUFS) before giving up.
  package static let maximumConsecutiveRefusals = 20
  /// How long the worker waits for a reply before reporting ``Received/timedOut``.
  package static let replyTimeoutMilliseconds: Int32 = 2_000

  /// rtnetlink's errors are Linux's numbers wherever this compiles.
  private static let ENOBUFS: Int32 = 105
  /// Errors answering a dump request that retrying cannot fix: EPERM, EACCES, EINVAL, EOPNOTSUPP,
  /// EPROTONOSUPPORT, EAFNOSUPPORT.
  package static let fatalErrors: Set<Int32> = [1, 13, 22, 95, 93, 97]

  /// The last sequence number used; the worker's lookups continue from it.
  package private(set) var sequence: UInt32
  /// The socket's port: replies carry it, notifications do not.
  package private(set) var portID: UInt32
  /// Dumps this value saw flagged inconsistent (NLM_F_DUMP_INTR), and datagrams it could not decode: for the
  /// source's statistics.
  package private(set) var interruptedDumps = 0
  package private(set) var decodeErrors = 0

  private var consecutiveDecodeFailures = 0
  private var consecutiveRefusals = 0
  private var pending: [NetlinkDumpRequest] = []
  private var current: NetlinkDumpRequest?
  private var fresh = KernelState()
  /// Why this attempt will start over once its current dump has ended (NLM_F_DUMP_INTR, a failed NLMSG_DONE).
  private var restartAfterDump: String?

  /// How a restart's reason names an errno (this module has no C library to ask).
  private let describeErrno: (Int32) -> String

  /// A rebuild on the socket with port `portID`, continuing the sequence numbers from `sequence`.
  ///
  /// - Parameter describeErrno: How a restart's reason names an errno the kernel answered with (NetStatusCore
  ///   passes `Errno.describe`); by default its number.
  package init(sequence: UInt32, portID: UInt32, describeErrno: @escaping (Int32) -> String = { "errno \($0)" }) {
    self.sequence = sequence
    self.portID = portID
    self.describeErrno = describeErrno
  }

  /// Starts an attempt (the first, or one after a ``Step/restart(reason:reopen:)``): its first request.
  package mutating func beginAttempt() -> Step {
    fresh = KernelState()
    restartAfterDump = nil
    pending = Array(NetlinkDumpRequest.allCases.reversed())
    return nextRequest()
  }

  /// Runs the protocol to its end with the caller's I/O, the one loop over ``Step`` that a monitor's session and a
  /// one-off read of the links (`LinkInventory`) share. Inlinable: specialised for the caller's error type, without
  /// run-time generic metadata at start.
  ///
  /// - Parameters:
  ///   - send: Sends a dump request with its sequence number.
  ///   - receive: What one receive gave, or `nil` when nothing was queued and the wait for it has not timed out
  ///     (it is asked again).
  ///   - restart: Told of each failed attempt (a re-sync to count); opens a new socket when `reopen` says so and
  ///     returns its port, and drops what is still queued.
  ///   - failure: The caller's error for what a step says cannot be retried.
  /// - Returns: The new mirrored state.
  /// - Throws: `failure`'s error for what cannot be retried, or what the I/O throws.
  @inlinable package mutating func run<CallerError: Error>(
    send: (NetlinkDumpRequest, UInt32) throws(CallerError) -> Void,
    receive: () throws(CallerError) -> Received?,
    restart: (_ reason: String, _ reopen: Bool) throws(CallerError) -> UInt32?,
    failure: (Failure) -> CallerError
  ) throws(CallerError) -> KernelState {
    var step = beginAttempt()
    while true {
      switch step {
      case .send(let request, let sequence):
        try send(request, sequence)
        step = .receive
      case .receive:
        if let received = try receive() { step = self.received(received) }
      case .restart(let reason, let reopen):
        if let port = try restart(reason, reopen) { socketReopened(portID: port) }
        step = beginAttempt()
      case .complete(let state):
        return state
      case .fail(let reason):
        throw failure(reason)
      }
    }
  }

  /// The socket was reopened: replies now carry the new socket's port.
  package mutating func socketReopened(portID: UInt32) { self.portID = portID }

  /// Takes what one receive gave.
  package mutating func received(_ received: Received) -> Step {
    guard let request = current else { return beginAttempt() }
    switch received {
    case .timedOut:
      return .restart(
        reason: "no answer to the \(request) dump request before its deadline", reopen: true)
    case .overflow:
      // The kernel may have dropped the reply to our request (an error acknowledgement) or stalled the dump.
      return .restart(reason: "ENOBUFS during the \(request) dump", reopen: true)
    case .truncated:
      return .restart(reason: "a dump datagram larger than the receive buffer", reopen: true)
    case .undecodable(let error):
      // The end of the dump may be in the undecodable datagram: start over on a new socket.
      decodeErrors += 1
      consecutiveDecodeFailures += 1
      if consecutiveDecodeFailures >= Self.maximumConsecutiveDecodeFailures {
        return .fail(.undecodable(error))
      }
      return .restart(reason: "undecodable dump reply: \(error)", reopen: true)
    case .messages(let messages):
      return take(messages, answering: request)
    }
  }

  private mutating func take(_ messages: [NetlinkMessage], answering request: NetlinkDumpRequest) -> Step {
    var finished = false
    var refused: Step?
    for message in messages {
      guard message.portID == portID else {
        fresh.apply(message)  // a notification, in order with the dump
        continue
      }
      guard message.sequence == sequence else { continue }  // a late answer to a lookup
      if message.isDumpInterrupted, restartAfterDump == nil {
        interruptedDumps += 1
        restartAfterDump = "NLM_F_DUMP_INTR: the \(request) changed during the dump"
      }
      switch message.event {
      case .done(let code):
        if code != 0 { restartAfterDump = restartAfterDump ?? "the \(request) dump ended with \(describeErrno(code))" }
        finished = true
      case .error(let code) where code != 0:
        // ENOBUFS here: the first part of the dump did not fit, and the dump is stalled.
        if Self.fatalErrors.contains(code) {
          return .fail(.refused(request, errno: code))
        }
        if code != Self.ENOBUFS {
          consecutiveRefusals += 1
          if consecutiveRefusals >= Self.maximumConsecutiveRefusals {
            return .fail(.refused(request, errno: code))
          }
        }
        refused =
          refused ?? .restart(reason: "the \(request) dump was refused: \(describeErrno(code))", reopen: true)
        finished = true
      default:
        fresh.apply(message)
      }
    }
    if let refused { return refused }
    guard finished else { return .receive }
    if let reason = restartAfterDump { return .restart(reason: reason, reopen: false) }
    return nextRequest()
  }

  private mutating func nextRequest() -> Step {
    guard let request = pending.popLast() else {
      current = nil
      consecutiveDecodeFailures = 0
      consecutiveRefusals = 0
      return .complete(fresh)
    }
    current = request
    sequence = sequence == UInt32.max ? 1 : sequence + 1
    return .send(request, sequence: sequence)
  }
}
