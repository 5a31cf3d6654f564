#if os(Linux)
  import Dispatch
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// The Linux probe transport's bounds, with the host-name lookup replaced: no packet leaves the process.
  @Suite("SocketProbeTransport")
  struct SocketProbeTransportTests {
    static let url = "http://probe.nstest.invalid/generate_204"

    @Test func aHostNameLookupThatHangsEndsAsTimedOutWithinTheTimeout() async throws {
      let release = DispatchSemaphore(value: 0)
      defer { release.signal() }  // lets the probe's thread finish its lookup and end
      let lookups = Recorder<String>()
      let transport = SocketProbeTransport(namespace: nil) { host, _ in
        lookups.append(host)
        release.wait()  // a resolver that does not answer, as with an unreachable name server
        return .failure(.nameResolution(host: host, reason: "released by the test"))
      }
      let probe = try ConnectivityProbe(url: Self.url, timeout: .milliseconds(300))
      let clock = ContinuousClock()
      let started = clock.now
      let exchange = try await withTimeout(.seconds(5), "the exchange, bounded by the probe's timeout") {
        await transport.exchange(probe, interface: nil)
      }
      let elapsed = clock.now - started
      #expect(lookups.values == ["probe.nstest.invalid"])
      #expect(
        exchange.result
          == .failed(
            .resolverSilent(host: "probe.nstest.invalid", asked: "the system resolver", detail: "within 0.3 seconds")),
        "\(exchange.result)")
      // The resolver never answered: a "no answer" result within the 5 s above can only come from the deadline.
      #expect(elapsed >= .milliseconds(300))
    }

    @Test func aLookupThatFailsIsReportedAsSuchNotAsATimeout() async throws {
      let transport = SocketProbeTransport(namespace: nil) { host, _ in
        .failure(.nameResolution(host: host, reason: "no such host"))
      }
      let probe = try ConnectivityProbe(url: Self.url, timeout: .milliseconds(300))
      let exchange = try await withTimeout(.seconds(5), "the exchange") {
        await transport.exchange(probe, interface: nil)
      }
      #expect(exchange.result == .failed(.nameResolution(host: "probe.nstest.invalid", reason: "no such host")))
      #expect(
        ProbeFailure.nameResolution(host: "probe.nstest.invalid", reason: "no such host").description
          == "cannot resolve probe.nstest.invalid: no such host")
    }
  }
#endif
