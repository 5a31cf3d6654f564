#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// Receiving: one datagram at a time from the kernel, and the notifications read between lookups.
  extension NetlinkSessionCore {
    /// What one drain of the subscribed socket found.
    struct Drained {
      /// Why a re-dump is needed, if one is.
      var resyncReason: String?
      /// Whether anything arrived that may change a route lookup's answer: a link, address, rule or nexthop
      /// change, or a route whose prefix contains a lookup destination.
      var relevant = false
    }

    /// Reads pending datagrams and applies them, until one that may change a lookup's answer (or EAGAIN). Once a
    /// re-dump is known to be needed, the rest is read and dropped, since the dump replaces it.
    mutating func readNotifications(from socket: borrowing NetlinkSocket?) throws(NetworkMonitorError) -> Drained {
      switch socket {
      case .none: return Drained()
      case .some(let socket): return try readNotifications(from: socket)
      }
    }

    private mutating func readNotifications(from socket: borrowing NetlinkSocket) throws(NetworkMonitorError)
      -> Drained
    {
      let portID = socket.portID
      var drained = Drained()
      while true {
        switch try receiveFromKernel(socket) {
        case .empty:
          return drained
        case .overflow:
          drained.resyncReason = drained.resyncReason ?? "ENOBUFS: the kernel dropped notifications"
        case .truncated:
          drained.resyncReason = drained.resyncReason ?? "a datagram larger than the receive buffer"
        case .bytes(let count):
          guard drained.resyncReason == nil else { continue }
          let datagram = UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<count])
          do throws(NetlinkDecodeError) {
            // The common case, a route notification in a datagram of its own, decoded to what is read of it: it
            // changes nothing mirrored, and matters when its prefix holds a lookup destination.
            if let notification = try NetlinkMessageDecoder.routeMessage(in: datagram),
              notification.portID != portID
            {
              if !drained.relevant { drained.relevant = RouteLookupRequest.mayChangeAnswers(notification.route) }
            } else {
              try NetlinkMessageDecoder.forEachMessage(in: datagram, using: &decoded) { message in
                // Ours are late answers to lookups given up on: dropped.
                guard message.portID != portID else { return }
                state.apply(message)
                if !drained.relevant { drained.relevant = RouteLookupRequest.mayChangeAnswers(message) }
              }
            }
          } catch {
            shared.withLock { $0.statistics.decodeErrors += 1 }
            drained.resyncReason = "undecodable notification: \(error)"
          }
          // A change that matters: look up now. The lookups are asked on this socket, so the exchange reads
          // whatever is queued before its answers (and looks up again if that matters too); what it does not read
          // (no lookup to ask) keeps the socket readable for the next turn: no receive only to meet EAGAIN.
          if drained.relevant, drained.resyncReason == nil { return drained }
        }
      }
    }

    /// Waits on the calling thread for a reply from the kernel on the socket, at most `timeout` milliseconds: at
    /// start-up only, never on the loop's thread.
    ///
    /// - Returns: `false` when nothing came in time.
    static func awaitReply(_ socket: borrowing NetlinkSocket, timeout: Int32) throws(NetworkMonitorError) -> Bool {
      var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
      let ready = try SystemCall.invoke("poll(netlink)") {
        poll(&descriptor, 1, timeout)
      }
      return ready > 0
    }

    /// What one receive from the kernel gave.
    enum KernelDatagram {
      /// Nothing is queued (EAGAIN).
      case empty
      /// ENOBUFS: the kernel dropped messages (counted).
      case overflow
      /// The datagram was larger than the buffer, which has grown for the next one; its messages are lost.
      case truncated
      /// A datagram from the kernel: this many bytes at the start of `buffer`.
      case bytes(Int)
    }

    /// Receives one datagram on `socket` into `buffer`. A datagram from anyone but the kernel (a sender port
    /// other than 0: spoofable) is counted and skipped.
    mutating func receiveFromKernel(_ socket: borrowing NetlinkSocket) throws(NetworkMonitorError) -> KernelDatagram {
      while true {
        let received = try NetworkMonitorError.converting { () throws(SystemCallError) in
          try socket.receive(into: buffer.bytes)
        }
        switch received {
        case .empty:
          return .empty
        case .overflow:
          shared.withLock { $0.statistics.overflows += 1 }
          return .overflow
        case .datagram(let count, let sender, let truncated):
          guard sender == 0 else {
            shared.withLock { $0.statistics.foreignDatagrams += 1 }
            continue
          }
          if truncated {
            buffer.grow()
            return .truncated
          }
          return .bytes(count)
        }
      }
    }
  }
#endif
