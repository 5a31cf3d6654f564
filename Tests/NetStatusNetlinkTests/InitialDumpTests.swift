import NetStatusPathModel
import Testing

@testable import NetStatusNetlink

/// The initial-dump protocol as a pure state machine: every branch the event loop used to take through labelled
/// loops and flags, driven by hand.
@Suite("initial dump state machine")
struct InitialDumpTests {
  let port: UInt32 = 4242

  func device(_ index: Int32, _ name: String) -> NetlinkLink {
    NetlinkLink(
      index: index, name: name, hardwareType: RTNL.ARPHRD_ETHER, flags: RTNL.IFF_UP | RTNL.IFF_LOWER_UP,
      operationalState: RTNL.IF_OPER_UP, kind: nil, hardwareAddress: [2, 0, 0, 0, 0, 1])
  }

  func link(_ index: Int32, _ name: String) -> NetlinkEvent { .newLink(device(index, name)) }

  /// A reply to our request `sequence`.
  func reply(_ event: NetlinkEvent, _ sequence: UInt32, flags: UInt16 = RTNL.NLM_F_MULTI) -> NetlinkMessage {
    NetlinkMessage(type: 16, flags: flags, sequence: sequence, portID: port, event: event)
  }

  /// A notification: port 0, sequence 0.
  func notification(_ event: NetlinkEvent) -> NetlinkMessage {
    NetlinkMessage(type: 16, flags: 0, sequence: 0, portID: 0, event: event)
  }

