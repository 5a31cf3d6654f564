import NetStatusNetlink

extension NetlinkFuzzing {
  /// Decodes `bytes` as a generic netlink datagram, as nl80211 and the controller answer or notify, and checks what
  /// it gives.
  ///
  /// nl80211's family id is the kernel's to allocate, so the datagram is read three ways: before the id is known
  /// (`nil`), with the first message's type as nl80211's (so that any input reaches the nl80211 decoders, whatever
  /// its type), and with a fixed id. The controller's and NLMSG_* messages must decode alike whatever the id;
  /// decoding must be deterministic; a station's ``WirelessStation/signal`` must be its average, else its last
  /// signal, both in an s8's range, and its bitrate positive; a family's groups must be found by their names.
  package static func exerciseGenericNetlink(_ bytes: UnsafeRawBufferPointer) {
    let first: UInt16? = bytes.count >= 6 ? bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self) : nil
    let unknown = Result { () throws(NetlinkDecodeError) in try GenericNetlinkDecoder.decode(bytes, nl80211Family: nil)
    }
    for family in [first, 0x1c] {
      let decoded = Result { () throws(NetlinkDecodeError) in
        try GenericNetlinkDecoder.decode(bytes, nl80211Family: family)
      }
      let again = Result { () throws(NetlinkDecodeError) in
        try GenericNetlinkDecoder.decode(bytes, nl80211Family: family)
      }
      precondition(decoded == again, "decoding the same datagram twice gave \(decoded) and \(again)")
      guard case .success(let messages) = decoded else { continue }
      // Without an id, nl80211's messages are ignored unread: what decodes with one decodes without, and what
      // nl80211's id does not name decodes alike.
      guard case .success(let withoutID) = unknown else {
        preconditionFailure("a datagram that decodes with nl80211's id throws without: \(unknown)")
      }
      precondition(withoutID.count == messages.count, "\(withoutID) and \(messages) differ in count")
      for (plain, read) in zip(withoutID, messages) where read.type != family {
        precondition(plain == read, "\(read) depends on nl80211's id, \(family.map(String.init) ?? "nil")")
      }
      for message in messages { check(message.event) }
      if family == 0x1c { track(messages) }
    }
  }

  /// Feeds the messages to a ``WirelessSignalTracker`` following two links, in each state it can be in when they
  /// come (resolving nl80211, then resolved as the controller's answer in the datagram may make it): it rates only
  /// the links it follows, and each of its requests is a well-formed generic netlink request.
  private static func track(_ messages: [GenericNetlinkMessage]) {
    let followed: Set<Int32> = [3, 4]
    var tracker = WirelessSignalTracker()
    var actions = tracker.follow(
      Dictionary(
        uniqueKeysWithValues: followed.map {
          (
            $0,
            NetlinkLink(
              index: $0, name: "wlan\($0)", hardwareType: 1, flags: 0, operationalState: nil, kind: nil,
              hardwareAddress: nil)
          )
        })
    ).actions
    for _ in 0..<2 {
      actions += tracker.receive(messages).actions
      precondition(Set(tracker.qualities.keys).isSubset(of: followed), "rated links it does not follow: \(tracker)")
    }
    for case .send(let request) in actions {
      let decoded = try? GenericNetlinkDecoder.decode(request, nl80211Family: tracker.familyID)
      precondition(decoded?.count == 1, "a request that does not decode: \(request)")
    }
  }

  /// The invariants of one decoded generic netlink event.
  private static func check(_ event: GenericNetlinkEvent) {
    switch event {
    case .station(let station):
      precondition(station.address.count == 6, "a station address of \(station.address.count) bytes")
      precondition(station.signal == (station.averageSignal ?? station.lastSignal), "\(station): which signal")
      for signal in [station.lastSignal, station.averageSignal].compactMap({ $0 }) {
        precondition(Int(Int8.min)...Int(Int8.max) ~= signal, "\(station): a signal out of an s8's range")
      }
      if let bitrate = station.bitrate { precondition(bitrate > 0 && bitrate % 100 == 0, "\(station): bitrate") }
    case .family(let family):
      for group in family.multicastGroups {
        let found = family.multicastGroupID(named: group.name)
        precondition(found != nil, "\(family): group \(group.name) not found by its name")
      }
    case .wireless(let wireless):
      if case .ignored = wireless {
        precondition(wireless.interfaceIndex == nil, "an ignored command with an interface: \(wireless)")
      } else {
        precondition(wireless.interfaceIndex != nil, "\(wireless) without its interface")
      }
    case .error, .done, .overrun, .ignored:
      break
    }
    _ = "\(event)"
  }
}
