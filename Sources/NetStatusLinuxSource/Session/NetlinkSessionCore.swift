#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink

  /// What a ``NetlinkSessionWorker`` works on for every change: its mirror of links and addresses, its route
  /// lookups and their answers, the caches that keep a change cheap (``EvaluationCaches``), and where datagrams are
  /// received; with the work itself (receiving, looking up, evaluating) as `mutating` methods.
  ///
  /// A struct the worker holds, rather than the worker's own properties: inside a `mutating` method `self` is
  /// accessed exclusively (checked at compile time), so handing ``state`` or ``answers`` to the evaluator borrows it
  /// in place, where each read of a class's stored property copies it (a retain and a release of every dictionary
  /// and array in it). The worker makes one access per piece of work; the socket, which the worker owns (it reopens
  /// it), is borrowed by the methods that use it.
  struct NetlinkSessionCore {
    /// Which lookups a round asks: the first ones, then those for the interfaces their answers name.
    enum LookupStage {
      case primary
      case interface
      /// Every lookup of the round is answered (or none is under way).
      case answered
    }

    /// The interface types the path may use.
    let filter: InterfaceFilter
    /// Where decode errors, overflows and foreign datagrams are counted.
    let shared: NetlinkSourceRecord
    /// Where the batch of lookups being sent is written: room for a whole batch, allocated once by the worker,
    /// which frees it in its `deinit`.
    let lookupRequestBytes: UnsafeMutableRawBufferPointer

    var state = KernelState()
    /// The answers of the last lookups, reused when only the resolver configuration changed.
    var answers = RouteLookupAnswers()
    /// Notifications that may change a lookup's answer arrived while lookups were being answered.
    var lookupsOutdated = false
    /// A re-dump is needed: notifications were lost while lookups were being answered.
    var resyncReason: String?
    /// Lookups asked since the statistics were last updated: counted under the lock the evaluation takes anyway
    /// (`NetlinkSessionWorker.publish(settled:)`), rather than under one more per batch.
    var lookupsAsked = 0
    /// The last sequence number used on the socket (lookups and dumps).
    var sequence: UInt32 = 0
    /// Where datagrams are received: the session's own while it starts, then the one of the hub's thread.
    var buffer = ReceiveBuffer()
    /// The lookups being asked, written into the same storage each time.
    var requests: [RouteLookupRequest] = []
    /// The lookups of ``stage`` under way, kept only while their answers are missing (``lookUp(on:deadlinePassed:)``
    /// starts them from ``requests`` otherwise).
    var exchange: RouteLookupExchange?
    /// Whether ``exchange`` holds lookups under way: checked first, so that the common case leaves the optional alone.
    var keepsExchange = false
    /// Which lookups the round under way asks.
    var stage = LookupStage.answered
    /// For tests (``NetlinkPathSource/Options/swallowsRequestsAfterStart``): requests are not sent, as if the kernel
    /// never answered them.
    var swallowsRequests = false
    /// The messages of the datagram being handled, decoded into the same storage each time.
    var decoded: [NetlinkMessage] = []
    /// Link types and eligible links, kept from one evaluation to the next.
    var caches: EvaluationCaches
    /// The last path sent (the first one once the session started), meaningful when ``hasLastPath``. Not an
    /// optional: comparing with an optional's payload, and assigning one, copy the path (retaining its box).
    private(set) var lastPath = NetworkPath(status: .unsatisfied)
    /// The state's count of link changes when ``linksChangedSinceLastAsked()`` last gave its links; `nil` before
    /// it did, and after the state was replaced.
    private var linkChangesAsked: UInt64?
    /// Whether ``lastPath`` holds a path.
    private(set) var hasLastPath = false

    init(
      filter: InterfaceFilter, classifier: InterfaceClassifier, shared: NetlinkSourceRecord,
      lookupRequestBytes: UnsafeMutableRawBufferPointer
    ) {
      self.filter = filter
      self.caches = EvaluationCaches(classifier: classifier)
      self.shared = shared
      self.lookupRequestBytes = lookupRequestBytes
    }

    /// Starts a round of fresh lookups: the first lookups (the evaluator says which) for the state now. Carry it on
    /// with ``continueLookups(on:deadlinePassed:)``.
    @inline(__always) mutating func beginLookups() {
      if keepsExchange {
        // Lookups still waited for belong to the round given up: their late answers are dropped.
        exchange = nil
        keepsExchange = false
      }
      caches.prune(keeping: state.links)
      lookupsOutdated = false
      answers.removeAll()
      requests.removeAllKeepingCapacity()
      PathEvaluator.appendPrimaryLookups(state: state, filter: filter, to: &requests)
      stage = .primary
    }

    /// Carries the round of lookups as far as the kernel's answers go, without waiting: the first lookups, then those
    /// the evaluator asks given their answers (the state after the first lookups: they applied the notifications that
    /// came meanwhile).
    ///
    /// - Parameter deadlinePassed: The wait for the batch sent last is over: its unanswered lookups are asked once
    ///   more, or count as failed (``RouteLookupExchange``).
    /// - Returns: Whether every lookup is answered (``evaluatedPath(supportsDNS:)`` gives the path); `false` while
    ///   answers are missing and nothing is queued: come back when the socket is readable, or when the deadline of
    ///   ``awaitedSequence`` passed.
    mutating func continueLookups(
      on socket: borrowing NetlinkSocket?, deadlinePassed: Bool
    ) throws(NetworkMonitorError) -> Bool {
      switch socket {
      case .none:
        exchange = nil
        keepsExchange = false
        stage = .answered
        return true
      case .some(let socket):
        var deadlinePassed = deadlinePassed
        while stage != .answered {
          guard try lookUp(on: socket, deadlinePassed: deadlinePassed) else { return false }
          deadlinePassed = false
          if stage == .primary {
            requests.removeAllKeepingCapacity()
            Self.appendInterfaceLookups(of: state, answers: answers, filter, &caches, to: &requests)
            stage = requests.isEmpty ? .answered : .interface
          } else {
            stage = .answered
          }
        }
        return true
      }
    }

    /// The first sequence number of the lookups awaited now: a new number is a new wait, with a deadline of its own.
    var awaitedSequence: UInt32? { keepsExchange ? exchange?.awaitedSequence : nil }

    /// Forgets what the caches know of links that are gone: before ``evaluatedPath(supportsDNS:)`` without a round of
    /// lookups (``beginLookups()`` does it).
    mutating func pruneCaches() {
      caches.prune(keeping: state.links)
    }

    /// The path of the state with the answers of the last lookups: after a round of lookups, or when only the
    /// resolver configuration changed.
    ///
    /// Every notification that changes the state (a link or an address) marks the lookups outdated: while they are
    /// not, the state is the one the lookups were chosen from; when they are, the caller looks up again.
    @inline(__always) mutating func evaluatedPath(supportsDNS: Bool) -> NetworkPath {
      Self.path(of: state, answers: answers, supportsDNS: supportsDNS, filter, &caches)
    }

    // The evaluator's calls are static, with the state and the answers as arguments: a closure that captured `self`
    // (to classify links) would let it write anywhere in `self`, and the state would be copied for the call.

    /// The links, when they may have changed since the last call (nl80211's reading follows them:
    /// NetlinkSessionWorker+Wireless.swift, on every evaluation); `nil` when they did not: one integer comparison,
    /// ``KernelState/linkChanges``. `mutating` so that the state is read in place: read from the worker, it would
    /// be copied.
    mutating func linksChangedSinceLastAsked() -> [Int32: NetlinkLink]? {
      guard state.linkChanges != linkChangesAsked else { return nil }
      linkChangesAsked = state.linkChanges
      return state.links
    }

    /// The state was replaced by a new one (a dump), whose count of link changes starts anew: the next
    /// ``linksChangedSinceLastAsked()`` gives the links.
    mutating func stateReplaced() {
      linkChangesAsked = nil
    }

    /// Whether `path` differs from the last path sent, or is the first. `mutating` so that the last path is compared
    /// in place: read from the worker, it would be copied for the comparison (and destroyed after it).
    mutating func isChange(_ path: NetworkPath) -> Bool {
      !hasLastPath || lastPath != path
    }

    /// Keeps `path` as the last path sent.
    mutating func keep(_ path: consuming NetworkPath) {
      lastPath = path
      hasLastPath = true
    }

    /// The path of `state` with `answers`.
    private static func path(
      of state: KernelState, answers: RouteLookupAnswers, supportsDNS: Bool, _ filter: InterfaceFilter,
      _ caches: inout EvaluationCaches
    ) -> NetworkPath {
      var eligible = caches.knownEligibleLinks(of: state.links)
      let known = eligible
      var path = PathEvaluator.evaluate(
        state: state, answers: answers, supportsDNS: supportsDNS, filter: filter, eligible: &eligible,
        classify: { caches.type(of: $0, knowing: known) })
      caches.remember(eligible, knowing: known, of: state.links)
      if path.isConnected { rateLink(of: &path, state: state, &caches) }
      return path
    }

    /// Sets the path's link quality: that of the interface it rides on (for a VPN, the one its
    /// ``NetworkPath/VPN/underlyingInterfaceType`` is of: `PathEvaluator.underlyingInterface(of:state:)`). Wired
    /// Ethernet is rated by its speed, Wi-Fi by nl80211's reading of its signal (``LinkQualityRules``); every other
    /// type stays ``NetworkPath/LinkQuality/unknown``, and Wi-Fi takes NetworkManager's rating where it runs
    /// (`NetworkManagerView.apply(to:)`).
    static func rateLink(of path: inout NetworkPath, state: KernelState, _ caches: inout EvaluationCaches) {
      let index: Int
      let type: InterfaceType
      if path.vpn == nil {
        // The type first, through the path's own accessor: a path that is neither (most) copies no interface.
        type = path.interfaceType ?? .other
        guard type == .wiredEthernet || type == .wifi, let first = path.availableInterfaces.first else { return }
        index = first.index
      } else {
        guard let riding = PathEvaluator.underlyingInterface(of: path.availableInterfaces, state: state),
          riding.type == .wiredEthernet || riding.type == .wifi
        else { return }
        index = riding.index
        type = riding.type
      }
      if type == .wifi {
        path.linkQuality = caches.wifiQualities[Int32(truncatingIfNeeded: index)] ?? .unknown
        return
      }
      guard let link = state.links[Int32(truncatingIfNeeded: index)] else { return }
      path.linkQuality = caches.wiredQuality(of: link)
    }

    /// Appends the second round of lookups for `state` given the first round's `answers` to `requests`.
    private static func appendInterfaceLookups(
      of state: KernelState, answers: RouteLookupAnswers, _ filter: InterfaceFilter, _ caches: inout EvaluationCaches,
      to requests: inout [RouteLookupRequest]
    ) {
      var eligible = caches.knownEligibleLinks(of: state.links)
      let known = eligible
      PathEvaluator.appendInterfaceLookups(
        state: state, answers: answers, filter: filter, eligible: &eligible,
        classify: { caches.type(of: $0, knowing: known) }, to: &requests)
      caches.remember(eligible, knowing: known, of: state.links)
    }
  }
#endif
