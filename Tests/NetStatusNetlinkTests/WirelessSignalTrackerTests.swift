import NetStatusPathModel
import NetlinkTestSupport
import Testing

@testable import NetStatusNetlink

/// ``WirelessSignalTracker`` fed the datagrams of ``CapturedNL80211``: nl80211's family resolved (sequence 1), wlan0
/// (index 3) dumped (sequence 2), its events, and a kernel without nl80211.
@Suite("Wi-Fi signal tracker")
struct WirelessSignalTrackerTests {
  static let wlan0: Int32 = 3

  static func link(_ index: Int32 = wlan0, up: Bool = true) -> NetlinkLink {
    NetlinkLink(
      index: index, name: "wlan\(index - 3)", hardwareType: 1, flags: up ? 0x10043 : 0x1003,
      operationalState: up ? RTNL.IF_OPER_UP : RTNL.IF_OPER_DORMANT, kind: nil,
      hardwareAddress: [0x02, 0, 0, 0, 0, UInt8(index)])
  }

  /// The messages of `bytes`, decoded as the tracker's caller decodes them.
  static func messages(_ bytes: [UInt8], _ tracker: WirelessSignalTracker) throws -> [GenericNetlinkMessage] {
    try GenericNetlinkDecoder.decode(bytes, nl80211Family: tracker.familyID)
  }

  /// `bytes` with every message's `nlmsg_seq` set to `sequence`.
  static func resequenced(_ bytes: [UInt8], _ sequence: UInt32) -> [UInt8] {
    var bytes = bytes
    var offset = 0
    while offset + 16 <= bytes.count {
      let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
      for byte in 0..<4 { bytes[offset + 8 + byte] = UInt8(truncatingIfNeeded: sequence >> (8 * UInt32(byte))) }
      offset += (length + 3) & ~3
    }
    return bytes
  }

  /// A tracker following wlan0, nl80211 resolved (group 7, "mlme", joined) and wlan0's first dump answered.
  static func connected() throws -> WirelessSignalTracker {
    var tracker = WirelessSignalTracker()
    _ = tracker.follow([wlan0: link()])
    _ = tracker.receive(try messages(CapturedNL80211.controllerFamily, tracker))
    _ = tracker.receive(try messages(CapturedNL80211.stationDump, tracker))
    return tracker
  }

  @Test("nothing is asked, and no socket opened, while there is no Wi-Fi link")
  func noWiFi() {
    var tracker = WirelessSignalTracker()
    let (actions, changed) = tracker.follow([:])
    #expect(actions.isEmpty)
    #expect(!changed)
    #expect(tracker.family == .unknown)
  }

  @Test("a Wi-Fi link asks for nl80211, joins mlme, then dumps the link's stations and rates its access point")
  func resolvesAndRates() throws {
    var tracker = WirelessSignalTracker()
    let first = tracker.follow([Self.wlan0: Self.link()])
    #expect(first.actions == [.send(GenericNetlinkFamilyRequest(name: "nl80211").bytes(sequence: 1))])
    #expect(tracker.family == .resolving(sequence: 1))
    #expect(tracker.isAwaitingAnswers)

    let resolved = tracker.receive(try Self.messages(CapturedNL80211.controllerFamily, tracker))
    #expect(tracker.family == .resolved(id: CapturedNL80211.family))
    #expect(
      resolved.actions == [
        .join(group: 7),
        .send(NL80211StationRequest(interfaceIndex: Self.wlan0).bytes(family: CapturedNL80211.family, sequence: 2)),
      ])
    #expect(!resolved.changed)

