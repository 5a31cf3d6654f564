import CNetStatusShim
import Glibc
import NetStatusSystem
import Testing

@testable import NetStatusCore
@testable import NetStatusLinuxSource

/// The system layer's owning descriptors (Sources/NetStatusSystem: `FileDescriptor`, `EventFD`) and the hub's
/// generation that owns its epoll set and wake eventfd with them: each is closed exactly once, and an eventfd
/// signals through `poll(2)` and `epoll_wait(2)` until it is drained.
@Suite("Owning file descriptors and eventfds")
struct FileDescriptorTests {
  /// Whether `fd` is an open descriptor of this process.
  private static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) >= 0 }

  /// Whether `fd` is closed: `fcntl` fails with EBADF.
  private static func isClosed(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) == -1 && errno == EBADF }

  /// A duplicate of `fd`, kept while a test checks that `fd` gets closed: the number may be given to another
  /// descriptor at once (tests run in parallel), so closed means free, or naming another file than the witness.
  private final class Witness {
    let number: Int32
    let duplicate: Int32

    init(_ number: Int32) throws {
      self.number = number
      duplicate = try SystemCall.attempt { fcntl(number, F_DUPFD_CLOEXEC, 0) }
    }

    deinit { Glibc.close(duplicate) }

    /// Whether `number` no longer names the witnessed file.
    var isClosed: Bool {
      if fcntl(number, F_GETFD) == -1 && errno == EBADF { return true }
      let compared = cns_same_open_file(number, duplicate)
      // EBADF here: the number named another test's descriptor at the check above, closed since (seen once).
      return compared > 0 || (compared < 0 && errno == EBADF)
    }
  }

  /// Whether `fd` is readable now (poll with no wait).
  private static func isReadable(_ fd: Int32) -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLIN) != 0
  }

  @Test func consumingCloseClosesTheDescriptor() throws {
    let number = try SystemCall.attempt { eventfd(0, Int32(EFD_CLOEXEC)) }
    let descriptor = FileDescriptor(adopting: number)
    #expect(descriptor.rawValue == number, "\(descriptor.rawValue)")
    #expect(Self.isOpen(number), "descriptor \(number) is open while owned")
    let witness = try Witness(number)
    descriptor.close()
    #expect(witness.isClosed, "descriptor \(number) is closed by close(): errno \(errno)")
  }

  @Test func anOwnerThatGoesAwayClosesTheDescriptor() throws {
    let number = try SystemCall.attempt { eventfd(0, Int32(EFD_CLOEXEC)) }
    let witness = try Witness(number)
    do {
      let descriptor = FileDescriptor(adopting: number)
      #expect(Self.isOpen(descriptor.rawValue), "descriptor \(number) is open while owned")
    }
    #expect(witness.isClosed, "descriptor \(number) is closed when its owner goes: errno \(errno)")
  }

  /// A consumed close does not close again: a descriptor that takes the number afterwards (F_DUPFD from near the top
  /// of the descriptor table, which nothing else in the process reaches) stays open through the end of the first owner's scope.
  @Test func aClosedNumberTakenAgainIsNotClosedByItsFormerOwner() throws {
    let source = try EventFD()
    var limit = rlimit()
    try SystemCall.attempt { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
    let floor = Int32(clamping: limit.rlim_cur) - 16  // near the top of the table, where nothing else is
    let number = try SystemCall.attempt { fcntl(source.rawValue, F_DUPFD_CLOEXEC, floor) }
    func closeOwned(_ descriptor: consuming FileDescriptor) { descriptor.close() }
    closeOwned(FileDescriptor(adopting: number))
    #expect(Self.isClosed(number), "descriptor \(number) is closed: errno \(errno)")
    let again = try SystemCall.attempt { fcntl(source.rawValue, F_DUPFD_CLOEXEC, number) }
    let reowned = FileDescriptor(adopting: again)
    try #require(again == number, "the number \(number) was free again, got \(again)")
    #expect(Self.isOpen(number), "descriptor \(number), taken again, is still open")
    reowned.close()
  }

  @Test func anEventFDIsReadableOnceSignalledUntilDrained() throws {
    let event = try EventFD()
    #expect(!Self.isReadable(event.rawValue), "a new eventfd is not readable")
    #expect(try event.drain() == 0, "draining a new eventfd finds nothing (EAGAIN is no error)")
    try event.signal()
    try event.signal()
    #expect(Self.isReadable(event.rawValue), "a signalled eventfd is readable")
    let drained = try event.drain()
    #expect(drained == 2, "\(drained) signals drained")
    #expect(!Self.isReadable(event.rawValue), "a drained eventfd is not readable")
    let flags = fcntl(event.rawValue, F_GETFL)
    #expect(flags & O_NONBLOCK != 0, "the eventfd is non-blocking: flags \(flags)")
    #expect(fcntl(event.rawValue, F_GETFD) & FD_CLOEXEC != 0, "the eventfd is close-on-exec")
  }

  @Test func anEventFDClosesOnce() throws {
    let event = try EventFD()
    let number = event.rawValue
    let witness = try Witness(number)
    event.close()
    #expect(witness.isClosed, "eventfd \(number) is closed: errno \(errno)")
  }

  /// The event loop: its wake eventfd wakes its epoll set; close() closes both once and hands back the inotify
  /// instance, and afterwards its calls touch no number.
  @Test func theHubLoopWakesItsEpollSetAndClosesOnce() throws {
    let epoll = try Epoll()
    let wake = try EventFD()
    let epollNumber = epoll.rawValue
    let wakeNumber = wake.rawValue
    try epoll.add(wakeNumber, tag: 7)
    let inotify = try InotifyWatcher.open()
    let inotifyNumber = inotify.fd
    let loop = NetlinkEventLoop(NetlinkEventLoop.Descriptors(epoll: epoll, wake: wake, inotify: inotify))
    #expect(loop.epollDescriptor == epollNumber, "\(loop.epollDescriptor)")

    var tag: UInt64 = 0
    #expect(cns_epoll_wait(epollNumber, &tag, 1, 0) == 0, "nothing ready before a wake")
    loop.wake()
    #expect(cns_epoll_wait(epollNumber, &tag, 1, 0) == 1 && tag == 7, "the wake is ready: tag \(tag)")
    loop.drainWake()
    #expect(cns_epoll_wait(epollNumber, &tag, 1, 0) == 0, "nothing ready once drained")

    let witnesses = (try Witness(epollNumber), try Witness(wakeNumber), try Witness(inotifyNumber))
    let handedBack = loop.close()
    #expect(witnesses.0.isClosed, "the epoll set \(epollNumber) is closed: errno \(errno)")
    #expect(witnesses.1.isClosed, "the eventfd \(wakeNumber) is closed: errno \(errno)")
    // The inotify instance is handed back, open, for the next loop; dropped, it closes.
    if let kept = consume handedBack {
      #expect(kept.fd == inotifyNumber && !witnesses.2.isClosed, "the inotify instance is handed back open")
      kept.close()
    } else {
      Issue.record("the inotify instance was not handed back")
    }
    #expect(witnesses.2.isClosed, "the inotify instance \(inotifyNumber) is closed: errno \(errno)")
    let handedBackTwice: Bool
    if let again = loop.close() {
      handedBackTwice = true
      again.close()
    } else {
      handedBackTwice = false
    }
    #expect(!handedBackTwice, "nothing to hand back twice")
    #expect(loop.epollDescriptor == -1, "no number once closed: \(loop.epollDescriptor)")
    #expect(throws: NetworkMonitorError.self, "no watch once closed") { try loop.watch(folder: "/", .names, for: 2) }
    let events = loop.readFolderEvents()
    #expect(events.isEmpty, "no events once closed: \(events)")
  }
}
