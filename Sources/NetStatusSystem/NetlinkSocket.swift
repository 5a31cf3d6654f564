#if os(Linux)
  import NetStatusNetlink
  import CNetStatusShim
  import Glibc

  /// A NETLINK_ROUTE socket: the one subscribed to link, address, route, rule and nexthop changes, or an
  /// unsubscribed one for route lookups. Thin: each method is one system call through
  /// ``SystemCall/call(_:_:)``.
  ///
  /// Every receive but ``receive(into:waiting:)`` with `waiting` is non-blocking (`MSG_DONTWAIT`), whatever the
  /// descriptor's own mode; a thread waiting in a receive is woken by ``interruptWaitingReceive()``.
  package struct NetlinkSocket {
    /// The descriptor. The owner closes it with ``close()``.
    package let fd: Int32
    /// The port ID the kernel gave the socket (our `nl_pid`), which dump replies carry.
    package let portID: UInt32
    /// The receive buffer the kernel actually granted, in bytes (it doubles the request for bookkeeping).
    package let receiveBufferSize: Int

    /// The groups every source listens to: links, IPv4 and IPv6 addresses, routes and rules, and nexthop
    /// objects. Links and addresses are mirrored; the others only trigger new route lookups.
    package static let groups =
      RTNL.RTMGRP_LINK | RTNL.RTMGRP_IPV4_IFADDR | RTNL.RTMGRP_IPV6_IFADDR | RTNL.RTMGRP_IPV4_ROUTE
      | RTNL.RTMGRP_IPV6_ROUTE | RTNL.RTMGRP_IPV4_RULE | RTNL.RTMGRP_IPV6_RULE | RTNL.RTMGRP_NEXTHOP

    /// Opens a socket in the calling thread's network namespace, sizes its receive buffer and binds it to
    /// `groups`: subscribed before anything is dumped, so nothing changes unseen.
    ///
    /// - Parameters:
    ///   - receiveBufferSize: The receive buffer to ask for. SO_RCVBUFFORCE (which needs CAP_NET_ADMIN and
    ///     ignores `net.core.rmem_max`) is tried first, then SO_RCVBUF.
    ///   - groups: The multicast groups to join (RTMGRP_* masks); 0 for a socket that only sends requests.
    ///   - nonBlocking: Whether the descriptor itself is non-blocking (`SOCK_NONBLOCK`). A socket some thread waits
    ///     in (``receive(into:waiting:)``) must not be; the other receives do not wait either way.
    package static func open(
      receiveBufferSize: Int, groups: UInt32 = groups, nonBlocking: Bool = true
    ) throws(SystemCallError) -> NetlinkSocket {
      let type =
        Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
      let fd = try SystemCall.call("socket(AF_NETLINK, NETLINK_ROUTE)") { socket(AF_NETLINK, type, NETLINK_ROUTE) }
      do throws(SystemCallError) {
        var size = Int32(clamping: receiveBufferSize)
        let length = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, length) != 0 {
          try SystemCall.call("setsockopt(SO_RCVBUF, \(size))") { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, length) }
        }
        var granted: Int32 = 0
        var grantedLength = length
        try SystemCall.call("getsockopt(SO_RCVBUF)") { getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &granted, &grantedLength) }

        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = groups
        _ = try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
          try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemCallError) in
            try SystemCall.call("bind(AF_NETLINK, groups 0x\(String(groups, radix: 16)))") {
              bind(fd, raw, socklen_t(MemoryLayout<sockaddr_nl>.size))
            }
          }
        }
        var bound = sockaddr_nl()
        var boundLength = socklen_t(MemoryLayout<sockaddr_nl>.size)
        _ = try withUnsafeMutablePointer(to: &bound) { pointer throws(SystemCallError) in
          try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemCallError) in
            try SystemCall.call("getsockname(AF_NETLINK)") { getsockname(fd, raw, &boundLength) }
          }
        }
        return NetlinkSocket(fd: fd, portID: bound.nl_pid, receiveBufferSize: Int(granted))
      } catch {
        SystemCall.close(fd)
        throw error
      }
    }

    /// Sends a request to the kernel.
    package func send(_ bytes: [UInt8], describing call: @autoclosure () -> String) throws(SystemCallError) {
      let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(SystemCallError) in try send(buffer, describing: call()) }
      }
      try result.get()
    }

    /// Sends the request in `buffer` to the kernel.
    package func send(_ buffer: UnsafeRawBufferPointer, describing call: @autoclosure () -> String)
      throws(SystemCallError)
    {
      var kernel = sockaddr_nl()
      kernel.nl_family = sa_family_t(AF_NETLINK)
      _ = try withUnsafePointer(to: &kernel) { pointer throws(SystemCallError) in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(SystemCallError) in
          try SystemCall.call(call()) {
            sendto(fd, buffer.baseAddress, buffer.count, 0, raw, socklen_t(MemoryLayout<sockaddr_nl>.size))
          }
        }
      }
    }

    /// What one receive gave.
    package enum Received: Equatable {
      /// A datagram of `count` bytes from port `sender` (0 is the kernel). `truncated` when it did not fit.
      case datagram(count: Int, sender: UInt32, truncated: Bool)
      /// Nothing is waiting (EAGAIN).
      case empty
      /// The kernel dropped messages because the receive buffer was full (ENOBUFS).
      case overflow
    }

    /// Receives one datagram, with its sender's address (recvmsg).
    ///
    /// - Parameters:
    ///   - buffer: Where the datagram goes.
    ///   - waiting: Wait for one (on a socket opened with `nonBlocking: false`) instead of returning
    ///     ``Received/empty``. Signals do not end the wait (EINTR is retried); ``interruptWaitingReceive()`` does.
    package func receive(
      into buffer: UnsafeMutableRawBufferPointer, waiting: Bool = false
    ) throws(SystemCallError) -> Received {
      let flags = waiting ? 0 : Int32(MSG_DONTWAIT)
      var sender = sockaddr_nl()
      var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
      let result: Int
      do throws(Errno) {
        result = try withUnsafeMutablePointer(to: &sender) { senderPointer throws(Errno) in
          try withUnsafeMutablePointer(to: &vector) { vectorPointer throws(Errno) in
            var message = msghdr()
            message.msg_name = UnsafeMutableRawPointer(senderPointer)
            message.msg_namelen = socklen_t(MemoryLayout<sockaddr_nl>.size)
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            let count = try SystemCall.attempt { recvmsg(fd, &message, flags) }
            // MSG_TRUNC in msg_flags: the datagram was longer than the buffer.
            return message.msg_flags & Int32(MSG_TRUNC) != 0 ? -count - 1 : count
          }
        }
      } catch {
        // EWOULDBLOCK is EAGAIN on Linux.
        if error == .resourceTemporarilyUnavailable { return .empty }
        if error == .noBufferSpace { return .overflow }
        throw SystemCallError(call: "recvmsg(AF_NETLINK)", errno: error)
      }
      if result < 0 { return .datagram(count: -result - 1, sender: sender.nl_pid, truncated: true) }
      return .datagram(count: result, sender: sender.nl_pid, truncated: false)
    }

    /// Wakes a thread waiting in ``receive(into:waiting:)``: sends the socket a 16-byte message from itself (a
    /// netlink socket may send to its own port ID; no privilege is needed). Never blocks.
    ///
    /// The datagram arrives with the socket's own port ID as its sender, which tells it from the kernel's (port 0).
    /// Its type is `RTM_GETROUTE`, which the kernel never sees (it goes to our port, not the kernel's): a Linux
    /// security module checks each message a netlink socket sends by its type, and SELinux refuses (or logs) a type
    /// it does not know, such as `NLMSG_NOOP`, where `RTM_GETROUTE` needs only what the route lookups need anyway.
    ///
    /// - Returns: `nil` when the message was queued, or when the receive queue is full (EAGAIN: the waiting thread
    ///   has datagrams to return anyway); otherwise why it could not be sent.
    @discardableResult
    package func interruptWaitingReceive() -> Errno? {
      var header = nlmsghdr()
      header.nlmsg_len = UInt32(MemoryLayout<nlmsghdr>.size)
      header.nlmsg_type = RTNL.RTM_GETROUTE
      header.nlmsg_pid = portID
      var itself = sockaddr_nl()
      itself.nl_family = sa_family_t(AF_NETLINK)
      itself.nl_pid = portID
      do throws(Errno) {
        try withUnsafePointer(to: &header) { message throws(Errno) in
          try withUnsafePointer(to: &itself) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
              _ = try SystemCall.attempt {
                sendto(
                  fd, message, MemoryLayout<nlmsghdr>.size, Int32(MSG_DONTWAIT), address,
                  socklen_t(MemoryLayout<sockaddr_nl>.size))
              }
            }
          }
        }
        return nil
      } catch {
        return error == .resourceTemporarilyUnavailable ? nil : error
      }
    }

    /// Closes the socket.
    package func close() { SystemCall.close(fd) }
  }
#endif
