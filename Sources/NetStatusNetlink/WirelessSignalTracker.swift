#if canImport(NetStatusPathModel)
  import NetStatusPathModel
#endif

/// Follows the signal of a session's Wi-Fi links through nl80211, and rates each link by it
/// (``LinkQualityRules/wifi(station:)``): the state machine of the Linux source's nl80211 reading, pure, so that
/// every decision is tested without a socket or a Wi-Fi device.
///
/// It only reads: it asks the generic netlink controller for nl80211's id (``GenericNetlinkFamilyRequest``), joins
/// nl80211's `mlme` group (connect, roam and disconnect events) and dumps the stations of a Wi-Fi interface
/// (``NL80211StationRequest``: on a client's interface, its access point) when the link appears or changes, when an
/// mlme event names it, and after lost events. It never sends a request that changes anything (no
/// NL80211_CMD_SET_CQM, whose thresholds belong to wpa_supplicant or iwd). A signal that fades with no event in
/// between is read again at the next event only.
///
/// The caller owns the socket: it carries out the ``Action``s (opening the socket for the first
/// ``Action/send(_:)``), feeds every message it receives to ``receive(_:)``, and reads ``qualities``. The kernel
/// answers generic netlink requests as they are sent (a dump's first part is queued before `sendto` returns), so
/// the caller may read the answers at once instead of waiting for readiness.
package struct WirelessSignalTracker: Sendable {
  /// What is known of nl80211's family.
  package enum Family: Sendable, Hashable {
    /// Not asked for: no Wi-Fi link was followed yet, or they are all gone.
    case unknown
    /// Asked for, with this request's sequence number.
    case resolving(sequence: UInt32)
    /// Its id, the `nlmsg_type` of its messages.
    case resolved(id: UInt16)
    /// The controller answered with this errno (ENOENT: cfg80211 is not loaded, there is no Wi-Fi driver). Asked
    /// again when a Wi-Fi link appears (its driver loads cfg80211 first).
    case missing(errno: Int32)
  }

  /// What the caller does for the tracker, in order.
  package enum Action: Sendable, Hashable {
    /// Send this request (opening the generic netlink socket first when none is open).
    case send([UInt8])
    /// Join this multicast group (NETLINK_ADD_MEMBERSHIP).
    case join(group: UInt32)
    /// Close the socket: nl80211 is missing, or no Wi-Fi link is left to follow.
    case close
  }

  /// A Wi-Fi link followed.
  private struct Followed: Sendable {
    /// The link as it was when last read.
    var link: NetlinkLink
    var quality = NetworkPath.LinkQuality.unknown
    /// The sequence number of the station dump under way, if one is.
    var asking: UInt32?
    /// The first station's rating in the dump under way.
    var answer: NetworkPath.LinkQuality?
    /// The stations must be read (again) once nl80211's id is known and no dump is under way.
    var needsReading = true
  }

  /// The family's name to ask for (``NL80211/familyName``; another in tests of the socket against a kernel
  /// without nl80211).
  package let familyName: String
  /// The multicast group to join (``NL80211/mlmeGroupName``).
  package let groupName: String
  /// What is known of the family.
  package private(set) var family = Family.unknown
  private var links: [Int32: Followed] = [:]
  /// The station dumps under way: their sequence numbers and the links they read.
  private var dumps: [UInt32: Int32] = [:]
  private var nextSequence: UInt32 = 1

  /// A tracker of nothing yet, which asks for `familyName` and joins its `groupName`.
  package init(familyName: String = NL80211.familyName, groupName: String = NL80211.mlmeGroupName) {
    self.familyName = familyName
    self.groupName = groupName
  }

  /// The family's id, for ``GenericNetlinkDecoder/decode(_:nl80211Family:)``, once known.
  package var familyID: UInt16? {
    if case .resolved(let id) = family { id } else { nil }
  }

  /// Whether requests are under way: the caller reads their answers.
  package var isAwaitingAnswers: Bool {
    if case .resolving = family { return true }
    return !dumps.isEmpty
  }

  /// The quality of each followed link rated other than ``NetworkPath/LinkQuality/unknown``, by interface index.
  package var qualities: [Int32: NetworkPath.LinkQuality] {
    var qualities: [Int32: NetworkPath.LinkQuality] = [:]
    for (index, followed) in links where followed.quality != .unknown { qualities[index] = followed.quality }
    return qualities
  }

  /// Follows the Wi-Fi links there are now, by index: a new link, or one that changed (its carrier, its state, its
  /// address), has its stations read; a link no longer there is forgotten.
  ///
  /// - Returns: What to do, and whether ``qualities`` changed.
  package mutating func follow(_ wifiLinks: [Int32: NetlinkLink]) -> (actions: [Action], changed: Bool) {
    let before = qualities
    var actions: [Action] = []
    for index in links.keys where wifiLinks[index] == nil {
      if let asking = links[index]?.asking { dumps[asking] = nil }
      links[index] = nil
    }
    for (index, link) in wifiLinks {
      guard let followed = links[index] else {
        links[index] = Followed(link: link)
        // A new Wi-Fi link's driver registered cfg80211 before it, so nl80211 is worth asking for again.
        if case .missing = family { family = .unknown }
        continue
      }
      if followed.link != link {
        links[index]?.link = link
        links[index]?.needsReading = true
      }
    }
    if links.isEmpty, family != .unknown {
      if case .missing = family {} else { actions.append(.close) }
      family = .unknown
      dumps.removeAll()
    }
    actions += requests()
    return (actions, qualities != before)
  }

  /// Takes the messages of one datagram of the socket.
  ///
  /// - Returns: What to do, and whether ``qualities`` changed.
  package mutating func receive(_ messages: [GenericNetlinkMessage]) -> (actions: [Action], changed: Bool) {
    let before = qualities
    var actions: [Action] = []
    for message in messages {
      switch message.event {
      case .family(let described):
        guard case .resolving(let sequence) = family, message.sequence == sequence, described.name == familyName
        else { continue }
        family = .resolved(id: described.id)
        if let group = described.multicastGroupID(named: groupName) { actions.append(.join(group: group)) }
        for index in links.keys { links[index]?.needsReading = true }
      case .error(let errno):
        if case .resolving(let sequence) = family, message.sequence == sequence {
          // 0 acknowledges a request that asked for it (ours do not); anything else means no family.
          guard errno != 0 else { continue }
          family = .missing(errno: errno)
          dumps.removeAll()
          actions.append(.close)
        } else {
          finishDump(message.sequence)
        }
      case .station(let station):
        guard let index = dumps[message.sequence], station.interfaceIndex == index else { continue }
        // A client's interface has one station, its access point: the first answer rates the link.
        if links[index]?.answer == nil { links[index]?.answer = LinkQualityRules.wifi(station: station) }
      case .done:
        finishDump(message.sequence)
      case .wireless(let event):
        // Connected, roamed, disconnected: the access point, or whether there is one, changed.
        if let index = event.interfaceIndex, links[index] != nil { links[index]?.needsReading = true }
      case .overrun:
        actions += lostMessages()
      case .ignored:
        break
      }
    }
    actions += requests()
    return (actions, qualities != before)
  }

  /// Messages were lost (the socket's receive buffer overflowed, or a datagram could not be read): the family is
  /// asked for again if its answer may be among them, every link's stations are read again, and dumps under way,
  /// whose end may be lost, start over.
  ///
  /// - Returns: What to send now.
  package mutating func lostMessages() -> [Action] {
    if case .resolving = family { family = .unknown }
    dumps.removeAll()
    for index in links.keys {
      links[index]?.asking = nil
      links[index]?.answer = nil
      links[index]?.needsReading = true
    }
    return requests()
  }

  /// The socket failed (`sendto`, joining, or opening it): the tracker forgets what is under way, rates every link
  /// ``NetworkPath/LinkQuality/unknown`` (a rating nothing updates would go stale unseen) and treats the family as
  /// missing with `errno`, until a new Wi-Fi link appears.
  package mutating func failed(errno: Int32) {
    family = .missing(errno: errno)
    dumps.removeAll()
    for index in links.keys {
      links[index]?.asking = nil
      links[index]?.answer = nil
      links[index]?.quality = .unknown
    }
  }

  /// Ends the station dump with sequence number `sequence`, if it is one of ours: the link takes the first
  /// station's rating, or ``NetworkPath/LinkQuality/unknown`` when the dump had none (not connected) or failed.
  private mutating func finishDump(_ sequence: UInt32) {
    guard let index = dumps.removeValue(forKey: sequence), var followed = links[index] else { return }
    followed.quality = followed.answer ?? .unknown
    followed.answer = nil
    followed.asking = nil
    links[index] = followed
  }

  /// The requests to send now: the family's when it is not known, or the station dumps of the links that need one
  /// and have none under way.
  private mutating func requests() -> [Action] {
    switch family {
    case .unknown:
      guard !links.isEmpty else { return [] }
      let sequence = takeSequence()
      family = .resolving(sequence: sequence)
      return [.send(GenericNetlinkFamilyRequest(name: familyName).bytes(sequence: sequence))]
    case .resolving, .missing:
      return []
    case .resolved(let id):
      var actions: [Action] = []
      for index in links.keys.sorted() {
        guard let followed = links[index], followed.needsReading, followed.asking == nil else { continue }
        let sequence = takeSequence()
        dumps[sequence] = index
        links[index]?.asking = sequence
        links[index]?.needsReading = false
        actions.append(.send(NL80211StationRequest(interfaceIndex: index).bytes(family: id, sequence: sequence)))
      }
      return actions
    }
  }

  /// A new sequence number, never 0 (the number multicast events carry).
  private mutating func takeSequence() -> UInt32 {
    let sequence = nextSequence
    nextSequence = nextSequence == .max ? 1 : nextSequence + 1
    return sequence
  }
}
