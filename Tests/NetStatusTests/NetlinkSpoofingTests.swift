#if os(Linux)
  import CNetStatusShim
  import Foundation
  import Synchronization
  import Testing

  @testable import NetStatus

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
            guard fd >= 0 else { throw NetworkMonitorError.systemCall(call: "socket", errno: errno) }
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
              throw NetworkMonitorError.systemCall(call: "bind", errno: errno)
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
      guard sent >= 0 else { throw NetworkMonitorError.systemCall(call: "sendto(port \(port))", errno: errno) }
      return sent
    }
  }

  /// A forged rtnetlink message from another userspace socket must change nothing: only the kernel (port 0)
  /// is believed (DESIGN.md, "Linux rules").
  @Suite(
    "spoofed rtnetlink messages are ignored",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NetlinkSpoofingTests {
    @Test("a forged RTM_NEWROUTE default route, unicast to the monitor's port and multicast to its group")
    func forgedDefaultRoute() async throws {
      let lab = try VethLab("spoof")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      let index = Int32(try lab.watched.ip("-o link show veth0").split(separator: ":")[0])!
      var options = NetlinkPathSource.Options()
      options.recordsKernelState = true
      let (source, session, recorder) = try lab.start(options: options)
      defer { session.stop() }
      #expect(recorder.latest?.status == .unsatisfied, "no default route yet")
      let port = try #require(source.portID)
      #expect(port != 0)

      // A usable default route through veth0 (up, with carrier), with a better metric than the real one below:
      // believed, it would make the path satisfied via 192.0.2.99.
      let forged = NetlinkMessageBuilder.route(priority: 10, oif: index, gateway: "192.0.2.99")
      let spoofer = try NetlinkSpoofer(in: lab.watched)
      #expect(spoofer.portID != 0 && spoofer.portID != port)
      #expect(try spoofer.send(forged, toPort: port) == forged.count)
      #expect(try spoofer.send(forged, toPort: 0, groups: RTNL.RTMGRP_IPV4_ROUTE) == forged.count)

      // A real change after the forged ones: the socket delivers in order, so once the path shows it, the
      // forged datagrams have been read (and dropped).
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0 metric 100")
      let path = await recorder.awaitPath("the real default route") { $0.isConnected }
      #expect(path?.gateways == ["192.0.2.1"], "only the kernel's route counts")
      #expect(recorder.paths.allSatisfy { !$0.gateways.contains("192.0.2.99") })
      #expect(source.statistics.foreignDatagrams == 2, "the unicast and the multicast forgery were counted")
      #expect(source.statistics.decodeErrors == 0 && source.statistics.resyncs == 0)

      // Believed, the forgery would have changed the path: apply it to the state the source holds.
      var believed = try #require(source.recordedKernelState)
      believed.apply(try NetlinkMessageDecoder.decode(forged))
      let wouldBe = PathEvaluator.evaluate(state: believed, supportsDNS: false) { _ in .other }
      #expect(wouldBe.gateways == ["192.0.2.99", "192.0.2.1"])
    }
  }
#endif
