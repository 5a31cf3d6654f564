#if os(Linux)
  import NetStatusLinuxTestSupport

  // The oracle's multipath rule (KernelDifferentialTests.swift): when the primary answer leaves through a link that
  // is not up with carrier, `ip route get fibmatch DEST` gives the matched route; when it is multipath, a leg that is
  // flagged neither `linkdown` nor `dead` and leaves through an eligible link the filter allows carries the family:
  // the kernel hashes other flows to it. The leg the primary names comes first when usable, else the first usable.
  extension PathOracle {
    /// One leg of a multipath route, from a fibmatch answer's `nexthops`.
    struct Leg: Equatable, Sendable {
      var device: String?
      var gateway: String?
      /// `linkdown`, `dead`, `onlink`…
      var flags: [String]

      /// Not flagged `linkdown` or `dead`.
      var isAlive: Bool { !flags.contains("linkdown") && !flags.contains("dead") }
    }

    /// The legs of `ip -j route get fibmatch`'s answer (`nexthops`); empty for a route with one next hop.
    static func legs(_ value: Any?) -> [Leg] {
      (value as? [[String: Any]] ?? []).map { object in
        Leg(
          device: object["dev"] as? String, gateway: object["gateway"] as? String,
          flags: object["flags"] as? [String] ?? [])
      }
    }

    /// The family's first candidate from the matched multipath route, when its primary leaves through a link that is
    /// not up with carrier and one of the route's legs is usable; `nil` otherwise.
    static func multipathLeg(_ family: Family, _ snapshot: Snapshot, allows: (Link) -> Bool) -> Candidate? {
      guard let primary = snapshot.primary[family], primary.isUnicast,
        let primaryLink = snapshot.link(named: primary.device), !(primaryLink.isUp && primaryLink.hasCarrier),
        let match = snapshot.primaryMatch[family], match.isUnicast
      else { return nil }
      if let source = match.preferredSource,
        !snapshot.addresses.contains(where: { $0.family == family && $0.local == source && $0.isUsable })
      {
        return nil
      }
      let usable = match.legs.compactMap { leg -> Candidate? in
        guard leg.isAlive, let link = snapshot.link(named: leg.device), link.isEligible, allows(link) else {
          return nil
        }
        return Candidate(family: family, link: link, gateway: leg.gateway, metric: match.metric)
      }
      return usable.first { $0.link.name == primary.device } ?? usable.first
    }

    /// How many families of `snapshot` have their first candidate from ``multipathLeg(_:_:allows:)``: a figure of
    /// the differential test's coverage.
    static func deadLegFamilies(_ snapshot: Snapshot) -> Int {
      Family.allCases.filter { family in
        snapshot.addresses.contains { $0.family == family && $0.isUsable }
          && multipathLeg(family, snapshot, allows: { _ in true }) != nil
      }.count
    }
  }
#endif
