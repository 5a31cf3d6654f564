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

    /// Which families get a default route through the tunnel.
    struct Families: CustomTestStringConvertible, Sendable {
      var ipv4: Bool
      var ipv6: Bool
      var testDescription: String {
        "a tunnel with " + [ipv4 ? "IPv4" : nil, ipv6 ? "IPv6" : nil].compactMap { $0 }.joined(separator: " and ")
          + " default routes"
      }
    }

    @Test(
      "each family is judged by the kernel's lookup for it; wait --vpn passes only when none goes around the tunnel",
      arguments: [
        Families(ipv4: true, ipv6: false), Families(ipv4: false, ipv6: true), Families(ipv4: true, ipv6: true),
      ]
    )
    func perFamily(_ families: Families) async throws {
      let lab = try PathLab("vpnf", links: 1)
      defer { lab.delete() }
      // v0 dual stack, both default routes at metric 100; a held TUN device with both families' addresses, and a
      // default route at metric 10 for each family of `families`, as a VPN client that forgot IPv6 installs them.
      try lab.watched.batch([
        "addr add 192.0.2.10/24 dev v0", "addr add 2001:db8::10/64 dev v0 nodad",
        "route add default via 192.0.2.1 dev v0 metric 100", "route add ::/0 via 2001:db8::1 dev v0 metric 100",
        "tuntap add dev tun0 mode tun",
      ])
      let holder = try TunHolder(namespace: lab.watched.name, device: "tun0")
      defer { holder.release() }
      try lab.watched.batch(
        ["addr add 10.8.0.2/24 dev tun0", "addr add 2001:db8:8::2/64 dev tun0 nodad", "link set tun0 up"]
          + (families.ipv4 ? ["route add default dev tun0 metric 10"] : [])
          + (families.ipv6 ? ["route add ::/0 dev tun0 metric 10"] : []))
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      let seen = await recorder.awaitPath("both families, a VPN") {
        $0.isConnected && $0.supportsIPv4 && $0.supportsIPv6 && $0.vpn != nil
          && Set($0.availableInterfaces.map(\.name)) == ["tun0", "v0"]
      }
      let vpn = try #require(seen?.vpn)
      #expect(vpn.interface.name == "tun0")
      #expect(vpn.underlyingInterfaceType != nil, "v0 carries the default path too")

      // The kernel's own answer, family by family: `ip route get` to the destinations the monitor looks up.
      for (ipv4, destination) in [(true, "8.8.8.8"), (false, "2001:4860:4860::8888")] {
        let answer = try lab.watched.ip("\(ipv4 ? "-4" : "-6") route get \(destination)")
        let throughTunnel = answer.contains(" dev tun0 ")
        #expect(throughTunnel == (ipv4 ? families.ipv4 : families.ipv6), "the lab: \(answer)")
        #expect(
          (ipv4 ? vpn.isBypassedByIPv4 : vpn.isBypassedByIPv6) == !throughTunnel,
          "\(ipv4 ? "IPv4" : "IPv6"): the kernel says \(answer)")
      }

      // The binary: JSON, the table, and `wait --vpn` with and without a family.
      let show = try NetstatusProcess(["--json", "--netns", lab.watched.name])
      #expect(try await show.waitForExit() == .exited(0), "stderr: \(show.errorOutput)")
      #expect(try show.path(at: 0).vpn == vpn)
      let table = try NetstatusProcess(["--netns", lab.watched.name])
      #expect(try await table.waitForExit() == .exited(0))
      let row = table.lines.values.first { $0.hasPrefix("VPN") } ?? ""
      #expect(
        row.hasSuffix(families.ipv4 ? "IPv6 bypasses it" : "IPv4 bypasses it") == !(families.ipv4 && families.ipv6),
        "\(row)")
      for (options, met) in [
        ([], families.ipv4 && families.ipv6), (["-4"], families.ipv4), (["-6"], families.ipv6),
        (["-4", "-6"], families.ipv4 && families.ipv6),
      ] as [([String], Bool)] {
        let wait = try NetstatusProcess(
          ["wait", "--vpn", "--timeout", "0.5", "--quiet", "--netns", lab.watched.name] + options)
        #expect(try await wait.waitForExit() == .exited(met ? 0 : 1), "wait --vpn \(options): \(wait.errorOutput)")
      }
    }
  }
#endif
