#if os(Linux)
  import Dispatch
  import Foundation
  // SOCK_STREAM and SOCK_CLOEXEC: compiled on its own (an incremental build), this file does not see them through
  // Glibc alone, and it does when a file of the same compile job imports the C shim, whose header includes
  // <sys/socket.h>. Imported here, so that it compiles alike in every build.
  import CNetStatusShim
  import Glibc
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusConnectivity
  import NetStatusSystem

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

    /// A server on loopback that reads the request and closes (a FIN): the transport says so with a case, not
    /// with a text the caller must match.
    @Test func aServerThatClosesWithoutAnsweringIsClosedByPeer() async throws {
      let server = try LoopbackServer { connection in
        LoopbackServer.readRequest(connection)
        close(connection)
      }
      let probe = try ConnectivityProbe(url: "http://127.0.0.1:\(server.port)/generate_204", timeout: .seconds(5))
      let exchange = try await withTimeout(.seconds(10), "the exchange") {
        await SocketProbeTransport(namespace: nil).exchange(probe, interface: nil)
      }
      #expect(exchange.result == .failed(.closedWithoutAnswer(.byPeer)), "\(exchange.result)")
      server.wait()
    }

    /// A server that resets the connection (SO_LINGER 0) once the request is in: a receive error, typed.
    @Test func aServerThatResetsTheConnectionIsClosedWhileReceiving() async throws {
      let server = try LoopbackServer { connection in
        LoopbackServer.readRequest(connection)
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(connection)
      }
      let probe = try ConnectivityProbe(url: "http://127.0.0.1:\(server.port)/generate_204", timeout: .seconds(5))
      let exchange = try await withTimeout(.seconds(10), "the exchange") {
        await SocketProbeTransport(namespace: nil).exchange(probe, interface: nil)
      }
      #expect(
        exchange.result == .failed(.closedWithoutAnswer(.whileReceiving(errno: ECONNRESET))), "\(exchange.result)")
      server.wait()
    }
  }

  /// A one-connection TCP server on 127.0.0.1 (an ephemeral port), served on a thread of its own by `serve`,
  /// which must close the connection. Nothing leaves the host's loopback.
  final class LoopbackServer: Sendable {
    let port: UInt16
    private let done = DispatchSemaphore(value: 0)

    init(serve: @escaping @Sendable (Int32) -> Void) throws {
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      try #require(listener >= 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
          bind(listener, address, length) == 0 && listen(listener, 1) == 0
            && getsockname(listener, address, &length) == 0
        }
      }
      guard bound else {
        close(listener)
        throw LoopbackServerError()
      }
      port = UInt16(bigEndian: address.sin_port)
      let done = done
      do {
        try POSIXThread.detach(name: "nstest-server") {
          let connection = accept(listener, nil, nil)
          close(listener)
          if connection >= 0 { serve(connection) }
          done.signal()
        }
      } catch {
        close(listener)
        throw error
      }
    }

    /// Waits (at most 10 s) for the connection to be served.
    func wait() {
      _ = done.wait(timeout: .now() + 10)
    }

    /// Reads until the end of the request's head (or the connection ends), at most 64 KiB.
    static func readRequest(_ connection: Int32) {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while received.count < 65536 {
        let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        received += buffer[..<count]
        if received.suffix(4) == [13, 10, 13, 10] { return }
      }
    }
  }

  struct LoopbackServerError: Error {}
#endif
