import Testing

@testable import NetStatusMonitor

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Errno`: the one errno type, public in `NetworkMonitorError`. Names come from the platform's own numbers: Linux and
/// Darwin agree only on the first 34.
@Suite("errno names")
struct ErrnoTests {
  @Test func theNamedValuesAreThePlatformsOwn() {
    #expect(Errno.noBufferSpace.rawValue == ENOBUFS)
    #expect(Errno.timedOut.rawValue == ETIMEDOUT)
    #expect(Errno.noRouteToHost.rawValue == EHOSTUNREACH)
    #expect(Errno.addressFamilyNotSupported.rawValue == EAFNOSUPPORT)
  }

  @Test(arguments: [
    (ENOBUFS, "ENOBUFS"), (ECONNREFUSED, "ECONNREFUSED"), (EOPNOTSUPP, "EOPNOTSUPP"), (EPERM, "EPERM"),
    (EHOSTDOWN, "EHOSTDOWN"), (EDQUOT, "EDQUOT"),
  ])
  func describesByName(_ code: Int32, _ name: String) {
    #expect(Errno.describe(code).hasPrefix(name + " ("), "\(Errno.describe(code))")
  }

  #if os(Linux)
    /// Every error names its errno: those no code matches by name too.
    @Test(arguments: [
      (EISDIR, "EISDIR"), (ELOOP, "ELOOP"), (EROFS, "EROFS"), (ENAMETOOLONG, "ENAMETOOLONG"), (EXDEV, "EXDEV"),
      (EEXIST, "EEXIST"), (ESTALE, "ESTALE"), (EHWPOISON, "EHWPOISON"), (EAGAIN, "EAGAIN"),
    ])
    func describesEveryLinuxErrnoByName(_ code: Int32, _ name: String) {
      #expect(Errno.describe(code) == "\(name) (\(String(cString: strerror(code))))")
    }

    @Test func everyNumberUpToTheLastHasAName() {
      let unnamed = (1...EHWPOISON).filter { Errno(rawValue: $0).name == nil }
      // Linux leaves 41 and 58 unused (EWOULDBLOCK and EDEADLOCK were meant there).
      #expect(unnamed == [41, 58], "\(unnamed)")
    }
  #endif

  @Test func aMonitorErrorCarriesTheErrnoByNumberAndName() throws {
    let error = NetworkMonitorError.namespaceNotEnterable(path: "/run/netns/blue", errno: Errno(rawValue: EPERM))
    guard case .namespaceNotEnterable(_, let errno) = error else {
      Issue.record("the case")
      return
    }
    #expect(errno.rawValue == EPERM && errno.name == "EPERM")
    #expect(error.description.contains("EPERM (\(String(cString: strerror(EPERM))))"), "\(error)")
    #expect(Errno(rawValue: 4_000).name == nil)
  }

  @Test func anUnknownNumberIsShownAsANumber() {
    #expect(Errno.describe(4_000).hasPrefix("errno 4000"))
  }
}
