#if os(Linux)
  import CNetStatusShim
  import Foundation
  import NetStatusLinuxTestSupport
  import Synchronization
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource

  @testable import NetStatusNetlink

  import NetlinkTestSupport

  /// A second userspace NETLINK_ROUTE socket in a test namespace, sending forged rtnetlink messages.
  struct NetlinkSpoofer: ~Copyable {
    let fd: Int32
    let portID: UInt32

    /// Opens the socket inside `namespace` (on a short-lived thread that enters it: a socket belongs to the
    /// namespace it was created in) and binds it, letting the kernel choose its port ID.
    init(in namespace: TestNamespace) throws {
      let handle = try NetworkNamespace(namespace.name).open()
      defer { close(handle.fd) }
      let opened = Mutex<Result<(Int32, UInt32), any Error>?>(nil)
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        opened.withLockedValue {
          $0 = Result { () throws -> (Int32, UInt32) in
            try NetworkNamespace.enter(handle, path: namespace.name)
            let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
            guard fd >= 0 else { throw NetworkMonitorError.systemCall(call: "socket", errno: Errno(rawValue: errno)) }
            var address = sockaddr_nl()
            address.nl_family = sa_family_t(AF_NETLINK)
            var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
              $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
              }
            }
            guard bound else {
              close(fd)
              throw NetworkMonitorError.systemCall(call: "bind", errno: Errno(rawValue: errno))
            }
            return (fd, address.nl_pid)
          }
        }
        done.signal()
      }
      thread.start()
      done.wait()
      (fd, portID) = try opened.withLockedValue { $0! }.get()
    }

    deinit { close(fd) }

    /// Sends `bytes` to a port (unicast) or, with `port` 0, to multicast `groups`. Returns the bytes sent.
    @discardableResult
    func send(_ bytes: [UInt8], toPort port: UInt32, groups: UInt32 = 0) throws -> Int {
      var address = sockaddr_nl()
      address.nl_family = sa_family_t(AF_NETLINK)
      address.nl_pid = port
      address.nl_groups = groups
      let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
          bytes.withUnsafeBytes {
            sendto(fd, $0.baseAddress, $0.count, 0, raw, socklen_t(MemoryLayout<sockaddr_nl>.size))
          }
        }
      }
      guard sent >= 0 else {
        throw NetworkMonitorError.systemCall(call: "sendto(port \(port))", errno: Errno(rawValue: errno))
      }
      return sent
    }
  }

  /// A forged rtnetlink message from another userspace socket must change nothing: only the kernel (port 0)
  /// is believed, on the subscribed socket and on the lookup socket alike.
  @Suite(
    "spoofed rtnetlink messages are ignored",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NetlinkSpoofingTests {
    @Test("a forged carrier loss (unicast and multicast) and forged lookup answers change nothing")
    func forgedMessages() async throws {
      let lab = try VethLab("spoof")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      let index = Int32(try lab.watched.ip("-o link show veth0").split(separator: ":")[0])!
      var options = NetlinkPathSource.Options()
      options.recordsKernelState = true
      let (source, session, recorder) = try lab.start(options: options)
      defer { session.stop() }
      #expect(recorder.latest?.gateways == ["192.0.2.1"])
      let port = try #require(source.testHooks.portID)
      let lookupPort = try #require(source.testHooks.lookupPortID)
      #expect(port != 0 && lookupPort == port, "lookups are asked on the subscribed socket")

      // veth0 without carrier: believed, the path would turn unsatisfied.
      let forgedLink = NetlinkMessageBuilder.link(index: index, name: "veth0", flags: RTNL.IFF_UP)
      // Answers to the next lookups (whatever their sequence numbers) through a gateway that does not exist.
      let forgedAnswers = (1...200).map { sequence in
        NetlinkMessageBuilder.route(
          destination: "8.8.8.8", destinationLength: 32, oif: index, gateway: "192.0.2.99",
          preferredSource: "192.0.2.10", sequence: UInt32(sequence), portID: lookupPort)
      }
      let spoofer = try NetlinkSpoofer(in: lab.watched)
      #expect(spoofer.portID != 0 && spoofer.portID != port && spoofer.portID != lookupPort)
      #expect(try spoofer.send(forgedLink, toPort: port) == forgedLink.count)
      #expect(try spoofer.send(forgedLink, toPort: 0, groups: RTNL.RTMGRP_LINK) == forgedLink.count)
      for answer in forgedAnswers { #expect(try spoofer.send(answer, toPort: lookupPort) == answer.count) }

      // A real change after the forged ones: the socket delivers in order, so once the path shows it, the
      // forged link messages have been read (and dropped), and the lookups that followed read past every
      // forged answer queued before the real ones.
      try lab.watched.ip("route replace default via 192.0.2.254 dev veth0 metric 100")
      let path = await recorder.awaitPath("the real default route") { $0.gateways == ["192.0.2.254"] }
      #expect(path?.availableInterfaces.map(\.name) == ["veth0"])
      #expect(recorder.paths.allSatisfy { $0.isConnected && !$0.gateways.contains("192.0.2.99") })
      #expect(source.statistics.foreignDatagrams == 202, "two forged link messages and 200 forged answers counted")
      #expect(source.statistics.decodeErrors == 0 && source.statistics.resyncs == 0)

      // Believed, the forged link message would have taken veth0's carrier away.
      var believed = try #require(source.testHooks.recordedKernelState)
      #expect(believed.links[index]?.isUsable == true)
      believed.apply(try NetlinkMessageDecoder.decode(forgedLink))
      #expect(believed.links[index]?.isUsable == false)
    }
  }
#endif
