#if os(Linux)
  import NetStatusNetlink

  /// What one evaluation of a session's path keeps for the next: the types of its links (``InterfaceClassifier``,
  /// which reads sysfs) until a link changes, and the eligible links of the last links evaluated.
  ///
  /// Apart from the rest of ``NetlinkSessionCore``, so that the classification closure the evaluator calls, which
  /// fills these caches, touches only them while the evaluator borrows the core's state.
  struct EvaluationCaches {
    /// A link as it was classified, and its type.
    struct Classified {
      let link: NetlinkLink
      let type: InterfaceType
    }

    let classifier: InterfaceClassifier
    private var types: [Int32: Classified] = [:]
    /// The entry of ``types`` read or written last: usually the primary's link, classified on every change, which
    /// is then found without hashing its index.
    private var last: Classified?
    /// The last eligible links computed (see ``knownEligibleLinks(of:)``), `nil` before the first.
    private var eligibleLinks: [PathEvaluator.Eligible]?
    /// The links ``eligibleLinks`` were computed from. Two properties rather than an optional tuple, which each
    /// check would copy whole.
    private var eligibleLinksSource: [Int32: NetlinkLink] = [:]

    init(classifier: InterfaceClassifier) {
      self.classifier = classifier
    }

    /// The eligible links (``PathEvaluator/eligibleLinks(state:filter:classify:)``) of `links`, when the last ones
    /// computed were for the same links: comparing dictionaries that share their storage (no link changed since) is
    /// immediate, and a link's type only changes with the link (see ``type(of:)``).
    func knownEligibleLinks(of links: [Int32: NetlinkLink]) -> [PathEvaluator.Eligible]? {
      guard eligibleLinksSource == links else { return nil }
      return eligibleLinks
    }

    /// Keeps `eligible`, when computed (`known` is what ``knownEligibleLinks(of:)`` gave: when it gave them, they
    /// are kept already), as the eligible links of `links`.
    ///
    /// Not inlined: inlined, the copy of `links` it keeps (seldom) is made before the check that calls it, on every
    /// evaluation (a retain and a release of the dictionary).
    @inline(never)
    mutating func remember(
      _ eligible: [PathEvaluator.Eligible]?, knowing known: [PathEvaluator.Eligible]?, of links: [Int32: NetlinkLink]
    ) {
      guard known == nil, let eligible else { return }
      eligibleLinksSource = links
      eligibleLinks = eligible
    }

    /// ``type(of:)``, answered from `eligible` when the link is there: eligible links of the current links were
    /// classified by it for these very links, so the primary's link (usually among them) needs no cache lookup.
    mutating func type(of link: NetlinkLink, knowing eligible: [PathEvaluator.Eligible]?) -> InterfaceType {
      // By position: `firstIndex(where:)` would copy (retain and release) every link it passes.
      if let eligible {
        for position in eligible.indices where eligible[position].link.index == link.index {
          return eligible[position].type
        }
      }
      return type(of: link)
    }

    /// Classifies a link, reading sysfs only when the link is new or its name, kind, type or address changed.
    mutating func type(of link: NetlinkLink) -> InterfaceType {
      // What rtnetlink alone tells (loopback, virtual links) needs no cache; only sysfs reads are kept.
      if let type = link.kernelInterfaceType { return type }
      if let last, Self.isClassified(link, as: last.link) { return last.type }
      if let cached = types[link.index], Self.isClassified(link, as: cached.link) {
        last = cached
        return cached.type
      }
      let type = classifier.classify(link)
      let classified = Classified(link: link, type: type)
      types[link.index] = classified
      last = classified
      return type
    }

    /// Whether `link` has the type `classified` was given: it is the same link, with the same name, kind, type and
    /// address (what ``InterfaceClassifier`` reads).
    private static func isClassified(_ link: NetlinkLink, as classified: NetlinkLink) -> Bool {
      classified.index == link.index && classified.name == link.name && classified.kind == link.kind
        && classified.hardwareType == link.hardwareType && classified.hardwareAddress == link.hardwareAddress
    }

    /// Forgets the types of links that are gone, once they are many: a namespace whose links come and go would
    /// otherwise keep them all.
    mutating func prune(keeping links: [Int32: NetlinkLink]) {
      guard types.count > links.count * 2 + 8 else { return }
      types = types.filter { links[$0.key] != nil }
      last = nil
    }

    /// The rating of each Wi-Fi link nl80211's reading rates (NetlinkSessionWorker+Wireless.swift), by index: only
    /// those not ``NetworkPath/LinkQuality/unknown``.
    var wifiQualities: [Int32: NetworkPath.LinkQuality] = [:]

    /// The wired link whose quality was read last, as it was then, and its quality.
    private var rated: (link: NetlinkLink, quality: NetworkPath.LinkQuality)?

    /// The quality of a wired Ethernet link (``LinkQualityRules/wired(megabitsPerSecond:)``), its speed read from
    /// sysfs again only when the link changed since the last read: a renegotiated speed comes with a carrier change,
    /// which the kernel reports as the link's change. Only the link a path uses is rated, so one is kept.
    mutating func wiredQuality(of link: NetlinkLink) -> NetworkPath.LinkQuality {
      if let rated, rated.link == link { return rated.quality }
      let quality = LinkQualityRules.wired(megabitsPerSecond: classifier.negotiatedSpeed(of: link))
      rated = (link, quality)
      return quality
    }
  }
#endif
