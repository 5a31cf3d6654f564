#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore

  /// `NetworkPath.vpn` against the kernel: a TUN device (what OpenVPN, wireguard-go and Tailscale make) over a veth,
  /// held open by this process as a VPN client holds it, through the library and the `netstatus` binary. The other
  /// tunnel kinds cannot be made on every machine: PathEvaluatorVPNTests covers them with decoded captures.
  @Suite(
    "VPN through a TUN device",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason),
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/net/tun"), "needs /dev/net/tun"))
  struct VPNKernelTests {
    @Test("a path through a held TUN device has a VPN over the veth; released, the TUN loses carrier and the VPN")
    func tunOverVeth() async throws {
      let lab = try PathLab("vpn", links: 1)
      defer { lab.delete() }
      // v0 with its default route; a persistent TUN device, as `openvpn --mktun` makes: up, but without carrier until
      // a process holds it.
      try lab.watched.batch([
        "addr add 192.0.2.10/24 dev v0", "route add default via 192.0.2.1 dev v0 metric 100",
        "tuntap add dev tun0 mode tun", "addr add 10.8.0.2/24 dev tun0", "link set tun0 up",
      ])
      #expect(try lab.watched.ip("link show tun0").contains("NO-CARRIER"))
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      await recorder.awaitPath("satisfied through v0 alone, no VPN") {
        $0.isConnected && $0.availableInterfaces.map(\.name) == ["v0"] && $0.vpn == nil
      }

      let holder = try TunHolder(namespace: lab.watched.name, device: "tun0")
      var released = false
      defer { if !released { holder.release() } }
      #expect(!(try lab.watched.ip("link show tun0").contains("NO-CARRIER")), "held: carrier")
      // OpenVPN's redirect-gateway def1: two halves of the address space through the tunnel, the default kept.
      try lab.watched.batch(["route add 0.0.0.0/1 dev tun0", "route add 128.0.0.0/1 dev tun0"])
      let throughTunnel = await recorder.awaitPath("through tun0, then v0") {
        $0.isConnected && $0.availableInterfaces.map(\.name) == ["tun0", "v0"]
      }
      let path = try #require(throughTunnel)
      let veth = try #require(path.availableInterfaces.last)
      #expect(path.interfaceType == .other, "a tunnel keeps NWPath's meaning")
      #expect(path.vpn == NetworkPath.VPN(interface: path.availableInterfaces[0], underlyingInterfaceType: veth.type))

      // The binary: JSON, and `wait --vpn`.
      let show = try NetstatusProcess(["--json", "--netns", lab.watched.name])
      #expect(try await show.waitForExit() == .exited(0), "stderr: \(show.errorOutput)")
      #expect(try show.path(at: 0).vpn == path.vpn)
      let wait = try NetstatusProcess(["wait", "--vpn", "--timeout", "10", "--quiet", "--netns", lab.watched.name])
      #expect(try await wait.waitForExit() == .exited(0), "stderr: \(wait.errorOutput)")

      // Released: no carrier; the kernel still routes through tun0, so nothing gets through.
      holder.release()
      released = true
      await recorder.awaitPath("unsatisfied once tun0 loses carrier") { $0.status == .unsatisfied && $0.vpn == nil }
      let noVPN = try NetstatusProcess(["wait", "--vpn", "--timeout", "0.5", "--quiet", "--netns", lab.watched.name])
      #expect(try await noVPN.waitForExit() == .exited(1))
      // The client gone, its routes go too: v0 again, without a VPN.
      try lab.watched.batch(["route del 0.0.0.0/1 dev tun0", "route del 128.0.0.0/1 dev tun0"])
      await recorder.awaitPath("v0 alone again, no VPN") {
        $0.isConnected && $0.availableInterfaces.map(\.name) == ["v0"] && $0.vpn == nil
      }
    }
  }
#endif
