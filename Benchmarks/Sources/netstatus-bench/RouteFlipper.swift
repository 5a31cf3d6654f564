import CNetStatusShim
import Glibc
import Synchronization

/// Removes and adds a namespace's IPv4 default route with its own rtnetlink requests, and says when each
/// change happened.
///
/// The kernel handles a request inside `sendmsg`: it changes the route, queues the notification to every
/// listener and queues our acknowledgement before the call returns. So the time taken right after `sendto`
/// returns (with the acknowledgement already waiting) is the closest this process can get to the change.
final class RouteFlipper: Sendable {
  private let fd: Int32
  private let interfaceIndex: UInt32
  private let gateway: [UInt8]
  private let sequence = Atomic<UInt32>(0)

  /// Opens a NETLINK_ROUTE socket inside `namespace`, for a default route via `gateway` (IPv4) on `interface`.
  init(namespace: BenchNamespace, interface: String, gateway: String) throws {
    var address = in_addr()
    guard inet_pton(AF_INET, gateway, &address) == 1 else { throw BenchError("not an IPv4 address: \(gateway)") }
    self.gateway = withUnsafeBytes(of: address.s_addr) { Array($0) }
    (fd, interfaceIndex) = try namespace.onThreadInside { () throws -> (Int32, UInt32) in
      let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
      guard fd >= 0 else { throw BenchError("socket(NETLINK_ROUTE): \(String(cString: strerror(errno)))") }
      let index = if_nametoindex(interface)
      guard index != 0 else {
        close(fd)
        throw BenchError("no interface \(interface) in \(namespace.name)")
      }
      return (fd, index)
    }
  }

  deinit { close(fd) }

  /// Adds (`present`) or removes the default route. Returns the time `sendto` returned; throws if the kernel
  /// refused the change.
  @discardableResult
  func setDefaultRoute(present: Bool) throws -> Int64 {
    let number = sequence.add(1, ordering: .relaxed).newValue
    var message: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { message.append(contentsOf: $0) } }
    func attribute(_ type: UInt16, _ value: [UInt8]) {
      append(UInt16(4 + value.count))
      append(type)
      message += value
    }
    let request: UInt16 = 0x1 | 0x4  // NLM_F_REQUEST | NLM_F_ACK
    append(UInt32(0))  // length, set below
    append(UInt16(present ? 24 : 25))  // RTM_NEWROUTE / RTM_DELROUTE
    append(present ? request | 0x400 | 0x200 : request)  // + NLM_F_CREATE | NLM_F_EXCL
    append(number)
    append(UInt32(0))
    // struct rtmsg: family, dst_len, src_len, tos, table (main), protocol (boot / any), scope (universe /
    // nowhere, as ip route del uses), type (unicast), flags.
    message += [UInt8(AF_INET), 0, 0, 0, 254, present ? 3 : 0, present ? 0 : 255, 1]
    append(UInt32(0))
    attribute(5, gateway)  // RTA_GATEWAY
    attribute(4, withUnsafeBytes(of: interfaceIndex) { Array($0) })  // RTA_OIF
    let length = UInt32(message.count)
    withUnsafeBytes(of: length) { message.replaceSubrange(0..<4, with: $0) }

    var kernel = sockaddr_nl()
    kernel.nl_family = sa_family_t(AF_NETLINK)
    let sent = withUnsafePointer(to: &kernel) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        message.withUnsafeBytes {
          sendto(fd, $0.baseAddress, $0.count, 0, address, socklen_t(MemoryLayout<sockaddr_nl>.size))
        }
      }
    }
    let changedAt = Monotonic.now()
    guard sent == message.count else { throw BenchError("sendto(rtnetlink): \(String(cString: strerror(errno)))") }
    var reply = [UInt8](repeating: 0, count: 4096)
    let received = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard received >= 20 else { throw BenchError("no acknowledgement from rtnetlink") }
    let (type, code) = reply.withUnsafeBytes {
      ($0.loadUnaligned(fromByteOffset: 4, as: UInt16.self), $0.loadUnaligned(fromByteOffset: 16, as: Int32.self))
    }
    guard type == 2, code == 0 else {
      throw BenchError("rtnetlink refused the \(present ? "addition" : "removal"): \(String(cString: strerror(-code)))")
    }
    return changedAt
  }
}