    let answered = tracker.receive(try Self.messages(CapturedNL80211.stationDump, tracker))
    // -54 dBm on average (the last frame's -52 is not what rates it): good.
    #expect(answered.changed)
    #expect(answered.actions.isEmpty)
    #expect(tracker.qualities == [Self.wlan0: .good])
    #expect(!tracker.isAwaitingAnswers)
  }

  @Test("the rating waits for the dump's end, and a station of another link or dump is not taken")
  func waitsForDone() throws {
    var tracker = WirelessSignalTracker()
    _ = tracker.follow([Self.wlan0: Self.link()])
    _ = tracker.receive(try Self.messages(CapturedNL80211.controllerFamily, tracker))
    let messages = try Self.messages(CapturedNL80211.stationDump, tracker)
    try #require(messages.count == 2)
    #expect(!tracker.receive([messages[0]]).changed)
    #expect(tracker.qualities.isEmpty)
    #expect(tracker.receive([messages[1]]).changed)
    #expect(tracker.qualities == [Self.wlan0: .good])

    // The same answer under a sequence number of no dump of ours changes nothing.
    var other = try Self.connected()
    _ = other.follow([Self.wlan0: Self.link(up: false)])
    let stranger = other.receive(try Self.messages(Self.resequenced(CapturedNL80211.stationDump, 99), other))
    #expect(!stranger.changed)
    #expect(other.isAwaitingAnswers)
  }

  @Test("a link that changes, or an mlme event naming it, has its stations read again; others are ignored")
  func readsAgain() throws {
    var tracker = try Self.connected()
    let request = { (sequence: UInt32) in
      WirelessSignalTracker.Action.send(
        NL80211StationRequest(interfaceIndex: Self.wlan0).bytes(family: CapturedNL80211.family, sequence: sequence))
    }
    #expect(tracker.follow([Self.wlan0: Self.link()]).actions.isEmpty, "an unchanged link is not read again")
    #expect(tracker.follow([Self.wlan0: Self.link(up: false)]).actions == [request(3)])
    // Disconnected: the dump has no station, and the link reads unknown.
    let empty = tracker.receive(
      try Self.messages(Self.resequenced(Array(CapturedNL80211.stationDump[144...]), 3), tracker))
    #expect(empty.changed)
    #expect(tracker.qualities.isEmpty)

    for event in [CapturedNL80211.connect, CapturedNL80211.roam, CapturedNL80211.disconnect] {
      let sequence: UInt32 = event == CapturedNL80211.connect ? 4 : event == CapturedNL80211.roam ? 5 : 6
      #expect(tracker.receive(try Self.messages(event, tracker)).actions == [request(sequence)])
      _ = tracker.receive(try Self.messages(Self.resequenced(CapturedNL80211.stationDump, sequence), tracker))
      #expect(tracker.qualities == [Self.wlan0: .good])
    }
    // An event of an interface the session does not have asks nothing.
    var elsewhere = try Self.connected()
    _ = elsewhere.follow([4: Self.link(4)])
    _ = elsewhere.receive(try Self.messages(Self.resequenced(CapturedNL80211.stationDump, 3), elsewhere))
    _ = elsewhere.follow([4: Self.link(4)])
    #expect(elsewhere.receive(try Self.messages(CapturedNL80211.connect, elsewhere)).actions.isEmpty)
  }

  @Test("a change during a dump reads the link again once the dump ends, not before")
  func changeDuringDump() throws {
    var tracker = WirelessSignalTracker()
    _ = tracker.follow([Self.wlan0: Self.link()])
    _ = tracker.receive(try Self.messages(CapturedNL80211.controllerFamily, tracker))
    #expect(tracker.receive(try Self.messages(CapturedNL80211.connect, tracker)).actions.isEmpty)
    let ended = tracker.receive(try Self.messages(CapturedNL80211.stationDump, tracker))
    #expect(
      ended.actions == [
        .send(NL80211StationRequest(interfaceIndex: Self.wlan0).bytes(family: CapturedNL80211.family, sequence: 3))
      ])
  }

  @Test("a failed dump (the interface is gone) rates the link unknown")
  func failedDump() throws {
    var tracker = try Self.connected()
    _ = tracker.follow([Self.wlan0: Self.link(up: false)])
    let error = NetlinkMessageBuilder.message(type: RTNL.NLMSG_ERROR, sequence: 3, body: [0xed, 0xff, 0xff, 0xff])
    let result = tracker.receive(try Self.messages(error, tracker))
    #expect(result.changed)
    #expect(tracker.qualities.isEmpty)
    #expect(!tracker.isAwaitingAnswers)
  }

  @Test("without nl80211 the socket closes, and a new Wi-Fi link asks again")
  func familyMissing() throws {
    var tracker = WirelessSignalTracker()
    _ = tracker.follow([Self.wlan0: Self.link()])
    let missing = tracker.receive(try Self.messages(Self.resequenced(CapturedNL80211.familyNotFound, 1), tracker))
    #expect(missing.actions == [.close])
    #expect(tracker.family == .missing(errno: 2))
    #expect(!tracker.isAwaitingAnswers)
    #expect(tracker.follow([Self.wlan0: Self.link(up: false)]).actions.isEmpty, "a known link does not ask again")
    let again = tracker.follow([Self.wlan0: Self.link(), 4: Self.link(4)])
    #expect(again.actions == [.send(GenericNetlinkFamilyRequest(name: "nl80211").bytes(sequence: 2))])
  }

  @Test("the last Wi-Fi link gone closes the socket and forgets the rating")
  func lastLinkGone() throws {
    var tracker = try Self.connected()
    let gone = tracker.follow([:])
    #expect(gone.actions == [.close])
    #expect(gone.changed)
    #expect(tracker.family == .unknown)
    #expect(tracker.qualities.isEmpty)
    let back = tracker.follow([Self.wlan0: Self.link()])
    #expect(back.actions == [.send(GenericNetlinkFamilyRequest(name: "nl80211").bytes(sequence: 3))])
  }

  @Test("lost messages read every link again at once, and ask for a family whose answer they may have held")
  func lostMessages() throws {
    var tracker = try Self.connected()
    let request = { (sequence: UInt32) in
      WirelessSignalTracker.Action.send(
        NL80211StationRequest(interfaceIndex: Self.wlan0).bytes(family: CapturedNL80211.family, sequence: sequence))
    }
    #expect(tracker.lostMessages() == [request(3)], "read again now, not at the next event")
    #expect(tracker.isAwaitingAnswers)
    // An overrun during that dump: the dump starts over.
    let overrun = NetlinkMessageBuilder.message(type: RTNL.NLMSG_OVERRUN, sequence: 0, body: [])
    #expect(tracker.receive(try Self.messages(overrun, tracker)).actions == [request(4)])
    // The dump that was given up on ends late: it changes nothing; the new one rates the link.
    _ = tracker.receive(try Self.messages(Self.resequenced(Array(CapturedNL80211.stationDump[144...]), 3), tracker))
    #expect(tracker.qualities == [Self.wlan0: .good], "the old rating stands until the new dump ends")
    #expect(tracker.isAwaitingAnswers)

    var resolving = WirelessSignalTracker()
    _ = resolving.follow([Self.wlan0: Self.link()])
    #expect(
      resolving.lostMessages() == [.send(GenericNetlinkFamilyRequest(name: "nl80211").bytes(sequence: 2))],
      "the controller's answer may have been lost: ask again")
    // The first request's late answer is not taken for the second's.
    _ = resolving.receive(try Self.messages(CapturedNL80211.controllerFamily, resolving))
    #expect(resolving.family == .resolving(sequence: 2))
  }

  @Test("a socket failure rates every link unknown and gives up until a new link")
  func failure() throws {
    var tracker = try Self.connected()
    tracker.failed(errno: 105)
    #expect(tracker.family == .missing(errno: 105))
    #expect(tracker.qualities.isEmpty, "a rating nothing updates any more is not kept")
    #expect(!tracker.isAwaitingAnswers)
    #expect(tracker.follow([Self.wlan0: Self.link(up: false)]).actions.isEmpty)
    #expect(
      tracker.follow([Self.wlan0: Self.link(), 4: Self.link(4)]).actions == [
        .send(GenericNetlinkFamilyRequest(name: "nl80211").bytes(sequence: 3))
      ])
  }

  @Test("an answer for another family name, or another request, is not taken as nl80211's")
  func strangerFamily() throws {
    var tracker = WirelessSignalTracker(familyName: "nlctrl", groupName: "notify")
    _ = tracker.follow([Self.wlan0: Self.link()])
    let result = tracker.receive(try Self.messages(CapturedNL80211.controllerFamily, tracker))
    #expect(result.actions.isEmpty)
    #expect(tracker.family == .resolving(sequence: 1))
  }
}
