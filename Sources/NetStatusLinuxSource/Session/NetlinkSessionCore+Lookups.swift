#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink

  /// The I/O of route lookups: ``RouteLookupExchange`` decides what is sent and which answer belongs to which
  /// request; this writes, sends, receives and decodes, and applies the notifications read meanwhile.
  extension NetlinkSessionCore {
    /// Asks the lookups of ``requests`` (or goes on with those of ``exchange``, kept while answers were missing) in
    /// batches, and adds every answer to ``answers``, as far as the kernel's answers go. A lookup the kernel did not
    /// answer is asked once more, then counts as failed (``RouteLookupExchange``).
    ///
    /// - Parameter deadlinePassed: The wait for the batch sent last is over: it ends with what it has.
    /// - Returns: Whether the exchange is over; `false` when answers are missing and nothing is queued (the exchange
    ///   is kept in ``exchange``, to go on when the socket is readable or the deadline passed).
    mutating func lookUp(on socket: borrowing NetlinkSocket, deadlinePassed: Bool) throws(NetworkMonitorError) -> Bool {
      // A local, stored only to wait: the common case (every answer queued within sendto) stores nothing.
      var running: RouteLookupExchange
      if keepsExchange, let kept = exchange.take() {
        keepsExchange = false
        running = kept
      } else {
        running = RouteLookupExchange(requests, sequence: sequence)
      }
      var deadlinePassed = deadlinePassed
      while true {
        if running.awaitsAnswers, try !receiveAnswers(on: socket, exchange: &running) {
          guard deadlinePassed else {
            exchange = running
            keepsExchange = true
            return false
          }
          // The batch ends with what it has.
        }
        // The passed deadline was this batch's: the next one waits anew.
        deadlinePassed = false
        guard let batch = running.nextBatch(answers: &answers) else { break }
        try sendLookups(batch, of: running, on: socket)
      }
      sequence = running.sequence
      lookupsAsked += running.asked
      return true
    }

    /// Writes a batch of lookups into one datagram, numbered from its first sequence number, and sends it.
    private func sendLookups(
      _ batch: RouteLookupExchange.Batch, of exchange: RouteLookupExchange, on socket: borrowing NetlinkSocket
    ) throws(NetworkMonitorError) {
      guard !swallowsRequests else { return }
      var length = 0
      var number = batch.firstSequence
      for index in batch.positions {
        length += exchange.request(at: index).write(into: lookupRequestBytes, at: length, sequence: number)
        number &+= 1
      }
      try NetworkMonitorError.converting { () throws(SystemCallError) in
        try socket.send(
          UnsafeRawBufferPointer(rebasing: lookupRequestBytes[0..<length]), describing: "sendto(RTM_GETROUTE lookups)")
      }
    }

    /// Receives until the batch sent last is answered, or nothing more is queued. Notifications read meanwhile are
    /// applied in order; one that may change a lookup's answer marks the lookups outdated, and a loss (ENOBUFS)
    /// calls for a re-dump.
    ///
    /// - Returns: Whether the batch is answered; `false` when answers are missing and nothing is queued.
    private mutating func receiveAnswers(
      on socket: borrowing NetlinkSocket, exchange: inout RouteLookupExchange
    ) throws(NetworkMonitorError) -> Bool {
      while exchange.awaitsAnswers {
        switch try receiveFromKernel(socket) {
        case .empty:
          // The kernel answers within sendto: a missing answer is late, or lost to a kernel that does not answer.
          return false
        case .overflow:
          // Notifications lost, maybe answers too (asked again by the exchange).
          resyncReason = resyncReason ?? "ENOBUFS: the kernel dropped notifications"
        case .truncated:
          resyncReason = resyncReason ?? "a datagram larger than the receive buffer"
        case .bytes(let count):
          let datagram = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])
          let portID = socket.portID
          do throws(NetlinkDecodeError) {
            // The common case, an answer in a datagram of its own, decoded to what the evaluator reads.
            if let reply = try NetlinkMessageDecoder.lookupReply(in: datagram, portID: portID) {
              if let result = reply.result { exchange.record(result, sequence: reply.sequence, into: &answers) }
              continue
            }
            try NetlinkMessageDecoder.forEachMessage(in: datagram, using: &decoded) { message in
              guard message.portID == portID else {
                state.apply(message)
                if !lookupsOutdated { lookupsOutdated = RouteLookupRequest.mayChangeAnswers(message) }
                return
              }
              switch message.event {
              case .newRoute(let route):
                // A multipath answer comes this way (`lookupReply` leaves it), with its legs.
                exchange.record(.route(route), legs: route.multipath, sequence: message.sequence, into: &answers)
              case .error(let code) where code != 0:
                exchange.record(.failed(errno: code), sequence: message.sequence, into: &answers)
              default: break
              }
            }
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            resyncReason = resyncReason ?? "undecodable notification: \(error)"
          }
        }
      }
      return true
    }
  }
#endif
