import Testing

@testable import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// errno names come from the platform's own numbers: Linux and Darwin agree only on the first 34.
@Suite("errno names")
struct SystemErrnoTests {
  @Test func theNamedValuesAreThePlatformsOwn() {
    #expect(SystemErrno.ENOBUFS == ENOBUFS)
    #expect(SystemErrno.ETIMEDOUT == ETIMEDOUT)
    #expect(SystemErrno.EHOSTUNREACH == EHOSTUNREACH)
    #expect(SystemErrno.EAFNOSUPPORT == EAFNOSUPPORT)
  }

  @Test(arguments: [
    (ENOBUFS, "ENOBUFS"), (ECONNREFUSED, "ECONNREFUSED"), (EOPNOTSUPP, "EOPNOTSUPP"), (EPERM, "EPERM"),
    (EHOSTDOWN, "EHOSTDOWN"), (EDQUOT, "EDQUOT"),
  ])
  func describesByName(_ code: Int32, _ name: String) {
    #expect(SystemErrno.describe(code).hasPrefix(name + " ("), "\(SystemErrno.describe(code))")
  }

  #if os(Linux)
    /// Every error names its errno: those no code matches by name too.
    @Test(arguments: [
      (EISDIR, "EISDIR"), (ELOOP, "ELOOP"), (EROFS, "EROFS"), (ENAMETOOLONG, "ENAMETOOLONG"), (EXDEV, "EXDEV"),
      (EEXIST, "EEXIST"), (ESTALE, "ESTALE"), (EHWPOISON, "EHWPOISON"), (EAGAIN, "EAGAIN"),
    ])
    func describesEveryLinuxErrnoByName(_ code: Int32, _ name: String) {
      #expect(SystemErrno.describe(code) == "\(name) (\(String(cString: strerror(code))))")
    }

    @Test func everyNumberUpToTheLastHasAName() {
      let unnamed = (1...EHWPOISON).filter { SystemErrno.name($0) == nil }
      // Linux leaves 41 and 58 unused (EWOULDBLOCK and EDEADLOCK were meant there).
      #expect(unnamed == [41, 58], "\(unnamed)")
    }
  #endif

  @Test func anUnknownNumberIsShownAsANumber() {
    #expect(SystemErrno.describe(4_000).hasPrefix("errno 4000"))
  }
}
