#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Glibc

  /// nl80211's reading of the session's Wi-Fi links (``WirelessSignalTracker`` decides; this carries it out): a
  /// generic netlink socket, opened inside the namespace when the first Wi-Fi link appears and closed when nl80211
  /// is missing or no Wi-Fi link is left, joined to nl80211's `mlme` group and waited on by the hub
  /// (``NetlinkHubDescriptor/Kind/wireless``). Event-driven like the rest: a quiet Wi-Fi link costs nothing.
  ///
  /// Nothing here fails the session: a Wi-Fi link whose signal cannot be read is rated
  /// ``NetworkPath/LinkQuality/unknown``, and the tracker says why (``WirelessSignalTracker/family``).
  extension NetlinkSessionWorker {
    /// Rounds of sending and reading the kernel's answers in one call: the kernel answers as it receives, so one
    /// round usually ends what a change asks; what arrives after the last is read at the socket's next readiness.
    static let maximumWirelessRounds = 8

    /// The size of a datagram of nl80211's answers and events: a station's message is about 1 KiB, and the
    /// kernel fills a dump's datagrams up to the page size it starts with (iw's buffer is the same).
    static let wirelessDatagramSize = 16384

    /// Follows the Wi-Fi links there are now, when the links changed since it last did, and takes the ratings into
    /// the caches the evaluation reads.
    func followWirelessLinks() {
      guard let links = core.linksChangedSinceLastAsked() else { return }
      var wifi: [Int32: NetlinkLink] = [:]
      for (index, link) in links
      where core.caches.type(of: link) == .wifi || configuration.followedAsWiFi.contains(link.name) {
        wifi[index] = link
      }
      let actions = wireless.follow(wifi).actions
      // Most sessions have no Wi-Fi link: nothing to do, no lock to take.
      if !actions.isEmpty || wirelessSocket != nil { carryOut(actions) }
      core.caches.wifiQualities = wireless.qualities
    }

    /// Reads what the generic netlink socket holds (answers, mlme events).
    ///
    /// - Returns: Whether a Wi-Fi link's rating changed.
    func readWireless() -> Bool {
      carryOut([])
      let qualities = wireless.qualities
      guard qualities != core.caches.wifiQualities else { return false }
      core.caches.wifiQualities = qualities
      return true
    }

    /// Carries out the tracker's actions and reads the answers, for at most ``maximumWirelessRounds`` rounds. Every
    /// round's actions are carried out, the last one's too (the tracker counts its requests as under way): their
    /// answers are read at the socket's next readiness.
    private func carryOut(_ actions: [WirelessSignalTracker.Action]) {
      var pending = actions
      var sent = 0
      for round in 1...Self.maximumWirelessRounds {
        guard perform(pending, sent: &sent) else { break }
        guard round < Self.maximumWirelessRounds, wirelessSocket != nil else { break }
        pending = receiveWireless()
        guard !pending.isEmpty || wireless.isAwaitingAnswers else { break }
      }
      let family = wireless.family
      shared.withLock {
        $0.statistics.wirelessRequests += sent
        if family != .unknown || $0.statistics.wirelessFamily != nil { $0.statistics.wirelessFamily = family }
      }
    }

    /// Carries out `actions` in order, counting the requests sent.
    ///
    /// - Returns: `false` when the reading was given up on (nl80211 is missing, or the socket failed): the rest of the
    ///   actions are stale, and none is carried out.
    private func perform(_ actions: [WirelessSignalTracker.Action], sent: inout Int) -> Bool {
      for action in actions {
        if case .send = action { sent += 1 }
        perform(action)
        if case .missing = wireless.family, wirelessSocket == nil { return false }
      }
      return true
    }

    private func perform(_ action: WirelessSignalTracker.Action) {
      switch action {
      case .send(let request):
        if wirelessSocket == nil { openWirelessSocket() }
        do throws(SystemCallError) {
          try wirelessSocket?.send(request, describing: "sendto(NETLINK_GENERIC)")
        } catch {
          abandonWireless(errno: error.errno.rawValue)
        }
      case .join(let group):
        do throws(SystemCallError) {
          try wirelessSocket?.join(group: group)
        } catch {
          // Without the group's events a rating would go stale unseen: better none.
          abandonWireless(errno: error.errno.rawValue)
        }
      case .close:
        closeWirelessSocket()
      }
    }

    /// Receives every datagram waiting, without blocking, and hands their messages to the tracker.
    ///
    /// - Returns: What the tracker asks next.
    private func receiveWireless() -> [WirelessSignalTracker.Action] {
      var actions: [WirelessSignalTracker.Action] = []
      while wirelessSocket != nil {
        let received: NetlinkSocket.Received?
        do throws(SystemCallError) {
          received = try wirelessBuffer.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemCallError) in try wirelessSocket?.receive(into: buffer) }
          }.get()
        } catch {
          abandonWireless(errno: error.errno.rawValue)
          return []
        }
        switch received {
        case nil:
          return actions
        case .empty:
          return actions
        case .overflow:
          actions += wireless.lostMessages()
        case .datagram(let count, let sender, let truncated):
          // Only the kernel's datagrams; one cut short or that does not decode lost what it held.
          guard sender == 0 else { continue }
          let messages = wirelessBuffer.withUnsafeBytes { buffer in
            try? GenericNetlinkDecoder.decode(
              UnsafeRawBufferPointer(rebasing: buffer[..<count]), nl80211Family: wireless.familyID)
          }
          guard let messages, !truncated else {
            actions += wireless.lostMessages()
            continue
          }
          actions += wireless.receive(messages).actions
        }
      }
      return actions
    }

    /// Opens the generic netlink socket inside the session's namespace (a named one must still be the namespace
    /// the session started in) and has the hub wait on it, once the session runs on the hub's thread.
    private func openWirelessSocket() {
      do throws(NetworkMonitorError) {
        let opened: NetlinkSocket
        if let namespace = configuration.namespace, let identity = namespaceIdentity {
          let handle = try namespace.open()
          defer { SystemCall.close(handle.fd) }
          guard handle.device == identity.device, handle.inode == identity.inode else {
            throw .namespaceDeleted(path: namespace.path)
          }
          opened = try NetlinkSocket.opened(
            inside: handle, path: namespace.path, receiveBufferSize: Self.wirelessDatagramSize * 8, groups: 0,
            protocol: NETLINK_GENERIC)
        } else {
          opened = try NetlinkSocket.opened(
            inside: nil, path: "", receiveBufferSize: Self.wirelessDatagramSize * 8, groups: 0,
            protocol: NETLINK_GENERIC)
        }
        let fd = opened.fd
        wirelessSocket = consume opened
        if wirelessBuffer.isEmpty { wirelessBuffer = [UInt8](repeating: 0, count: Self.wirelessDatagramSize) }
        try NetlinkEventHub.shared.replace(nil, with: fd, kind: .wireless, for: reservation)
      } catch {
        if case .systemCall(_, let errno) = error {
          abandonWireless(errno: errno.rawValue)
        } else {
          abandonWireless(errno: EIO)
        }
      }
    }

    /// Gives up reading until a new Wi-Fi link appears: the socket failed with `errno`.
    private func abandonWireless(errno: Int32) {
      wireless.failed(errno: errno)
      closeWirelessSocket()
    }

    /// Closes the generic netlink socket, if open, once the hub no longer waits on it.
    func closeWirelessSocket() {
      guard let fd = wirelessSocket?.fd else { return }
      try? NetlinkEventHub.shared.replace(fd, with: nil, kind: .wireless, for: reservation)
      wirelessSocket.take()?.close()
      wirelessBuffer = []
    }
  }
#endif
