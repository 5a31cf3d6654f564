import CNetStatusShim
import Dispatch
import Foundation
import Glibc

/// What one route lookup costs: the RTM_GETROUTE request for 8.8.8.8 that NetStatus sends after every change
/// that may move the default path (Sources/NetStatusNetlink/RouteLookup.swift), sent and answered on a
/// netlink socket in a loop (two system calls and the kernel's lookup per request), in a namespace with a veth
/// and a default route. The figure explains part of the latency row of `netstatus watch` (README,
/// "Benchmarks"); it has no target.
struct LookupCostBenchmark {
  /// One request kind's cost.
  struct Result: Codable, Sendable {
    /// The request.
    var request: String
    /// Requests sent and answered.
    var count: Int
    /// `sendto` + `recv` of the answer, per request, in nanoseconds (the median of 5 runs of `count / 5`).
    var nanosecondsPerRequest: Double
  }

  static func run(count: Int) throws -> [Result] {
    let (watched, peer) = try BenchNamespace.vethPair("lookup")
    defer {
      watched.delete()
      peer.delete()
    }
    return try watched.onThreadInside {
      let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
      guard fd >= 0 else { throw BenchError("socket(AF_NETLINK): \(String(cString: strerror(errno)))") }
      defer { close(fd) }
      return [
        try measure(fd: fd, "RTM_GETROUTE 8.8.8.8 (the primary IPv4 lookup)", count: count, request: routeRequest)
      ]
    }
  }

  /// Sends `request(sequence)` and reads its answer `count` times, in 5 runs; the median run's time per request.
  private static func measure(fd: Int32, _ name: String, count: Int, request: (UInt32) -> [UInt8]) throws -> Result {
    var answer = [UInt8](repeating: 0, count: 8192)
    let perRun = max(1, count / 5)
    var runs: [Double] = []
    var sequence: UInt32 = 0
    for _ in 0..<5 {
      let requests = (0..<perRun).map { _ -> [UInt8] in
        sequence += 1
        return request(sequence)
      }
      let started = DispatchTime.now().uptimeNanoseconds
      for bytes in requests {
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw BenchError("send: \(String(cString: strerror(errno)))") }
        let received = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard received > 0 else { throw BenchError("recv: \(String(cString: strerror(errno)))") }
      }
      runs.append(Double(DispatchTime.now().uptimeNanoseconds - started) / Double(perRun))
    }
    return Result(request: name, count: perRun * 5, nanosecondsPerRequest: runs.sorted()[2])
  }

  /// nlmsghdr (RTM_GETROUTE, NLM_F_REQUEST) + rtmsg (AF_INET, /32) + RTA_DST 8.8.8.8: what `ip route get 8.8.8.8`
  /// sends, and NetStatus's primary IPv4 lookup.
  private static func routeRequest(_ sequence: UInt32) -> [UInt8] {
    var bytes = header(length: 16 + 12 + 8, type: 26, sequence: sequence)
    bytes += [UInt8(AF_INET), 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [8, 0, 1, 0, 8, 8, 8, 8]  // rtattr { len 8, RTA_DST }
    return bytes
  }

  private static func header(length: Int, type: UInt16, sequence: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
    append(UInt32(length))
    append(type)
    append(UInt16(1))  // NLM_F_REQUEST
    append(sequence)
    append(UInt32(0))
    return bytes
  }
}
