#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// The I/O of a re-dump of links and addresses (``InitialDump`` decides).
  extension NetlinkSessionWorker {
    /// links and addresses, and starts over until a dump completes without loss.
    func dumpEverything() throws(NetworkMonitorError) {
      guard let opened = socket else { throw .sourceFailed("the rtnetlink socket is closed") }
      try discardQueued()
      var dump = InitialDump(sequence: sequence, portID: opened.portID, describeErrno: SystemErrno.describe)
      defer {
        sequence = dump.sequence
        let (interrupted, undecodable) = (dump.interruptedDumps, dump.decodeErrors)
        if interrupted + undecodable > 0 {
          shared.withLock {
            $0.statistics.interruptedDumps += interrupted
            $0.statistics.decodeErrors += undecodable
          }
        }
      }
      let closed = NetworkMonitorError.sourceFailed("the rtnetlink socket is closed")
      let fresh = try dump.run(
        send: { request, number throws(NetworkMonitorError) in
          guard let socket else { throw closed }
          try NetworkMonitorError.converting { () throws(SystemCallError) in
            try socket.send(request.bytes(sequence: number), describing: "sendto(\(request) dump request)")
          }
        },
        receive: { () throws(NetworkMonitorError) -> InitialDump.Received? in
          guard let socket else { throw closed }
          switch try receiveFromKernel(socket) {
          case .empty:
            // The kernel answers within sendto and makes a dump's next part within recvmsg: waiting only
            // bounds a kernel that does not answer at all.
            return try awaitReply(socket) ? nil : .timedOut
          case .overflow: return .overflow
          case .truncated: return .truncated
          case .bytes(let count):
            do throws(NetlinkDecodeError) {
              return .messages(
                try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])))
            } catch {
              return .undecodable(error)
            }
          }
        },
        restart: { reason, reopen throws(NetworkMonitorError) -> UInt32? in
          countResync(reason)
          if reopen { try reopenSocket() }
          try discardQueued()
          return reopen ? socket?.portID : nil
        },
        failure: NetworkMonitorError.init(dumpFailure:))
      state = fresh
      resyncReason = nil
      shared.withLock { $0.statistics.dumps += 1 }
    }

    /// Reads and drops everything queued, a pending ENOBUFS included: a dump follows.
    func discardQueued() throws(NetworkMonitorError) {
      guard let socket else { return }
      while true {
        if case .empty = try receiveFromKernel(socket) { return }
      }
    }
  }
#endif
