#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// The I/O of a re-dump of links and addresses (``InitialDump`` decides), carried as far as the kernel's answers go:
  /// on the loop's thread it never waits, and goes on when the socket is readable or its deadline passed.
  extension NetlinkSessionWorker {
    /// Starts rebuilding the state from scratch: drops what is queued and asks the first dump. Carry it on with
    /// ``continueDump(deadlinePassed:)``.
    func beginDump() throws(NetworkMonitorError) {
      guard let portID = socket?.portID else { throw .sourceFailed("the rtnetlink socket is closed") }
      try discardQueued()
      var started = InitialDump(sequence: core.sequence, portID: portID, describeErrno: Errno.describe)
      let first = started.beginAttempt()
      dump = started
      dumpStep = first
    }

    /// Carries the dump under way as far as the kernel's answers go: its parts, its restarts (a new socket after a
    /// loss that may have stalled it), until it completes without loss.
    ///
    /// - Parameter deadlinePassed: The wait for the next part is over: the dump starts over on a new socket.
    /// - Returns: Whether the dump is over (the state is the new one); `false` when the next part is not queued yet
    ///   (come back when the socket is readable, or when the deadline of ``InitialDump/sequence`` passed).
    func continueDump(deadlinePassed: Bool) throws(NetworkMonitorError) -> Bool {
      guard var running = dump.take() else { return true }
      var step = deadlinePassed ? running.received(.timedOut) : dumpStep
      defer {
        // Counted once the dump ended, completed or failed.
        if dump == nil { finish(running) }
      }
      while true {
        switch step {
        case .send(let request, let number):
          if !core.swallowsRequests {
            switch socket {
            case .none: throw .sourceFailed("the rtnetlink socket is closed")
            case .some(let socket):
              try NetworkMonitorError.converting { () throws(SystemCallError) in
                try socket.send(request.bytes(sequence: number), describing: "sendto(\(request) dump request)")
              }
            }
          }
          step = .receive
        case .receive:
          guard let received = try receiveDumpPart() else {
            dump = running
            dumpStep = .receive
            return false
          }
          step = running.received(received)
        case .restart(let reason, let reopen):
          countResync(reason)
          if reopen {
            try reopenSocket()
            if let portID = socket?.portID { running.socketReopened(portID: portID) }
          }
          try discardQueued()
          step = running.beginAttempt()
        case .complete(let fresh):
          core.state = fresh
          core.stateReplaced()
          core.resyncReason = nil
          shared.withLock { $0.statistics.dumps += 1 }
          return true
        case .fail(let failure):
          throw NetworkMonitorError(dumpFailure: failure)
        }
      }
    }

    /// Carries a dump to its end on the calling thread, waiting for the kernel's answers: at start-up, on the
    /// starting thread, never on the loop's.
    func dumpEverything() throws(NetworkMonitorError) {
      try beginDump()
      var deadlinePassed = false
      while try !continueDump(deadlinePassed: deadlinePassed) {
        // A dump's next part is queued within recvmsg: one wait per receive that found none.
        deadlinePassed = !(try awaitKernel(milliseconds: max(1, configuration.replyTimeoutMilliseconds)))
      }
    }

    /// The sequence number of the dump request awaited now, if a dump is under way.
    var awaitedDumpSequence: UInt32? { dump?.sequence }

    /// Takes a dump's counts into the statistics, and its last sequence number into the socket's.
    private func finish(_ ended: InitialDump) {
      core.sequence = ended.sequence
      let (interrupted, undecodable) = (ended.interruptedDumps, ended.decodeErrors)
      if interrupted + undecodable > 0 {
        shared.withLock {
          $0.statistics.interruptedDumps += interrupted
          $0.statistics.decodeErrors += undecodable
        }
      }
    }

    /// One receive of a dump's answer, as ``InitialDump`` reads it; `nil` when nothing is queued.
    private func receiveDumpPart() throws(NetworkMonitorError) -> InitialDump.Received? {
      switch socket {
      case .none: throw .sourceFailed("the rtnetlink socket is closed")
      case .some(let socket):
        switch try core.receiveFromKernel(socket) {
        case .empty: return nil
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
    }

    /// Waits on the calling thread until the socket is readable, at most `milliseconds`: for start-up only, on the
    /// starting thread (the loop's own only when a handler running there starts a session: ARCHITECTURE.md, "The event
    /// loop"), never in a session's work.
    ///
    /// - Returns: `false` when nothing came in time.
    func awaitKernel(milliseconds: Int32) throws(NetworkMonitorError) -> Bool {
      switch socket {
      case .none: throw .sourceFailed("the rtnetlink socket is closed")
      case .some(let socket): return try NetlinkSessionCore.awaitReply(socket, timeout: milliseconds)
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
