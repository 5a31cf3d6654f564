#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import Glibc

  extension LinkInventory {
    /// Reads the links and addresses of `networkNamespace` (a name or a path; `nil`: the process's own) and its
    /// resolver configuration, as a monitor of that namespace would find it; systemd-networkd's state from
    /// `networkdRoot` when given, as a monitor given that root would.
    ///
    /// - Throws: ``NetworkMonitorError`` when the namespace cannot be entered or the kernel does not answer.
    package static func read(
      networkNamespace: String?, sysfsRoot: String = "/sys", networkdRoot: String? = nil
    ) throws(NetworkMonitorError) -> LinkInventory {
      let namespace = try networkNamespace.map { name throws(NetworkMonitorError) in try NetworkNamespace(name) }
      let mirrored = try dumpLinksAndAddresses(in: namespace)
      let resolverPath =
        networkNamespace.map(ResolverConfiguration.configurationPath(forNamespace:)) ?? "/etc/resolv.conf"
      let upstream =
        networkNamespace.map(ResolverConfiguration.resolvedUpstreamPath(forNamespace:))
        ?? ResolverConfiguration.systemdResolvedUpstreamPath
      let resolver = ResolverConfiguration.load(path: resolverPath, upstreamPath: upstream)
      var inventory = LinkInventory(
        mirrored: mirrored, classifier: InterfaceClassifier(sysfsRoot: sysfsRoot), nameservers: resolver.nameservers)
      // systemd-networkd's view of each link, as a monitor of that namespace reads it (NetworkdLinkWatcher.swift).
      let networkd = NetworkdLinkWatcher.status(
        root: networkdRoot ?? NetworkdRecord.defaultRoot(ownNamespace: namespace == nil),
        unused: NetworkdRecord.unusedReason(ownNamespace: namespace == nil), links: inventory.links.map(\.index))
      for position in inventory.links.indices {
        inventory.links[position].networkd = networkd.links[inventory.links[position].index]
      }
      return inventory
    }

    /// The inventory of a mirrored state. Pure.
    init(mirrored state: KernelState, classifier: InterfaceClassifier, nameservers: [String]) {
      self.init(
        links: Self.mirroredLinks(of: state, classify: classifier.classify, speed: classifier.negotiatedSpeed),
        nameservers: nameservers)
    }

    /// The links of a mirrored state, classified by `classify`, with the speed `speed` reads, in index order. Pure.
    static func mirroredLinks(
      of state: KernelState, classify: (NetlinkLink) -> InterfaceType, speed: (NetlinkLink) -> Int? = { _ in nil }
    ) -> [Link] {
      let addresses = Dictionary(grouping: state.addresses.values, by: \.interfaceIndex)
      return state.links.values.sorted { $0.index < $1.index }.map { link in
        let own = (addresses[link.index] ?? []).sorted {
          ($0.address.isIPv4 ? 0 : 1, $0.address.description) < ($1.address.isIPv4 ? 0 : 1, $1.address.description)
        }
        return Link(
          index: link.index, name: link.name, type: classify(link), kind: link.kind,
          isUp: link.flags & RTNL.IFF_UP != 0, hasCarrier: link.flags & RTNL.IFF_LOWER_UP != 0, speed: speed(link),
          isDormant: link.flags & RTNL.IFF_DORMANT != 0 || link.operationalState == RTNL.IF_OPER_DORMANT,
          master: link.master, addresses: own.map(Self.inventoryAddress))
      }
    }

    static func inventoryAddress(_ address: NetlinkAddress) -> Address {
      var flags: [String] = []
      if address.flags & RTNL.IFA_F_TENTATIVE != 0 { flags.append("tentative") }
      if address.flags & RTNL.IFA_F_DADFAILED != 0 { flags.append("dadfailed") }
      if address.scope == RTNL.RT_SCOPE_SITE { flags.append("site") }
      if address.scope == RTNL.RT_SCOPE_LINK { flags.append("link") }
      if address.scope == RTNL.RT_SCOPE_HOST { flags.append("host") }
      return Address(text: "\(address.address)/\(address.prefixLength)", flags: flags)
    }

    /// How many times a lost or refused dump is asked again before giving up.
    private static let attempts = 5

    /// Dumps links and addresses on a socket made in `namespace`.
    private static func dumpLinksAndAddresses(in namespace: NetworkNamespace?) throws(NetworkMonitorError)
      -> KernelState
    {
      func makeSocket() throws(NetworkMonitorError) -> NetlinkSocket {
        let handle = try namespace?.open()
        defer { if let handle { SystemCall.close(handle.fd) } }
        return try NetlinkSocket.opened(
          inside: handle, path: namespace?.path ?? "", receiveBufferSize: 1 << 20, groups: 0)
      }
      // Closed when it goes out of scope, or when replaced.
      var socket = try makeSocket()
      var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
      defer { buffer.deallocate() }
      var dump = InitialDump(sequence: 0, portID: socket.portID, describeErrno: Errno.describe)
      var restarts = 0
      return try dump.run(
        send: { request, sequence throws(NetworkMonitorError) in
          try NetworkMonitorError.converting { () throws(SystemCallError) in
            try socket.send(request.bytes(sequence: sequence), describing: "sendto(\(request) dump request)")
          }
        },
        receive: { () throws(NetworkMonitorError) -> InitialDump.Received? in
          let received = try NetworkMonitorError.converting { () throws(SystemCallError) in
            try socket.receive(into: buffer)
          }
          switch received {
          case .empty:
            var descriptor = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            let ready = try SystemCall.invoke("poll(netlink)") {
              poll(&descriptor, 1, InitialDump.replyTimeoutMilliseconds)
            }
            return ready == 0 ? .timedOut : nil
          case .overflow: return .overflow
          case .datagram(_, let sender, _) where sender != 0: return nil  // not the kernel's
          case .datagram(let count, _, let truncated):
            if truncated {
              let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 8)
              buffer.deallocate()
              buffer = larger
              return .truncated
            }
            do throws(NetlinkDecodeError) {
              return .messages(try NetlinkMessageDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
            } catch {
              return .undecodable(error)
            }
          }
        },
        restart: { reason, reopen throws(NetworkMonitorError) -> UInt32? in
          restarts += 1
          guard restarts < attempts else { throw .sourceFailed("no complete dump of links and addresses: \(reason)") }
          guard reopen else { return nil }
          socket = try makeSocket()
          return socket.portID
        },
        failure: NetworkMonitorError.init(dumpFailure:))
    }
  }
#endif
