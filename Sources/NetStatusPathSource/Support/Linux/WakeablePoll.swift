#if os(Linux)
  import Glibc

  /// A `poll(2)` on some descriptors and a wake descriptor, bounded by a deadline: the wait of the probe's blocking
  /// work on its own thread (``HTTPProbeConnection``, ``NamespaceResolver``), which the deadline ends and a write
  /// to the wake descriptor cancels.
  package enum WakeablePoll {
    /// Why a wait ended.
    package enum Outcome {
      /// At least one of the descriptors has an event (their `revents` say which).
      case ready
      /// The deadline passed first.
      case timedOut
      /// The wake descriptor was written, or `poll(2)` itself failed: the work gives up without a verdict.
      case cancelled
    }

    /// Waits until one of `descriptors` is ready, `deadline` passes, or `wakeFD` is readable; `descriptors` then
    /// holds the `revents` of the last poll. POLLERR and POLLHUP count as ready: the next call on the descriptor
    /// reports what happened.
    package static func wait(
      _ descriptors: inout [pollfd], wakeFD: Int32, until deadline: ContinuousClock.Instant, clock: ContinuousClock
    ) -> Outcome {
      var polled = descriptors + [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
      defer { descriptors = Array(polled.dropLast()) }
      while true {
        let remaining = deadline - clock.now
        guard remaining > .zero else { return .timedOut }
        let ready = poll(&polled, nfds_t(polled.count), milliseconds(roundingUp: remaining))
        if ready < 0 {
          if errno == EINTR { continue }
          return .cancelled
        }
        if polled[polled.count - 1].revents != 0 { return .cancelled }
        if ready > 0 { return .ready }
      }
    }

    /// `duration` (positive) as `poll(2)`'s timeout: whole milliseconds rounded up, so that the wait does not end
    /// just before the deadline, and capped at `Int32.max`.
    private static func milliseconds(roundingUp duration: Duration) -> Int32 {
      let (seconds, attoseconds) = duration.components
      return Int32(
        min(Int64(Int32.max), seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
  }
#endif
