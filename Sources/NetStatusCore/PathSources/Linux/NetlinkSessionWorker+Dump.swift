#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// The I/O of a re-dump of links and addresses (``InitialDump`` decides).
  extension NetlinkSessionWorker {
    /// Rebuilds the state from scratch (``InitialDump`` decides; this does its I/O): drops what is queued, dumps
    /// links and addresses, and starts over until a dump completes without loss.
    func dumpEverything() throws(NetworkMonitorError) {
      let closed = NetworkMonitorError.sourceFailed("the rtnetlink socket is closed")
      guard let portID = socket?.portID else { throw closed }
      try discardQueued()
      var dump = InitialDump(sequence: core.sequence, portID: portID, describeErrno: SystemErrno.describe)
      defer {
        core.sequence = dump.sequence
        let (interrupted, undecodable) = (dump.interruptedDumps, dump.decodeErrors)
        if interrupted + undecodable > 0 {
          shared.withLock {
            $0.statistics.interruptedDumps += interrupted
            $0.statistics.decodeErrors += undecodable
          }
        }
      }
      let fresh = try dump.run(
        send: { request, number throws(NetworkMonitorError) in
          switch socket {
          case .none: throw closed
          case .some(let socket):
            try NetworkMonitorError.converting { () throws(SystemCallError) in
              try socket.send(request.bytes(sequence: number), describing: "sendto(\(request) dump request)")
            }
          }
        },
        receive: { () throws(NetworkMonitorError) -> InitialDump.Received? in
          switch socket {
          case .none: throw closed
          case .some(let socket): return try receiveDumpPart(on: socket)
          }
        },
        restart: { reason, reopen throws(NetworkMonitorError) -> UInt32? in
          countResync(reason)
          if reopen { try reopenSocket() }
          try discardQueued()
          return reopen ? socket?.portID : nil
        },
        failure: NetworkMonitorError.init(dumpFailure:))
      core.state = fresh
      core.resyncReason = nil
      shared.withLock { $0.statistics.dumps += 1 }
    }

    /// One receive of a dump's answer, as ``InitialDump`` reads it.
    private func receiveDumpPart(on socket: borrowing NetlinkSocket) throws(NetworkMonitorError)
      -> InitialDump.Received?
    {
      switch try core.receiveFromKernel(socket) {
      case .empty:
        // The kernel answers within sendto and makes a dump's next part within recvmsg: waiting only
        // bounds a kernel that does not answer at all.
        return try NetlinkSessionCore.awaitReply(socket) ? nil : .timedOut
      case .overflow: return .overflow
      case .truncated: return .truncated
      case .bytes(let count):
        do throws(NetlinkDecodeError) {
          return .messages(
            try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: core.buffer.bytes[0..<count])))
        } catch {
          return .undecodable(error)
        }
      }
    }

    /// Reads and drops everything queued, a pending ENOBUFS included: a dump follows.
    func discardQueued() throws(NetworkMonitorError) {
      switch socket {
      case .none: return
      case .some(let socket):
        while true {
          if case .empty = try core.receiveFromKernel(socket) { return }
        }
      }
    }
  }
#endif
