#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// Paths: evaluating (``NetlinkSessionCore``) until no notification that matters arrives meanwhile, and sending a
  /// path when it changed.
  extension NetlinkSessionWorker {
    /// The path after fresh lookups, asked again while notifications that may change their answers arrive
    /// meanwhile (re-dumping first when some were lost), at most ``maximumRoundsPerWork`` times.
    ///
    /// - Parameter settled: Set to whether the path is settled: `false` when notifications were still arriving, so
    ///   that another round must follow.
    /// - Returns: The path.
    func evaluateUntilSettled(settled: inout Bool) throws(NetworkMonitorError) -> NetworkPath {
      var rounds = 0
      while true {
        if let reason = core.resyncReason {
          countResync(reason)
          try dumpEverything()
        }
        core.lookupsOutdated = false
        let path = try core.evaluatePath(lookingUp: true, supportsDNS: resolver.supportsDNS, on: socket)
        rounds += 1
        settled = !core.lookupsOutdated && core.resyncReason == nil
        if settled || rounds >= Self.maximumRoundsPerWork { return path }
      }
    }

    /// Evaluates (looking up afresh when `lookingUp`) and sends the path if it changed.
    ///
    /// - Returns: ``Outcome/unfinished`` when notifications kept arriving during the lookups.
    func publishIfChanged(lookingUp: Bool) throws(NetworkMonitorError) -> Outcome {
      var settled = true
      // Returned alone, not in a tuple with `settled`: taking a tuple apart copies the path.
      let path =
        lookingUp
        ? try evaluateUntilSettled(settled: &settled)
        : try core.evaluatePath(lookingUp: false, supportsDNS: resolver.supportsDNS, on: socket)
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
