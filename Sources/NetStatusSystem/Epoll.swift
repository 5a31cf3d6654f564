#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// An epoll set (`epoll(7)`): descriptors registered with a tag each, and a wait that gives the tags of those
  /// ready. Close-on-exec; owned (``FileDescriptor``): closed exactly once, by ``close()`` or when it goes out of
  /// scope, and never used after that, since both consume it.
  package struct Epoll: ~Copyable, Sendable {
    /// What a registered descriptor is waited on for.
    package enum Readiness: Sendable {
      /// Readable (EPOLLIN).
      case input
      /// A priority event (EPOLLPRI): what `/proc/self/mountinfo` reports when the mount table changed.
      case priority
    }

    /// The most tags one ``wait(into:timeoutMilliseconds:)`` gives.
    package static let maximumEvents = 64

    /// The descriptor.
    package let descriptor: FileDescriptor

    /// The descriptor's number, for a loop that waits on it while its owner keeps it open.
    package var rawValue: Int32 { descriptor.rawValue }

    /// Creates an empty epoll set.
    ///
    /// - Throws: ``SystemCallError`` of `epoll_create1` (EMFILE, ENFILE, ENOMEM).
    package init() throws(SystemCallError) {
      descriptor = FileDescriptor(
        adopting: try SystemCall.call("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Adds `fd` to the set: a wait gives `tag` when it is ready for `readiness`.
    ///
    /// - Throws: ``Errno`` of `epoll_ctl` (ENOMEM, ENOSPC at `max_user_watches`, EEXIST).
    package func add(_ fd: Int32, tag: UInt64, for readiness: Readiness = .input) throws(Errno) {
      let events = readiness == .priority ? cns_epoll_priority() : cns_epoll_input()
      try SystemCall.attempt { cns_epoll_add(descriptor.rawValue, fd, tag, events) }
    }

    /// Takes `fd` out of the set (nothing if it is not in it).
    package func remove(_ fd: Int32) {
      _ = cns_epoll_del(descriptor.rawValue, fd)
    }

    /// Waits on the set numbered `epoll` (``rawValue``) until a descriptor is ready or `timeoutMilliseconds`
    /// passed (-1: no limit), and writes the ready ones' tags to the start of `tags`.
    ///
    /// For a loop that holds the number and not the set, whose owner closes it only once the loop has ended.
    ///
    /// - Returns: How many tags were written: 0 on a timeout or a signal (EINTR).
    package static func wait(_ epoll: Int32, into tags: inout [UInt64], timeoutMilliseconds: Int32) -> Int {
      let count = tags.withUnsafeMutableBufferPointer { buffer in
        cns_epoll_wait(epoll, buffer.baseAddress, Int32(min(buffer.count, maximumEvents)), timeoutMilliseconds)
      }
      return max(Int(count), 0)
    }

    /// Closes the epoll set, now.
    package consuming func close() {
      descriptor.close()
    }
  }
#endif
