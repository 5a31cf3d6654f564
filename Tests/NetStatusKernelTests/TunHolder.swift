#if os(Linux)
  import Glibc
  import NetStatusSystem
  import Synchronization

  /// A process's hold on a TUN device in a test namespace: `/dev/net/tun` opened in the namespace and attached to the
  /// device with TUNSETIFF. A TUN device has carrier only while a process holds it open, as a VPN client does; a
  /// device made with `ip tuntap add` (persistent) stays when released, without carrier.
  final class TunHolder: Sendable {
    /// `TUNSETIFF`: `_IOW('T', 202, int)`.
    static let TUNSETIFF: UInt = 0x4004_54ca
    static let IFF_TUN: Int16 = 0x0001
    static let IFF_NO_PI: Int16 = 0x1000

    /// The open `/dev/net/tun`.
    let fd: Int32

    /// Opens `/dev/net/tun` in the namespace `/run/netns/NAMESPACE` and attaches it to the TUN device `device` (made
    /// there with `ip tuntap add dev DEVICE mode tun`, whose flags are IFF_TUN and IFF_NO_PI), or makes one of that
    /// name. The device's network namespace is that of the process opening the file, so it is opened on a thread of
    /// its own that enters the namespace (only that thread) and then ends.
    init(namespace: String, device: String) throws {
      let handle = try NamespaceFile.open("/run/netns/\(namespace)")
      defer { SystemCall.close(handle.fd) }
      let outcome = Outcome()
      let thread = try POSIXThread.start(name: "nstest-tun") {
        outcome.result.withLockedValue {
          $0 = Result { () throws(Errno) -> Int32 in try Self.open(device, in: handle) }
        }
      }
      pthread_join(thread, nil)
      fd = try outcome.result.withLockedValue { $0 ?? .failure(Errno(rawValue: EINVAL)) }.get()
    }

    /// Enters the namespace and opens the device (on a thread that ends afterwards).
    private static func open(_ device: String, in handle: NamespaceFile.Handle) throws(Errno) -> Int32 {
      try NamespaceFile.enter(handle)
      let fd = try SystemCall.attempt { Glibc.open("/dev/net/tun", O_RDWR | O_CLOEXEC) }
      // struct ifreq: the name (IFNAMSIZ, 16 bytes), then the flags (a short), padded to 40 bytes.
      var request = [UInt8](repeating: 0, count: 40)
      for (offset, byte) in device.utf8.prefix(15).enumerated() { request[offset] = byte }
      withUnsafeBytes(of: IFF_TUN | IFF_NO_PI) { request.replaceSubrange(16..<18, with: $0) }
      let attached = request.withUnsafeMutableBytes { bytes in
        Result { () throws(Errno) in try SystemCall.attempt { ioctl(fd, TUNSETIFF, bytes.baseAddress!) } }
      }
      if case .failure(let error) = attached {
        SystemCall.close(fd)
        throw error
      }
      return fd
    }

    /// What the thread that opened the device found, read once it has ended.
    private final class Outcome: Sendable {
      let result = Mutex<Result<Int32, Errno>?>(nil)
    }

    /// Lets go of the device: it loses carrier (and, unless persistent, is deleted).
    func release() { SystemCall.close(fd) }
  }
#endif
