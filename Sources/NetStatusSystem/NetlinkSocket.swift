#if os(Linux)
  import NetStatusNetlink
  import CNetStatusShim
  import Glibc

  /// A NETLINK_ROUTE socket: the one subscribed to link, address, route, rule and nexthop changes, or an
  /// unsubscribed one for route lookups. Thin: each method is one system call through
  /// ``SystemCall/call(_:_:)``.
  ///
  /// The socket is non-blocking; the event loop waits in `poll(2)`. Owned (``FileDescriptor``): closed exactly
  /// once, by ``close()`` or when it goes out of scope, and never used after, since both consume it.
  package struct NetlinkSocket: ~Copyable, Sendable {
    /// The descriptor.
    package let descriptor: FileDescriptor
    /// The port ID the kernel gave the socket (our `nl_pid`), which dump replies carry.
    package let portID: UInt32
    /// The receive buffer the kernel actually granted, in bytes (it doubles the request for bookkeeping).
    package let receiveBufferSize: Int

    /// The descriptor's number, for `poll(2)` and `epoll_ctl(2)`, valid while the socket is open.
    package var fd: Int32 { descriptor.rawValue }

    /// An open socket given up by its owner (``release()``), to be adopted by another one (``init(adopting:)``):
    /// how a socket made on a short-lived thread inside a namespace reaches its owner.
    package struct Released: Sendable {
      fileprivate let fd: Int32
      fileprivate let portID: UInt32
      fileprivate let receiveBufferSize: Int
    }

    /// Owns the socket `released` describes.
    package init(adopting released: Released) {
      self.init(fd: released.fd, portID: released.portID, receiveBufferSize: released.receiveBufferSize)
    }

    private init(fd: Int32, portID: UInt32, receiveBufferSize: Int) {
      descriptor = FileDescriptor(adopting: fd)
      self.portID = portID
      self.receiveBufferSize = receiveBufferSize
    }

    /// Gives up ownership without closing, for ``init(adopting:)``.
    package consuming func release() -> Released {
      let portID = portID
      let receiveBufferSize = receiveBufferSize
      return Released(fd: descriptor.release(), portID: portID, receiveBufferSize: receiveBufferSize)
    }

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
    ///   - protocol: The netlink protocol: NETLINK_ROUTE, or NETLINK_GENERIC for generic netlink (nl80211), whose
    ///     groups are joined by id afterwards (``join(group:)``).
    package static func open(
      receiveBufferSize: Int, groups: UInt32 = groups, protocol netlinkProtocol: Int32 = NETLINK_ROUTE
    ) throws(SystemCallError) -> NetlinkSocket {
      let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
      let name = netlinkProtocol == NETLINK_GENERIC ? "NETLINK_GENERIC" : "NETLINK_ROUTE"
      let fd = try SystemCall.call("socket(AF_NETLINK, \(name))") { socket(AF_NETLINK, type, netlinkProtocol) }
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

    /// Joins the multicast group numbered `group` (NETLINK_ADD_MEMBERSHIP): how a generic netlink socket subscribes
    /// to a group whose id the controller gave (group ids above 32 do not fit `nl_groups`).
    package func join(group: UInt32) throws(SystemCallError) {
      var member = group
      _ = try SystemCall.call("setsockopt(NETLINK_ADD_MEMBERSHIP, \(group))") {
        setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &member, socklen_t(MemoryLayout<UInt32>.size))
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

    /// Receives one datagram without blocking, with its sender's address (recvmsg).
    package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Received {
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
            let count = try SystemCall.attempt { recvmsg(fd, &message, Int32(MSG_DONTWAIT)) }
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

    /// Closes the socket, now.
    package consuming func close() { descriptor.close() }
  }
#endif
