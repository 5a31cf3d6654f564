#if os(Linux)
  import Glibc

  /// A file descriptor this process owns (in the spirit of swift-system's `FileDescriptor`, but owning): closed
  /// exactly once, through ``SystemCall/close(_:)``, either by ``close()`` (which consumes it) or, if nobody
  /// closed it, when it goes out of scope.
  ///
  /// Non-copyable, so that no copy of the number outlives the owner by accident. The number itself
  /// (``rawValue``) is for the calls that need one: `epoll_ctl`, `poll(2)`, `read(2)`; whoever borrows it must be
  /// done before the owner closes. An owner that is a `final class` shared between threads stores the descriptor
  /// in a `let` (closed when the last reference goes, so no thread that can still reach it sees a closed number)
  /// or, when it must close earlier, in a `Mutex` that every use of the number goes through.
  package struct FileDescriptor: ~Copyable, Sendable {
    /// The descriptor's number, valid until the descriptor is closed.
    package let rawValue: Int32

    /// Takes ownership of `rawValue`, a descriptor just opened (non-negative).
    package init(adopting rawValue: Int32) {
      self.rawValue = rawValue
    }

    /// Closes the descriptor, now.
    package consuming func close() {
      SystemCall.close(rawValue)
      discard self
    }

    /// Gives up ownership without closing: the caller owns the number now (to hand it to another thread, whose
    /// owner adopts it again with ``init(adopting:)``).
    package consuming func release() -> Int32 {
      let rawValue = rawValue
      discard self
      return rawValue
    }

    deinit {
      SystemCall.close(rawValue)
    }
  }
#endif
