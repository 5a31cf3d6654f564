#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc

  extension NetlinkSocket {
    /// Opens a socket (``NetlinkSocket/open(receiveBufferSize:groups:)``) in the namespace `handle` names, or in
    /// the calling thread's when `handle` is `nil`. A netlink socket belongs to the namespace it was made in, so
    /// only its creation needs a thread inside the namespace: a short-lived one, so that no long-lived thread ever
    /// changes namespace.
    ///
    /// - Parameter path: The namespace's path, for errors.
    static func opened(
      inside handle: NetworkNamespace.Handle?, path: String, receiveBufferSize: Int, groups: UInt32 = groups,
      protocol netlinkProtocol: Int32 = NETLINK_ROUTE
    ) throws(NetworkMonitorError) -> NetlinkSocket {
      guard let handle else {
        return try NetworkMonitorError.converting { () throws(SystemCallError) in
          try NetlinkSocket.open(receiveBufferSize: receiveBufferSize, groups: groups, protocol: netlinkProtocol)
        }
      }
      let released = try NetworkNamespace.run(inside: handle, path: path) { () throws(NetworkMonitorError) in
        try NetworkMonitorError.converting { () throws(SystemCallError) in
          try NetlinkSocket.open(receiveBufferSize: receiveBufferSize, groups: groups, protocol: netlinkProtocol)
            .release()
        }
      }
      return NetlinkSocket(adopting: released)
    }
  }
#endif
