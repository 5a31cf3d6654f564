#if os(Linux)
  import CNetStatusShim
  import Glibc

  /// An eventfd (`eventfd(2)`): a counter another thread adds to (``signal()``) to wake a thread that waits in
  /// `poll(2)` or `epoll_wait(2)` on it, and that the woken thread empties (``drain()``). Close-on-exec and
  /// non-blocking; owned (``FileDescriptor``): closed exactly once.
  package struct EventFD: ~Copyable, Sendable {
    /// The descriptor.
    package let descriptor: FileDescriptor

    /// The descriptor's number, for `poll(2)` and `epoll_ctl(2)`.
    package var rawValue: Int32 { descriptor.rawValue }

    /// Creates an eventfd with the counter at zero (not readable).
    ///
    /// - Throws: ``SystemCallError`` of `eventfd` (EMFILE, ENFILE, ENOMEM).
    package init() throws(SystemCallError) {
      let flags = Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)
      descriptor = FileDescriptor(adopting: try SystemCall.call("eventfd") { eventfd(0, flags) })
    }

    /// Adds one to the counter: the descriptor becomes readable.
    ///
    /// - Throws: ``Errno``: EAGAIN only if the counter is at its maximum (2⁶⁴ − 2), that is never in practice.
    package func signal() throws(Errno) {
      try SystemCall.attempt { eventfd_write(descriptor.rawValue, 1) }
    }

    /// Reads the counter and resets it to zero: the descriptor is no longer readable.
    ///
    /// - Returns: The signals since the last drain; 0 when there were none.
    /// - Throws: ``Errno`` of `read(2)` other than EAGAIN (none, for a valid eventfd).
    @discardableResult
    package func drain() throws(Errno) -> UInt64 {
      var value: eventfd_t = 0
      do throws(Errno) {
        try SystemCall.attempt { eventfd_read(descriptor.rawValue, &value) }
      } catch {
        if error == .resourceTemporarilyUnavailable { return 0 }
        throw error
      }
      return value
    }

    /// Adds one to the counter of the eventfd numbered `descriptor` (``rawValue``), for a thread that holds the
    /// number while its owner keeps it open; errors are ignored (EAGAIN only at the counter's maximum).
    package static func signal(_ descriptor: Int32) {
      _ = eventfd_write(descriptor, 1)
    }

    /// Empties the counter of the eventfd numbered `descriptor`, for the thread that waits on it.
    package static func drain(_ descriptor: Int32) {
      var value: eventfd_t = 0
      _ = eventfd_read(descriptor, &value)
    }

    /// Closes the eventfd, now.
    package consuming func close() {
      descriptor.close()
    }
  }
#endif
