#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// Paths: evaluating the mirrored state with the route lookups' answers, the caches that keep a change cheap
  /// (link types, eligible links), and sending a path when it changed.
  extension NetlinkSessionWorker {
    /// The path now. With `lookingUp`, asks the kernel's route lookups afresh (the evaluator says which);
    /// without, reuses the last answers (only the resolver configuration changed).
    func evaluatePath(lookingUp: Bool) throws(NetworkMonitorError) -> NetworkPath {
      if typeCache.count > state.links.count * 2 + 8 {
        let links = state.links
        typeCache = typeCache.filter { links[$0.key] != nil }
      }
      let filter = configuration.filter
      guard lookingUp else { return pathFromAnswers(of: state, filter: filter) }
      // Every notification that changes the state (a link or an address) marks the lookups outdated: while they are
      // not, the state read here is the state after the lookups too.
      let outdatedBefore = lookupsOutdated
      answers.removeAll()
      requests.removeAllKeepingCapacity()
      PathEvaluator.appendPrimaryLookups(state: state, filter: filter, to: &requests)
      try lookUp(requests, into: &answers)
      requests.removeAllKeepingCapacity()
      // Read once (the lookups applied the notifications that came meanwhile): each read of the property is a copy.
      let state = self.state
      var eligible = knownEligibleLinks(of: state.links)
      let known = eligible
      PathEvaluator.appendInterfaceLookups(
        state: state, answers: answers, filter: filter, eligible: &eligible,
        classify: { cachedType(of: $0, knowing: known) }, to: &requests)
      remember(eligible, knowing: known, of: state.links)
      guard !requests.isEmpty else { return pathFromAnswers(of: state, filter: filter) }
      try lookUp(requests, into: &answers)
      // Not a conditional expression: that would copy the chosen state (a retain and a release of each of its parts).
      if outdatedBefore || lookupsOutdated { return pathFromAnswers(of: self.state, filter: filter) }
      return pathFromAnswers(of: state, filter: filter)
    }

    /// The path of `state` with the answers of the last lookups.
    func pathFromAnswers(of state: KernelState, filter: InterfaceFilter) -> NetworkPath {
      var eligible = knownEligibleLinks(of: state.links)
      let known = eligible
      let path = PathEvaluator.evaluate(
        state: state, answers: answers, supportsDNS: resolver.supportsDNS, filter: filter, eligible: &eligible,
        classify: { cachedType(of: $0, knowing: known) })
      remember(eligible, knowing: known, of: state.links)
      return path
    }

    /// The eligible links (``PathEvaluator/eligibleLinks(state:filter:classify:)``) of `links`, when the last ones
    /// computed were for the same links: comparing dictionaries that share their storage (no link changed since)
    /// is immediate, and a link's type only changes with the link (see ``cachedType(of:)``).
    func knownEligibleLinks(of links: [Int32: NetlinkLink]) -> [PathEvaluator.Eligible]? {
      guard eligibleLinksSource == links else { return nil }
      return eligibleLinks
    }

    /// Keeps `eligible`, when computed (`known` is what ``knownEligibleLinks(of:)`` gave: when it gave them, they are
    /// kept already), as the eligible links of `links`.
    func remember(
      _ eligible: [PathEvaluator.Eligible]?, knowing known: [PathEvaluator.Eligible]?, of links: [Int32: NetlinkLink]
    ) {
      guard known == nil, let eligible else { return }
      eligibleLinksSource = links
      eligibleLinks = eligible
    }

    /// The path after fresh lookups, asked again while notifications that may change their answers arrive
    /// meanwhile (re-dumping first when some were lost), at most ``maximumRoundsPerWork`` times.
    ///
    /// - Parameter settled: Set to whether the path is settled: `false` when notifications were still arriving, so
    ///   that another round must follow.
    /// - Returns: The path.
    func evaluateUntilSettled(settled: inout Bool) throws(NetworkMonitorError) -> NetworkPath {
      var rounds = 0
      while true {
        if let reason = resyncReason {
          countResync(reason)
          try dumpEverything()
        }
        lookupsOutdated = false
        let path = try evaluatePath(lookingUp: true)
        rounds += 1
        settled = !lookupsOutdated && resyncReason == nil
        if settled || rounds >= Self.maximumRoundsPerWork { return path }
      }
    }

    /// ``cachedType(of:)``, answered from `eligible` when the link is there: eligible links of the current links were
    /// classified by it for these very links, so the primary's link (usually among them) needs no cache lookup.
    func cachedType(of link: NetlinkLink, knowing eligible: [PathEvaluator.Eligible]?) -> InterfaceType {
      // By position: `firstIndex(where:)` would copy (retain and release) every link it passes.
      if let eligible {
        for position in eligible.indices where eligible[position].link.index == link.index {
          return eligible[position].type
        }
      }
      return cachedType(of: link)
    }

    /// Classifies a link, reading sysfs only when the link is new or its name, kind, type or address changed.
    func cachedType(of link: NetlinkLink) -> InterfaceType {
      if let cached = typeCache[link.index], cached.link.name == link.name, cached.link.kind == link.kind,
        cached.link.hardwareType == link.hardwareType, cached.link.hardwareAddress == link.hardwareAddress
      {
        return cached.type
      }
      let type = configuration.classifier.classify(link)
      typeCache[link.index] = (link, type)
      return type
    }

    /// Evaluates (looking up afresh when `lookingUp`) and sends the path if it changed.
    ///
    /// - Returns: ``Outcome/unfinished`` when notifications kept arriving during the lookups.
    func publishIfChanged(lookingUp: Bool) throws(NetworkMonitorError) -> Outcome {
      var settled = true
      // Returned alone, not in a tuple with `settled`: taking a tuple apart copied the path.
      let path = lookingUp ? try evaluateUntilSettled(settled: &settled) : try evaluatePath(lookingUp: false)
      let changed = !hasLastPath || lastPath != path
      let sends = changed && !control.isStopRequested
      // One lock for the statistics of the evaluation and of the path it sends.
      let asked = lookupsAsked
      lookupsAsked = 0
      shared.withLock {
        $0.statistics.evaluations += 1
        $0.statistics.lookups += asked
        if sends { $0.statistics.pathsSent += 1 }
        if $0.recordsKernelState { $0.kernelState = state }
      }
      let outcome: Outcome = settled ? .idle : .unfinished
      if !control.isStopRequested { observeLinks() }
      guard changed else { return outcome }
      // Sent first, then kept: the assignment is the path's last use, a move rather than a copy. The sink runs on
      // this thread and cannot reach this session's state (a sink that stops the session only marks it stopped).
      if sends { sink.send(path) }
      lastPath = path
      hasLastPath = true
      return outcome
    }

    /// Tells the link observer, if there is one, of the links and addresses when they changed since it last heard.
    func observeLinks(first: Bool = false) {
      guard let observer = configuration.linkObserver else { return }
      guard first || state.links != observedLinks || state.addresses != observedAddresses else { return }
      observedLinks = state.links
      observedAddresses = state.addresses
      observer(LinkInventory.mirroredLinks(of: state, classify: { cachedType(of: $0) }))
    }
  }
#endif
