#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink

  /// The I/O of route lookups: ``RouteLookupExchange`` decides what is sent and which answer belongs to which
  /// request; this writes, sends, receives and decodes, and applies the notifications read meanwhile.
  extension NetlinkSessionCore {
    /// Asks the kernel the route lookups of ``requests``, in batches, and adds every answer to ``answers`` (which
    /// holds no answer to any of them yet). A lookup the kernel did not answer is asked once more, then counts as
    /// failed (``RouteLookupExchange``).
    mutating func lookUp(on socket: borrowing NetlinkSocket?) throws(NetworkMonitorError) {
      guard !requests.isEmpty else { return }
      switch socket {
      case .none: return
      case .some(let socket): try lookUp(on: socket)
      }
    }

    private mutating func lookUp(on socket: borrowing NetlinkSocket) throws(NetworkMonitorError) {
      var exchange = RouteLookupExchange(requests, sequence: sequence)
      defer {
        sequence = exchange.sequence
        lookupsAsked += exchange.asked
      }
      while let batch = exchange.nextBatch(answers: &answers) {
        try sendLookups(batch, of: exchange, on: socket)
        try receiveAnswers(on: socket, exchange: &exchange)
      }
    }

    /// Writes a batch of lookups into one datagram, numbered from its first sequence number, and sends it.
    private func sendLookups(
      _ batch: RouteLookupExchange.Batch, of exchange: RouteLookupExchange, on socket: borrowing NetlinkSocket
    ) throws(NetworkMonitorError) {
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

    /// Receives until the batch sent last is answered, or nothing more comes. Notifications read meanwhile are
    /// applied in order; one that may change a lookup's answer marks the lookups outdated, and a loss (ENOBUFS)
    /// calls for a re-dump.
    private mutating func receiveAnswers(
      on socket: borrowing NetlinkSocket, exchange: inout RouteLookupExchange
    ) throws(NetworkMonitorError) {
      while exchange.awaitsAnswers {
        switch try receiveFromKernel(socket) {
        case .empty:
          // Answers are queued before sendto returns; wait only in case a kernel ever defers them.
          guard exchange.shouldWait(), try Self.awaitReply(socket) else { return }
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
    }
  }
#endif