  @Test func dumpsLinksThenAddressesAndCompletes() {
    var dump = InitialDump(sequence: 7, portID: port)
    #expect(dump.beginAttempt() == .send(.links, sequence: 8))
    #expect(dump.received(.messages([reply(link(1, "lo"), 8)])) == .receive, "no NLMSG_DONE yet")
    #expect(
      dump.received(.messages([reply(link(2, "eth0"), 8), reply(.done(errno: 0), 8)])) == .send(.addresses, sequence: 9)
    )
    guard case .complete(let state) = dump.received(.messages([reply(.done(errno: 0), 9)])) else {
      Issue.record("the address dump's end completes the rebuild")
      return
    }
    #expect(Set(state.links.keys) == [1, 2])
    #expect(dump.sequence == 9, "lookups continue from the last number")
  }

  @Test func notificationsBetweenPartsAreAppliedInOrderAndLateLookupAnswersIgnored() {
    var dump = InitialDump(sequence: 0, portID: port)
    _ = dump.beginAttempt()
    let eth0 = device(2, "eth0")
    let lateLookup = NetlinkMessage(type: 24, flags: 0, sequence: 99, portID: port, event: link(9, "late"))
    let step = dump.received(
      .messages([
        reply(link(2, "eth0"), 1), notification(.deletedLink(eth0)), notification(link(3, "veth0")), lateLookup,
        reply(.done(errno: 0), 1),
      ]))
    #expect(step == .send(.addresses, sequence: 2))
    guard case .complete(let state) = dump.received(.messages([reply(.done(errno: 0), 2)])) else {
      Issue.record("completes")
      return
    }
    #expect(
      Set(state.links.keys) == [3], "eth0 removed by the notification after it, veth0 added, the late answer ignored")
  }

  @Test func anInterruptedDumpIsReadToItsEndThenStartsOverOnTheSameSocket() {
    var dump = InitialDump(sequence: 0, portID: port)
    _ = dump.beginAttempt()
    let interrupted = reply(link(1, "lo"), 1, flags: RTNL.NLM_F_MULTI | RTNL.NLM_F_DUMP_INTR)
    #expect(dump.received(.messages([interrupted])) == .receive, "the dump is read to its end")
    #expect(
      dump.received(.messages([reply(.done(errno: 0), 1)]))
        == .restart(reason: "NLM_F_DUMP_INTR: the links changed during the dump", reopen: false))
    #expect(dump.interruptedDumps == 1)
    #expect(dump.beginAttempt() == .send(.links, sequence: 2), "a new attempt asks again, with a new number")
  }

  @Test(arguments: [
    (InitialDump.Received.timedOut, "no answer to the links dump request before its deadline"),
    (.overflow, "ENOBUFS during the links dump"),
    (.truncated, "a dump datagram larger than the receive buffer"),
  ])
  func lostRepliesStartOverOnANewSocket(_ received: InitialDump.Received, _ reason: String) {
    var dump = InitialDump(sequence: 0, portID: port)
    _ = dump.beginAttempt()
    #expect(dump.received(received) == .restart(reason: reason, reopen: true))
  }

  @Test func aReopenedSocketsRepliesAreRecognisedByItsNewPort() {
    var dump = InitialDump(sequence: 0, portID: port)
    _ = dump.beginAttempt()
    _ = dump.received(.overflow)
    dump.socketReopened(portID: 77)
    #expect(dump.beginAttempt() == .send(.links, sequence: 2))
    let done = NetlinkMessage(type: 3, flags: 0, sequence: 2, portID: 77, event: .done(errno: 0))
    #expect(dump.received(.messages([done])) == .send(.addresses, sequence: 3))
  }

  @Test func undecodableDataGivesUpAfterFiveAttempts() {
    var dump = InitialDump(sequence: 0, portID: port)
    for attempt in 1...4 {
      _ = dump.beginAttempt()
      guard
        case .restart(_, let reopen) = dump.received(
          .undecodable(NetlinkDecodeError(reason: .truncatedHeader, offset: 0)))
      else {
        Issue.record("attempt \(attempt) starts over")
        return
      }
      #expect(reopen)
    }
    _ = dump.beginAttempt()
    guard case .fail(let error) = dump.received(.undecodable(NetlinkDecodeError(reason: .truncatedHeader, offset: 0)))
    else {
      Issue.record("the fifth undecodable reply fails the source")
      return
    }
    #expect(error == .undecodable(NetlinkDecodeError(reason: .truncatedHeader, offset: 0)))
    #expect(dump.decodeErrors == 5)
  }

  @Test func aFatalRefusalFailsAtOnceAndOthersAfterTwenty() {
    var fatal = InitialDump(sequence: 0, portID: port)
    _ = fatal.beginAttempt()
    #expect(
      fatal.received(.messages([reply(.error(errno: 1), 1)]))
        == .fail(.refused(.links, errno: 1)), "EPERM")

    var busy = InitialDump(sequence: 0, portID: port)
    for _ in 1..<InitialDump.maximumConsecutiveRefusals {
      _ = busy.beginAttempt()
      guard case .restart(_, true) = busy.received(.messages([reply(.error(errno: 16), busy.sequence)])) else {
        Issue.record("EBUSY starts over on a new socket")
        return
      }
    }
    _ = busy.beginAttempt()
    #expect(
      busy.received(.messages([reply(.error(errno: 16), busy.sequence)]))
        == .fail(.refused(.links, errno: 16)))
  }

  @Test func enobufsAnsweringTheRequestIsNeverCountedAsARefusal() {
    var dump = InitialDump(sequence: 0, portID: port)
    for _ in 0..<(InitialDump.maximumConsecutiveRefusals * 2) {
      _ = dump.beginAttempt()
      guard case .restart(_, true) = dump.received(.messages([reply(.error(errno: 105), dump.sequence)])) else {
        Issue.record("ENOBUFS starts over, however often")
        return
      }
    }
  }

  @Test func aFailedDoneStartsOverWithoutANewSocket() {
    var dump = InitialDump(sequence: 0, portID: port)
    _ = dump.beginAttempt()
    #expect(
      dump.received(.messages([reply(.done(errno: 4), 1)]))
        == .restart(reason: "the links dump ended with errno 4", reopen: false))
  }

  @Test func runDrivesTheStepsWithTheCallersIO() throws {
    var dump = InitialDump(sequence: 0, portID: port)
    var sent: [(NetlinkDumpRequest, UInt32)] = []
    var restarts: [String] = []
    // Scripted receives: nothing yet, a lost reply (restart on a new socket, port 77), then both dumps.
    var script: [InitialDump.Received?] = [
      nil, .overflow,
      .messages([NetlinkMessage(type: 16, flags: 2, sequence: 2, portID: 77, event: link(2, "eth0"))]),
      .messages([NetlinkMessage(type: 3, flags: 0, sequence: 2, portID: 77, event: .done(errno: 0))]),
      .messages([NetlinkMessage(type: 3, flags: 0, sequence: 3, portID: 77, event: .done(errno: 0))]),
    ]
    let state = try dump.run(
      send: { request, sequence throws(InitialDump.Failure) in sent.append((request, sequence)) },
      receive: { () throws(InitialDump.Failure) -> InitialDump.Received? in script.removeFirst() },
      restart: { reason, reopen throws(InitialDump.Failure) -> UInt32? in
        restarts.append(reason)
        return reopen ? 77 : nil
      },
      failure: { $0 })
    #expect(sent.map(\.0) == [.links, .links, .addresses])
    #expect(sent.map(\.1) == [1, 2, 3])
    #expect(restarts == ["ENOBUFS during the links dump"])
    #expect(Set(state.links.keys) == [2], "the answer on the new socket's port counts")
    #expect(script.isEmpty)
  }
}
