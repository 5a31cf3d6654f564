#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// Paths: a round of lookups (``NetlinkSessionCore``), again while notifications that matter arrive meanwhile
  /// (re-dumping first when some were lost), and the path sent when it changed. On the loop's thread nothing here
  /// waits for the kernel: a round that misses answers returns ``Outcome/waiting(until:)``, and goes on when the
  /// socket is readable or the deadline passed.
  extension NetlinkSessionWorker {
    /// How a round of evaluation stands.
    enum Progress {
      /// Waiting for the kernel's answers (a lookup's, or a dump's next part).
      case waiting
      /// Every lookup answered, and no notification that matters came meanwhile.
      case settled
      /// Answered, but notifications kept arriving during ``maximumRoundsPerWork`` rounds: another must follow, after
      /// other sessions had their turn.
      case unsettled
    }

    /// Starts an evaluation with fresh lookups, after a re-dump when notifications were lost.
    @inline(__always) func beginEvaluation() throws(NetworkMonitorError) {
      rounds = 0
      try beginRound()
    }

    /// Starts a round: a re-dump when notifications were lost (the lookups follow it), else the lookups.
    @inline(__always) private func beginRound() throws(NetworkMonitorError) {
      if let reason = core.resyncReason {
        countResync(reason)
        try beginDump()
      } else {
        core.beginLookups()
      }
    }

    /// Carries the evaluation under way as far as the kernel's answers go: the dump, the lookups, and another round
    /// while notifications that may change their answers arrived meanwhile, at most ``maximumRoundsPerWork``.
    ///
    /// - Parameters:
    ///   - deadlinePassed: The wait for the kernel is over (the dump starts over, unanswered lookups are asked again
    ///     or fail).
    ///   - blocking: Wait for the kernel on this thread (start-up, off the loop's thread) rather than return
    ///     ``Progress/waiting``.
    func advance(deadlinePassed: Bool, blocking: Bool) throws(NetworkMonitorError) -> Progress {
      var deadlinePassed = deadlinePassed
      // Blocking: what is waited for, and until when, as `waitingSince` on the loop.
      var blockedSince: (sequence: UInt32, deadline: UInt64)?
      while true {
        if dump != nil {
          guard try continueDump(deadlinePassed: deadlinePassed) else {
            guard blocking else { return .waiting }
            deadlinePassed = try awaitKernel(since: &blockedSince)
            continue
          }
          deadlinePassed = false
          core.beginLookups()
        }
        guard try core.continueLookups(on: socket, deadlinePassed: deadlinePassed) else {
          guard blocking else { return .waiting }
          deadlinePassed = try awaitKernel(since: &blockedSince)
          continue
        }
        deadlinePassed = false
        rounds += 1
        if !core.lookupsOutdated && core.resyncReason == nil { return .settled }
        if rounds >= Self.maximumRoundsPerWork { return .unsettled }
        try beginRound()
      }
    }

    /// Waits on this thread (start-up only) for the socket to be readable, until the deadline of what is awaited
    /// now: a notification that wakes the wait does not extend it.
    ///
    /// - Returns: Whether the deadline passed.
    private func awaitKernel(since: inout (sequence: UInt32, deadline: UInt64)?) throws(NetworkMonitorError) -> Bool {
      let awaited = awaitedSequence
      let now = MonotonicTime.now()
      if since?.sequence != awaited { since = (awaited, now &+ replyTimeoutNanoseconds) }
      let deadline = since?.deadline ?? now
      guard deadline > now, try awaitKernel(milliseconds: Int32(clamping: (deadline - now + 999_999) / 1_000_000))
      else {
        since = nil
        return true
      }
      return false
    }

    /// What the evaluation waits for: the dump request's sequence number, or the first of the lookup batch's.
    private var awaitedSequence: UInt32 { awaitedDumpSequence ?? core.awaitedSequence ?? 0 }

    /// ``Configuration/replyTimeoutMilliseconds`` in nanoseconds, at least one millisecond.
    var replyTimeoutNanoseconds: UInt64 { UInt64(max(1, configuration.replyTimeoutMilliseconds)) * 1_000_000 }

    /// Whether an evaluation waits for the kernel.
    var isWaitingForKernel: Bool { waitingSince != nil }

    /// Carries the evaluation under way on the loop's thread, and sends its path when it is over and changed.
    ///
    /// - Returns: ``Outcome/waiting(until:)`` while it waits for the kernel: the deadline of what it waits for (a new
    ///   batch of lookups, or a dump's next request, waits anew); ``Outcome/unfinished`` when notifications kept
    ///   arriving; ``Outcome/idle`` otherwise.
    func proceed(deadlinePassed: Bool) throws(NetworkMonitorError) -> Outcome {
      if deadlinePassed { waitingSince = nil }
      switch try advance(deadlinePassed: deadlinePassed, blocking: false) {
      case .waiting:
        let awaited = awaitedSequence
        if let since = waitingSince, since.sequence == awaited { return .waiting(until: since.deadline) }
        let deadline = MonotonicTime.now() &+ replyTimeoutNanoseconds
        waitingSince = (awaited, deadline)
        shared.withLock { $0.statistics.kernelWaits += 1 }
        return .waiting(until: deadline)
      case .settled:
        waitingSince = nil
        return publish(settled: true)
      case .unsettled:
        waitingSince = nil
        return publish(settled: false)
      }
    }

    /// Sends the path of the state and the round's answers if it changed.
    ///
    /// - Returns: ``Outcome/unfinished`` when notifications kept arriving during the lookups (`settled` is `false`).
    func publish(settled: Bool) -> Outcome {
      // Every link change is a routing change: networkd's files are read for the links there are now.
      networkd?.follow(links: core.state.links)
      followWirelessLinks()
      let path = core.evaluatedPath(supportsDNS: resolver.supportsDNS)
      return send(path, settled: settled)
    }

    /// Sends the path with the last lookups' answers, if it changed: only the resolver configuration changed.
    func publishWithLastAnswers() -> Outcome {
      core.pruneCaches()
      let path = core.evaluatedPath(supportsDNS: resolver.supportsDNS)
      return send(path, settled: true)
    }

    private func send(_ path: consuming NetworkPath, settled: Bool) -> Outcome {
      let changed = core.isChange(path)
      let sends = changed && !control.isStopRequested
      // One lock for the statistics of the evaluation and of the path it sends.
      let asked = core.lookupsAsked
      core.lookupsAsked = 0
      shared.withLock {
        $0.statistics.evaluations += 1
        $0.statistics.lookups += asked
        if sends { $0.statistics.pathsSent += 1 }
        if $0.recordsKernelState { $0.kernelState = core.state }
      }
      let outcome: Outcome = settled ? .idle : .unfinished
      if !control.isStopRequested { observeLinks() }
      guard changed else { return outcome }
      // Sent first, then kept: keeping it is the path's last use, a move rather than a copy. The sink runs on
      // this thread and cannot reach this session's state (a sink that stops the session only marks it stopped).
      if sends { sink.send(path) }
      core.keep(path)
      return outcome
    }

    /// Tells the link observer, if there is one, of the links and addresses when they changed since it last heard.
    func observeLinks(first: Bool = false) {
      guard let observer = configuration.linkObserver else { return }
      guard first || core.state.links != observedLinks || core.state.addresses != observedAddresses else { return }
      observedLinks = core.state.links
      observedAddresses = core.state.addresses
      let state = core.state
      observer(LinkInventory.mirroredLinks(of: state, classify: { core.caches.type(of: $0) }))
    }
  }
#endif
