#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCore
  import NetlinkTestSupport

  // A differential test against the kernel: random sequences of link, address, route, rule, nexthop and sysctl
  // changes in a namespace; after every change the monitor's path must equal the path an oracle derives from
  // nothing but `ip`'s own output (`ip route get`, `ip route get fibmatch`, `ip -j link`, `ip -j addr`).

  /// Draws for the operations, on the SplitMix64 of NetlinkDecoderTests.swift: a seed replays the same
  /// sequence on any machine and any Swift version (the standard library's `random(in:using:)` is not promised
  /// to stay the same, so it is not used).
  extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items`.
    mutating func pick<Element>(_ items: [Element]) -> Element { items[below(items.count)] }
  }

  /// The path a namespace should have, computed from `ip`'s output alone (no NetStatus code): the kernel's
  /// route lookups for a fixed off-link destination per family (lookups only: nothing is sent), the links'
  /// flags and the addresses' flags.
  ///
  /// The rules, as the Linux source follows them:
  /// - Per family, the primary answer is `ip route get DEST`. It counts when it is unicast, leaves through a
  ///   link that is up with carrier (IFF_UP and IFF_LOWER_UP), and its source (`src`) is a usable address
  ///   (not tentative, not dadfailed, not link-local, not loopback, scope neither link nor host). A failed
  ///   or unusable primary leaves the family with nothing, whatever other links could do: unbound traffic
  ///   goes where the primary says. A unicast primary through a link the monitor's filter excludes is
  ///   skipped instead: it blocks nothing.
  /// - Every other link that is up with carrier and not loopback is a candidate when
  ///   `ip route get fibmatch DEST oif L` finds a unicast entry (without fibmatch, IPv4 invents an on-link
  ///   route for any oif) and `ip route get DEST oif L` leaves through L with a usable source.
  ///   They follow the primary, by the fibmatch entry's metric, then IPv4 before IPv6, then link index.
  /// - A family with no usable address at all is not looked up.
  /// - Interfaces: IPv4's first candidate, IPv6's first, then the other candidates of both families in the
  ///   order above, each once. Gateways: the candidates' gateways in the same order, each once.
  enum PathOracle {
    static let destinationIPv4 = "8.8.8.8"
    static let destinationIPv6 = "2001:4860:4860::8888"

    enum Family: Int, CaseIterable, Sendable, CustomStringConvertible {
      case ipv4 = 4
      case ipv6 = 6

      var destination: String { self == .ipv4 ? PathOracle.destinationIPv4 : PathOracle.destinationIPv6 }
      var description: String { self == .ipv4 ? "IPv4" : "IPv6" }
    }

    /// A link, from `ip -j link show`.
    struct Link: Equatable, Sendable {
      var index: Int
      var name: String
      var flags: [String]

      var isUp: Bool { flags.contains("UP") }
      var hasCarrier: Bool { flags.contains("LOWER_UP") }
      var isLoopback: Bool { flags.contains("LOOPBACK") }
      /// Up with carrier and not loopback: worth a lookup bound to it.
      var isEligible: Bool { isUp && hasCarrier && !isLoopback }
    }

    /// An address, from `ip -j addr show`.
    struct Address: Equatable, Sendable {
      var interfaceIndex: Int
      var local: String
      var family: Family
      var scope: String
      var isTentative: Bool
      var isDADFailed: Bool

      var isLinkLocal: Bool {
        switch family {
        case .ipv4: return local.hasPrefix("169.254.")
        case .ipv6: return ["fe8", "fe9", "fea", "feb"].contains(local.lowercased().prefix(3))
        }
      }
      var isLoopback: Bool { family == .ipv4 ? local.hasPrefix("127.") : local == "::1" }
      var isUsable: Bool {
        !isTentative && !isDADFailed && !isLinkLocal && !isLoopback && scope != "link" && scope != "host"
      }
    }

    /// One answer of `ip -j route get` (plain or fibmatch).
    struct Route: Equatable, Sendable {
      /// `unicast` when `ip` prints no type.
      var type: String
      var device: String?
      var gateway: String?
      var preferredSource: String?
      /// RTA_PRIORITY; `ip` leaves it out when it is 0.
      var metric: Int
      /// A multipath route's legs (`nexthops`, in a fibmatch answer).
      var legs: [Leg] = []

      var isUnicast: Bool { type == "unicast" }
    }

    /// Everything the oracle reads, at one moment.
    struct Snapshot: Sendable {
      var links: [Link]
      var addresses: [Address]
      /// `ip route get DEST` per family; absent when it failed.
      var primary: [Family: Route]
      /// `ip route get fibmatch DEST` per family; absent when it failed.
      var primaryMatch: [Family: Route] = [:]
      /// `ip route get fibmatch DEST oif L` per family and link name; absent when it failed.
      var fibmatch: [Family: [String: Route]]
      /// `ip route get DEST oif L` per family and link name; absent when it failed.
      var bound: [Family: [String: Route]]
      /// The raw answers, for failure reports.
      var transcript: String

      func link(named name: String?) -> Link? { links.first { $0.name == name } }
    }

    /// What the test compares: the path's status, interfaces' names in order, gateways, and families.
    struct Expected: Equatable, Sendable, CustomStringConvertible {
      var status: NetworkPath.Status
      var interfaces: [String]
      var gateways: [String]
      var supportsIPv4: Bool
      var supportsIPv6: Bool

      static let unsatisfied = Expected(
        status: .unsatisfied, interfaces: [], gateways: [], supportsIPv4: false, supportsIPv6: false)

      init(status: NetworkPath.Status, interfaces: [String], gateways: [String], supportsIPv4: Bool, supportsIPv6: Bool)
      {
        self.status = status
        self.interfaces = interfaces
        self.gateways = gateways
        self.supportsIPv4 = supportsIPv4
        self.supportsIPv6 = supportsIPv6
      }

      init(_ path: NetworkPath) {
        self.init(
          status: path.status, interfaces: path.availableInterfaces.map(\.name), gateways: path.gateways,
          supportsIPv4: path.supportsIPv4, supportsIPv6: path.supportsIPv6)
      }

      var description: String {
        var families: [String] = []
        if supportsIPv4 { families.append("IPv4") }
        if supportsIPv6 { families.append("IPv6") }
        return "\(status) interfaces \(interfaces) gateways \(gateways) [\(families.joined(separator: " "))]"
      }
    }

    // MARK: Asking `ip`, in one process

    /// The commands of one `ip -j -force -batch` run that reads everything: links, addresses, the primary
    /// lookups, and both bound lookups for every link in `linkNames` and both families.
    static func batchCommands(linkNames: [String]) -> [String] {
      var commands = ["link show", "addr show"]
      for family in Family.allCases { commands.append("route get \(family.destination)") }
      for family in Family.allCases {
        for name in linkNames {
          commands.append("route get fibmatch \(family.destination) oif \(name)")
          commands.append("route get \(family.destination) oif \(name)")
        }
      }
      // Last, so that the bound lookups keep their places: the matched routes, with a multipath route's legs.
      for family in Family.allCases { commands.append("route get fibmatch \(family.destination)") }
      return commands
    }

    struct BatchMismatch: Error, CustomStringConvertible {
      var description: String
    }

    /// Splits a batch run's output into one answer per command: `nil` for a command that failed.
    ///
    /// With `-force`, `ip` goes on after a failing command and says `Command failed FILE:LINE` on standard
    /// error; with `-j` every command that succeeds prints exactly one line (a JSON array).
    static func batchOutputs(commandCount: Int, standardOutput: [String], standardError: String) throws -> [String?] {
      var failed = Set<Int>()
      for line in standardError.split(separator: "\n") where line.hasPrefix("Command failed ") {
        guard let colon = line.lastIndex(of: ":"), let number = Int(line[line.index(after: colon)...]) else {
          throw BatchMismatch(description: "unreadable failure line: \(line)")
        }
        failed.insert(number)
      }
      let lines = standardOutput.filter { !$0.isEmpty }
      guard lines.count == commandCount - failed.count, lines.allSatisfy({ $0.hasPrefix("[") }) else {
        throw BatchMismatch(
          description: "\(commandCount) commands, failed \(failed.sorted()), output lines:\n"
            + lines.joined(separator: "\n") + "\nstandard error:\n" + standardError)
      }
      var next = lines.makeIterator()
      return (1...commandCount).map { failed.contains($0) ? nil : next.next() }
    }

    /// The snapshot from a batch run of ``batchCommands(linkNames:)``.
    static func snapshot(linkNames: [String], outputs: [String?]) throws -> Snapshot {
      let commands = batchCommands(linkNames: linkNames)
      guard outputs.count == commands.count, let linkOutput = outputs[0], let addressOutput = outputs[1] else {
        throw BatchMismatch(description: "link or address listing failed: \(outputs)")
      }
      let (links, addresses) = (try links(linkOutput), try addresses(addressOutput))
      let summary = [
        "  links: "
          + links.map { "\($0.name)#\($0.index) <\($0.flags.joined(separator: ","))>" }.joined(separator: " "),
        "  addresses: "
          + addresses.map { address in
            let flags = (address.isTentative ? " tentative" : "") + (address.isDADFailed ? " dadfailed" : "")
            return "\(address.local)#\(address.interfaceIndex) (\(address.scope)\(flags))"
          }.joined(separator: " "),
      ]
      let lookups = zip(commands, outputs).dropFirst(2).map { "  ip \($0) → \($1 ?? "(failed)")" }
      var snapshot = Snapshot(
        links: links, addresses: addresses, primary: [:], fibmatch: [:], bound: [:],
        transcript: (summary + lookups).joined(separator: "\n"))
      var position = 2
      for family in Family.allCases {
        snapshot.primary[family] = try outputs[position].map(route)
        position += 1
      }
      for family in Family.allCases {
        for name in linkNames {
          if let answer = try outputs[position].map(route) { snapshot.fibmatch[family, default: [:]][name] = answer }
          if let answer = try outputs[position + 1].map(route) { snapshot.bound[family, default: [:]][name] = answer }
          position += 2
        }
      }
      for family in Family.allCases {
        snapshot.primaryMatch[family] = try outputs[position].map(route)
        position += 1
      }
      return snapshot
    }

    private static func objects(_ json: String) throws -> [[String: Any]] {
      guard let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else {
        throw BatchMismatch(description: "not a JSON array of objects: \(json)")
      }
      return objects
    }

    /// Links from `ip -j link show`.
    static func links(_ json: String) throws -> [Link] {
      try objects(json).map { object in
        guard let index = object["ifindex"] as? Int, let name = object["ifname"] as? String else {
          throw BatchMismatch(description: "a link without index or name: \(object)")
        }
        return Link(index: index, name: name, flags: object["flags"] as? [String] ?? [])
      }
    }

    /// Addresses from `ip -j addr show`.
    static func addresses(_ json: String) throws -> [Address] {
      try objects(json).flatMap { object -> [Address] in
        guard let index = object["ifindex"] as? Int else {
          throw BatchMismatch(description: "a link without index: \(object)")
        }
        return (object["addr_info"] as? [[String: Any]] ?? []).compactMap { info in
          guard let local = info["local"] as? String, let family = info["family"] as? String,
            family == "inet" || family == "inet6"
          else { return nil }
          return Address(
            interfaceIndex: index, local: local, family: family == "inet" ? .ipv4 : .ipv6,
            scope: info["scope"] as? String ?? "global", isTentative: info["tentative"] as? Bool ?? false,
            isDADFailed: info["dadfailed"] as? Bool ?? false)
        }
      }
    }

    /// The one answer of `ip -j route get …`.
    static func route(_ json: String) throws -> Route {
      guard let object = try objects(json).first else { throw BatchMismatch(description: "no route in \(json)") }
      return Route(
        type: object["type"] as? String ?? "unicast", device: object["dev"] as? String,
        gateway: object["gateway"] as? String, preferredSource: object["prefsrc"] as? String,
        metric: object["metric"] as? Int ?? 0, legs: legs(object["nexthops"]))
    }

    // MARK: The rules

    struct Candidate {
      var family: Family
      var link: Link
      var gateway: String?
      var metric: Int
    }

    /// The path the rules give for `snapshot`, when the monitor's filter allows the links `allows` accepts.
    static func expectedPath(_ snapshot: Snapshot, allows: (Link) -> Bool = { _ in true }) -> Expected {
      var firsts: [Candidate] = []
      var others: [Candidate] = []
      for family in Family.allCases {
        let ordered = candidates(family, snapshot, allows: allows)
        guard let first = ordered.first else { continue }
        firsts.append(first)
        others += ordered.dropFirst()
      }
      guard !firsts.isEmpty else { return .unsatisfied }
      others.sort { byPreference($0, $1) }
      var interfaces: [String] = []
      var gateways: [String] = []
      for candidate in firsts + others {
        if !interfaces.contains(candidate.link.name) { interfaces.append(candidate.link.name) }
        if let gateway = candidate.gateway, !gateways.contains(gateway) { gateways.append(gateway) }
      }
      return Expected(
        status: .satisfied, interfaces: interfaces, gateways: gateways,
        supportsIPv4: firsts.contains { $0.family == .ipv4 }, supportsIPv6: firsts.contains { $0.family == .ipv6 })
    }

    private static func byPreference(_ a: Candidate, _ b: Candidate) -> Bool {
      (a.metric, a.family.rawValue, a.link.index) < (b.metric, b.family.rawValue, b.link.index)
    }

    /// A family's candidates, the primary (when it counts) first.
    private static func candidates(_ family: Family, _ snapshot: Snapshot, allows: (Link) -> Bool) -> [Candidate] {
      guard snapshot.addresses.contains(where: { $0.family == family && $0.isUsable }),
        let primary = snapshot.primary[family]
      else { return [] }
      var result: [Candidate] = []
      let primaryLink = snapshot.link(named: primary.device)
      if primary.isUnicast, let primaryLink, !allows(primaryLink) {
        // Through a link the filter excludes: skipped, not blocking.
      } else if let primaryLink, isUsable(primary, family, snapshot) {
        result.append(Candidate(family: family, link: primaryLink, gateway: primary.gateway, metric: primary.metric))
      } else if let leg = multipathLeg(family, snapshot, allows: allows) {
        result.append(leg)
      } else {
        return []
      }
      var others: [Candidate] = []
      for link in snapshot.links where link.isEligible && allows(link) && link.name != result.first?.link.name {
        guard let match = snapshot.fibmatch[family]?[link.name], match.isUnicast,
          let bound = snapshot.bound[family]?[link.name], bound.device == link.name,
          isUsable(bound, family, snapshot)
        else { continue }
        others.append(Candidate(family: family, link: link, gateway: bound.gateway, metric: match.metric))
      }
      return result + others.sorted { byPreference($0, $1) }
    }

    /// Unicast, out through a link that is up with carrier, from a usable address of the family.
    private static func isUsable(_ route: Route, _ family: Family, _ snapshot: Snapshot) -> Bool {
      guard route.isUnicast, let link = snapshot.link(named: route.device), link.isUp, link.hasCarrier,
        let source = route.preferredSource
      else { return false }
      return snapshot.addresses.contains { $0.family == family && $0.local == source && $0.isUsable }
    }
  }

  /// A watched namespace with veth links `v0`, `v1`… whose peers `p0`, `p1`… live in a peer namespace, so
  /// that a test drops a link's carrier by setting its peer down. Delete it with ``delete()`` in a `defer`.
  ///
  /// Addressing: link i has 192.0.2.0/24, 198.51.100.0/24 or 203.0.113.0/24 and 2001:db8:i::/64. IPv6 DAD
  /// is off (TestNamespace), except on the `tentativeLink`, where it is on with a day between probes: an
  /// address added there without `nodad` stays tentative for the whole test.
  struct PathLab: Sendable {
    static let subnets = ["192.0.2", "198.51.100", "203.0.113"]

    /// Link `index`'s IPv6 /64, as `ip` prints it (`2001:db8::`, `2001:db8:1::`…).
    static func ipv6Prefix(_ index: Int) -> String { index == 0 ? "2001:db8::" : "2001:db8:\(index)::" }

    let watched: TestNamespace
    let peer: TestNamespace
    let linkNames: [String]
    private let oracleBatch: URL
    private let oracleCommandCount: Int

    init(_ label: String, links count: Int = 2, tentativeLink: Int? = nil) throws {
      precondition((1...Self.subnets.count).contains(count))
      watched = try TestNamespace(label)
      do {
        peer = try TestNamespace(label + "p")
      } catch {
        watched.delete()
        throw error
      }
      linkNames = (0..<count).map { "v\($0)" }
      let commands = PathOracle.batchCommands(linkNames: linkNames)
      oracleCommandCount = commands.count
      oracleBatch = FileManager.default.temporaryDirectory.appendingPathComponent("\(watched.name)-oracle.batch")
      do {
        try commands.joined(separator: "\n").appending("\n").write(to: oracleBatch, atomically: true, encoding: .utf8)
        // A fixed multipath hash seed (Linux 6.11 and later; older kernels have no such setting), so that the hop
        // a lookup picks, and so a replayed seed, is the same on every machine and every boot.
        _ = try? watched.exec(["sysctl", "-q", "-w", "net.ipv4.fib_multipath_hash_seed=1"])
        for index in 0..<count {
          try watched.ip("link add v\(index) type veth peer name p\(index) netns \(peer.name)")
          if index == tentativeLink {
            try watched.exec([
              "sysctl", "-q", "-w", "net.ipv6.conf.v\(index).accept_dad=1", "net.ipv6.conf.v\(index).dad_transmits=1",
              "net.ipv6.neigh.v\(index).retrans_time_ms=86400000",
            ])
          }
          try peer.ip("link set p\(index) up")
          try watched.ip("link set v\(index) up")
        }
      } catch {
        delete()
        throw error
      }
    }

    func delete() {
      watched.delete()
      peer.delete()
      try? FileManager.default.removeItem(at: oracleBatch)
    }

    /// Starts a source on the watched namespace with a recorder as its sink.
    func start(filter: InterfaceFilter = .unrestricted) throws -> (
      session: any PathSourceSession, recorder: PathRecorder
    ) {
      let source = try NetlinkPathSource(networkNamespace: watched.name)
      let recorder = PathRecorder()
      return (try source.start(filter: filter, sink: recorder.sink), recorder)
    }

    /// What `ip` says now, read by one `ip -j -force -batch` process.
    func snapshot() throws -> PathOracle.Snapshot {
      guard let ipPath = KernelTestSupport.ipPath else { throw PathOracle.BatchMismatch(description: "no ip") }
      let child = try ChildProcess(
        executable: ipPath, ["-n", watched.name, "-j", "-force", "-batch", oracleBatch.path])
      _ = child.waitUntilExit()  // 1 when a lookup failed, which is an answer too
      let outputs = try PathOracle.batchOutputs(
        commandCount: oracleCommandCount, standardOutput: child.lines.values, standardError: child.errorOutput)
      return try PathOracle.snapshot(linkNames: linkNames, outputs: outputs)
    }

    /// The path the oracle expects now.
    func expected() throws -> PathOracle.Expected { PathOracle.expectedPath(try snapshot()) }

    /// How waiting for the monitor to reach the oracle's path ended.
    enum Convergence {
      /// The monitor's latest path is this, the oracle's; `deadLegs`: how many families a multipath leg carries
      /// while the kernel's own leg has no carrier.
      case reached(PathOracle.Expected, deadLegs: Int)
      /// It was not within the timeout: what the oracle expected, what the monitor had, what `ip` said.
      case missed(String)
    }

    /// Waits until the recorder's latest path equals what the oracle expects. When it does not within
    /// `timeout`, asks the oracle again (the kernel finishes some changes in its own work, after the command
    /// returned) and waits for the new answer; misses when the truth held still and the monitor did not
    /// reach it.
    func converge(_ recorder: PathRecorder, timeout: Duration) async throws -> Convergence {
      var snapshot = try snapshot()
      var expected = PathOracle.expectedPath(snapshot)
      for _ in 0..<3 {
        let wanted = expected
        if await recorder.waitForLatest(timeout: timeout, { PathOracle.Expected($0) == wanted }) {
          return .reached(wanted, deadLegs: PathOracle.deadLegFamilies(snapshot))
        }
        let again = try self.snapshot()
        let expectedAgain = PathOracle.expectedPath(again)
        if expectedAgain == expected {
          let latest = recorder.latest.map { "\(PathOracle.Expected($0)) (\($0))" } ?? "none"
          return .missed(
            """
            expected (from ip): \(expected)
            monitor's latest:   \(latest)
            what ip said:
            \(again.transcript)
            """)
        }
        (snapshot, expected) = (again, expectedAgain)
      }
      return .missed("the kernel's answer kept changing; last: \(expected)\n\(snapshot.transcript)")
    }
  }

  /// The random operations of the differential test, and the removals they make possible.
  struct DifferentialScript {
    enum Place: Sendable {
      /// `ip -n WATCHED …`
      case watched
      /// `ip -n PEER …`
      case peer
      /// `ip netns exec WATCHED sysctl -q -w …`
      case sysctl
    }

    struct Command: Sendable, CustomStringConvertible {
      var place: Place
      var text: String

      var description: String {
        switch place {
        case .watched: return "ip \(text)"
        case .peer: return "ip -n PEER \(text)"
        case .sysctl: return "sysctl -w \(text)"
        }
      }
    }

    struct Step: Sendable {
      var commands: [Command]
      /// Removals this step makes possible when one of its commands succeeds, offered to later steps.
      var removals: [[Command]] = []
      /// Whether what the step adds blocks a whole family (a reject default, an unreachable rule): its removal
      /// is drawn sooner, so that most steps happen where there is a path to lose.
      var blocks = false
    }

    private var random: SplitMix64
    private var removals: [[Command]] = []
    private var blockerRemovals: [[Command]] = []
    private let linkCount: Int
    private let tentativeLink: Int?

    /// Steps to take before random ones: an IPv4 and an IPv6 address on every link, so that routes have
    /// gateways to go through from the start.
    private var pending: [Step]

    init(seed: UInt64, linkCount: Int, tentativeLink: Int?) {
      random = SplitMix64(seed: seed)
      self.linkCount = linkCount
      self.tentativeLink = tentativeLink
      pending = (0..<linkCount).flatMap { index in
        ["\(PathLab.subnets[index]).10/24", "\(PathLab.ipv6Prefix(index))10/64"].map { address in
          let nodad = address.contains(":") && index != tentativeLink ? " nodad" : ""
          return Step(
            commands: [Self.watched("addr add \(address) dev v\(index)\(nodad)")],
            removals: [[Self.watched("addr del \(address) dev v\(index)")]])
        }
      }
    }

    /// Offers the step's removals to later steps (call when one of its commands succeeded).
    mutating func succeeded(_ step: Step) {
      if step.blocks { blockerRemovals += step.removals } else { removals += step.removals }
    }

    private static func watched(_ text: String) -> Command { Command(place: .watched, text: text) }

    private mutating func link() -> Int { random.below(linkCount) }

    private mutating func family() -> PathOracle.Family { random.chance(50) ? .ipv4 : .ipv6 }

    private static func prefix(_ family: PathOracle.Family) -> String { family == .ipv4 ? "" : "-6 " }

    /// A gateway on link `index`, or `nil` for a device route.
    private mutating func gateway(_ family: PathOracle.Family, link index: Int) -> String? {
      switch family {
      case .ipv4: return random.chance(15) ? nil : "\(PathLab.subnets[index]).\(random.pick([1, 2]))"
      case .ipv6:
        let prefix = PathLab.ipv6Prefix(index)
        return random.chance(10) ? nil : random.pick(["\(prefix)1", "\(prefix)2", "fe80::1"])
      }
    }

    private mutating func metric() -> String { random.pick(["", " metric 10", " metric 100", " metric 1024"]) }

    private static func via(_ gateway: String?) -> String { gateway.map { " via \($0)" } ?? "" }

    mutating func next() -> Step {
      if !pending.isEmpty { return pending.removeFirst() }
      switch random.below(100) {
      case 0..<6:
        return Step(commands: [Self.watched("link set v\(link()) \(random.chance(25) ? "down" : "up")")])
      case 6..<11:
        return Step(commands: [Command(place: .peer, text: "link set p\(link()) \(random.chance(25) ? "down" : "up")")])
      case 11..<18:
        let index = link()
        let address =
          random.chance(10) ? "169.254.\(index).10/16" : "\(PathLab.subnets[index]).\(random.pick([10, 11]))/24"
        return Step(
          commands: [Self.watched("addr add \(address) dev v\(index)")],
          removals: [[Self.watched("addr del \(address) dev v\(index)")]])
      case 18..<25:
        let index = link()
        let address = "\(PathLab.ipv6Prefix(index))\(random.pick([10, 11]))/64"
        // DAD is off except on the tentative link, where an address without nodad stays tentative.
        let nodad = index != tentativeLink || random.chance(40) ? " nodad" : ""
        return Step(
          commands: [Self.watched("addr add \(address) dev v\(index)\(nodad)")],
          removals: [[Self.watched("addr del \(address) dev v\(index)")]])
      case 25..<45:
        let (family, index) = (family(), link())
        let (gateway, metric) = (gateway(family, link: index), metric())
        let verb = random.pick(["add", "add", "append", "replace", "prepend"])
        let route = { (verb: String) in
          "\(Self.prefix(family))route \(verb) default\(Self.via(gateway)) dev v\(index)\(metric)"
        }
        return Step(commands: [Self.watched(route(verb))], removals: [[Self.watched(route("del"))]])
      case 45..<50:
        return multipath()
      case 50..<53:
        let (family, type, metric) = (family(), random.pick(["unreachable", "blackhole", "prohibit"]), metric())
        let route = { (verb: String) in "\(Self.prefix(family))route \(verb) \(type) default\(metric)" }
        return Step(commands: [Self.watched(route("add"))], removals: [[Self.watched(route("del"))]], blocks: true)
      case 53..<57:
        let (family, index) = (family(), link())
        let gateway = gateway(family, link: index)
        let halves = family == .ipv4 ? ["0.0.0.0/1", "128.0.0.0/1"] : ["::/1", "8000::/1"]
        let routes = { (verb: String) in
          halves.map { Self.watched("\(Self.prefix(family))route \(verb) \($0)\(Self.via(gateway)) dev v\(index)") }
        }
        return Step(commands: routes("add"), removals: [routes("del")])
      case 57..<61:
        let (family, index) = (family(), link())
        let target =
          random.chance(20)
          ? "unreachable default" : "default\(Self.via(gateway(family, link: index))) dev v\(index)"
        let metric = metric()
        let route = { (verb: String) in "\(Self.prefix(family))route \(verb) \(target) table 100\(metric)" }
        return Step(commands: [Self.watched(route("add"))], removals: [[Self.watched(route("del"))]])
      case 61..<64:
        let family = family()
        return Step(
          commands: [Self.watched("\(Self.prefix(family))rule add pref 1000 lookup 100")],
          removals: [[Self.watched("\(Self.prefix(family))rule del pref 1000")]])
      case 64..<66:
        let family = family()
        return Step(
          commands: [Self.watched("\(Self.prefix(family))rule add pref 900 unreachable")],
          removals: [[Self.watched("\(Self.prefix(family))rule del pref 900")]], blocks: true)
      case 66..<74:
        return nexthop()
      case 74..<75:
        return Step(commands: [Command(place: .sysctl, text: "net.ipv4.nexthop_compat_mode=\(random.below(2))")])
      default:
        if !blockerRemovals.isEmpty && random.chance(50) {
          return Step(commands: blockerRemovals.remove(at: random.below(blockerRemovals.count)))
        }
        guard !removals.isEmpty else { return Step(commands: [Self.watched("link set v\(link()) up")]) }
        return Step(commands: removals.remove(at: random.below(removals.count)))
      }
    }

    /// A multipath default over two different links, sometimes with one leg's carrier dropped; its hops can later
    /// be deleted together or (IPv6) one by one.
    private mutating func multipath() -> Step {
      let family = family()
      let first = link()
      let second = (first + 1 + random.below(linkCount - 1)) % linkCount
      let metric = metric()
      let hops = [first, second].map { index in
        (index, gateway(family, link: index) ?? (family == .ipv4 ? "\(PathLab.subnets[index]).1" : "fe80::1"))
      }
      let nexthops = hops.map { " nexthop via \($1) dev v\($0)" }.joined()
      let prefix = Self.prefix(family)
      var removals = [[Self.watched("\(prefix)route del default\(metric)\(nexthops)")]]
      if family == .ipv6 {
        removals += hops.map { [Self.watched("\(prefix)route del default via \($1) dev v\($0)\(metric)")] }
      }
      var commands = [Self.watched("\(prefix)route add default\(metric)\(nexthops)")]
      // A leg that loses carrier (RTNH_F_LINKDOWN): the kernel still hashes some destinations to it.
      if random.chance(40) {
        commands.append(Command(place: .peer, text: "link set p\(random.pick([first, second])) down"))
      }
      return Step(commands: commands, removals: removals)
    }

    /// Nexthop objects: IPv4 ids 1–3 and group 20, IPv6 ids 11–13 and group 21, blackholes 5 (IPv4) and 6
    /// (IPv6); routes through them; deleting one that a route uses.
    private mutating func nexthop() -> Step {
      let family = family()
      let prefix = Self.prefix(family)
      let singles = family == .ipv4 ? [1, 2, 3] : [11, 12, 13]
      let group = family == .ipv4 ? 20 : 21
      switch random.below(10) {
      case 0..<3:
        let (id, index) = (random.pick(singles), link())
        let target =
          family == .ipv4 && random.chance(15)
          ? "dev v\(index)"
          : "via \(gateway(family, link: index) ?? (family == .ipv4 ? "\(PathLab.subnets[index]).1" : "fe80::1")) dev v\(index)"
        let verb = random.chance(25) ? "replace" : "add"
        return Step(
          commands: [Self.watched("\(prefix)nexthop \(verb) id \(id) \(target)")],
          removals: [[Self.watched("nexthop del id \(id)")]])
      case 3..<5:
        let members = singles.filter { _ in random.chance(70) }
        let list = (members.isEmpty ? [singles[0]] : members).map(String.init).joined(separator: "/")
        return Step(
          commands: [Self.watched("nexthop \(random.chance(25) ? "replace" : "add") id \(group) group \(list)")],
          removals: [[Self.watched("nexthop del id \(group)")]])
      case 5:
        let id = family == .ipv4 ? 5 : 6
        return Step(
          commands: [Self.watched("\(prefix)nexthop add id \(id) blackhole")],
          removals: [[Self.watched("nexthop del id \(id)")]])
      case 6..<9:
        let id = random.pick(singles + [group, group, family == .ipv4 ? 5 : 6])
        let (metric, verb) = (metric(), random.chance(20) ? "replace" : "add")
        let route = { (verb: String) in "\(prefix)route \(verb) default nhid \(id)\(metric)" }
        return Step(commands: [Self.watched(route(verb))], removals: [[Self.watched(route("del"))]])
      default:
        return Step(commands: [Self.watched("nexthop del id \(random.pick(singles + [group]))")])
      }
    }
  }

  extension PathLab {
    /// Runs a step's commands; returns each as run, marked `[rejected: ERROR]` when `ip` refused it, for the
    /// step list.
    func perform(_ step: DifferentialScript.Step) -> (anySucceeded: Bool, outcomes: [String]) {
      var anySucceeded = false
      var outcomes: [String] = []
      for command in step.commands {
        let arguments = command.text.split(separator: " ").map(String.init)
        do {
          switch command.place {
          case .watched: try KernelTestSupport.run(["-n", watched.name] + arguments)
          case .peer: try KernelTestSupport.run(["-n", peer.name] + arguments)
          case .sysctl: try watched.exec(["sysctl", "-q", "-w"] + arguments)
          }
          anySucceeded = true
          outcomes.append("\(command)")
        } catch let failure as KernelTestSupport.CommandFailed {
          let reason = failure.output.split(separator: "\n").first.map(String.init) ?? "exit \(failure.status)"
          outcomes.append("\(command)  [rejected: \(reason)]")
        } catch {
          outcomes.append("\(command)  [could not run: \(error)]")
        }
      }
      return (anySucceeded, outcomes)
    }
  }

  @Suite("differential: the monitor's path against the kernel's own lookups")
  struct KernelDifferentialTests {
    /// Steps per run: 500, or `NETSTATUS_DIFFERENTIAL_STEPS`.
    static var steps: Int {
      ProcessInfo.processInfo.environment["NETSTATUS_DIFFERENTIAL_STEPS"].flatMap(Int.init) ?? 500
    }

    /// `NETSTATUS_DIFFERENTIAL_SEED` (decimal or 0x-hexadecimal) to replay a run; a new seed otherwise.
    static var seed: UInt64 {
      guard let text = ProcessInfo.processInfo.environment["NETSTATUS_DIFFERENTIAL_SEED"] else {
        return UInt64.random(in: .min ... .max)
      }
      if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) ?? 0 }
      return UInt64(text) ?? 0
    }

    @Test(
      "after every step of a seeded random sequence, the monitor's path is what ip's lookups say",
      .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
    func monitorFollowsTheKernel() async throws {
      let (seed, steps) = (Self.seed, Self.steps)
      let replay =
        "NETSTATUS_DIFFERENTIAL_SEED=\(seed) NETSTATUS_DIFFERENTIAL_STEPS=\(steps) "
        + "swift test --filter KernelDifferentialTests"
      let lab = try PathLab("diff", links: 3, tentativeLink: 2)
      defer { lab.delete() }
      let (session, recorder) = try lab.start()
      defer { session.stop() }
      var script = DifferentialScript(seed: seed, linkCount: 3, tentativeLink: 2)
      var log: [String] = []
      var coverage = Coverage()
      let clock = ContinuousClock()
      let started = clock.now

      for number in 0...steps {
        if number > 0 {
          let step = script.next()
          let (anySucceeded, outcomes) = lab.perform(step)
          if anySucceeded { script.succeeded(step) } else { coverage.rejected += 1 }
          log.append("\(number). " + outcomes.joined(separator: "; "))
        }
        switch try await lab.converge(recorder, timeout: .seconds(3)) {
        case .reached(let path, let deadLegs):
          coverage.count(path)
          coverage.deadLegFamilies += deadLegs
        case .missed(let mismatch):
          Issue.record(
            """
            The monitor's path differs from the kernel's after step \(number) of \(steps), seed \(seed).
            Replay: \(replay)
            \(mismatch)
            Steps (ip = ip -n WATCHED; v0–v2 are watched, p0–p2 their peers; v2 has DAD on):
            \(log.joined(separator: "\n"))
            """)
          return
        }
      }
      print("KernelDifferentialTests: \(steps) steps in \(clock.now - started), seed \(seed); \(coverage)")
    }

    /// What a run went through, printed so that a change to the operations that makes runs dull shows.
    struct Coverage: CustomStringConvertible {
      var rejected = 0
      var changes = 0
      var satisfied = 0
      var bothFamilies = 0
      var severalInterfaces = 0
      var deadLegFamilies = 0
      private var previous: PathOracle.Expected?

      mutating func count(_ path: PathOracle.Expected) {
        if path != previous { changes += 1 }
        previous = path
        if path.status == .satisfied { satisfied += 1 }
        if path.supportsIPv4 && path.supportsIPv6 { bothFamilies += 1 }
        if path.interfaces.count > 1 { severalInterfaces += 1 }
      }

      var description: String {
        "\(rejected) steps rejected by ip, \(changes) path changes; paths checked: \(satisfied) satisfied, "
          + "\(bothFamilies) with both families, \(severalInterfaces) with several interfaces, "
          + "\(deadLegFamilies) families carried by a multipath leg past a leg without carrier"
      }
    }

    @Test("SplitMix64 gives the reference sequence, so a seed replays anywhere")
    func splitMix64() {
      var random = SplitMix64(seed: 0)
      #expect(
        [random.next(), random.next(), random.next()] == [
          0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
        ])
    }

    // Captured from `ip -n NS -j -force -batch FILE` (iproute2 6.1, Linux 6.18) in a lab of two veth links:
    // 192.0.2.10/24 and 2001:db8::10/64 (nodad) on v0; 198.51.100.10/24 and 2001:db8:1::10/64 on v1, which has
    // DAD on (accept_dad=1, an hour between probes: tentative); an IPv4 default via 192.0.2.1 dev v0 metric
    // 100, a default via 198.51.100.1 dev v1 metric 50 in table 100 (no rule), an IPv6 default via fe80::1
    // dev v1; then v1's peer set down. v1 has lost LOWER_UP while its operstate still says UP.
    static let capturedLinks =
      #"[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00"},{"ifindex":2,"link_index":2,"ifname":"v0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"ea:89:a6:89:59:ba","broadcast":"ff:ff:ff:ff:ff:ff","link_netnsid":0},{"ifindex":3,"link_index":3,"ifname":"v1","flags":["BROADCAST","MULTICAST","UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"42:38:41:90:33:c9","broadcast":"ff:ff:ff:ff:ff:ff","link_netnsid":0}]"#
    static let capturedAddresses =
      #"[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00","addr_info":[{"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo","valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"::1","prefixlen":128,"scope":"host","valid_life_time":4294967295,"preferred_life_time":4294967295}]},{"ifindex":2,"link_index":2,"ifname":"v0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"ea:89:a6:89:59:ba","broadcast":"ff:ff:ff:ff:ff:ff","link_netnsid":0,"addr_info":[{"family":"inet","local":"192.0.2.10","prefixlen":24,"scope":"global","label":"v0","valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"2001:db8::10","prefixlen":64,"scope":"global","nodad":true,"valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"fe80::e889:a6ff:fe89:59ba","prefixlen":64,"scope":"link","valid_life_time":4294967295,"preferred_life_time":4294967295}]},{"ifindex":3,"link_index":3,"ifname":"v1","flags":["BROADCAST","MULTICAST","UP"],"mtu":1500,"qdisc":"noqueue","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"42:38:41:90:33:c9","broadcast":"ff:ff:ff:ff:ff:ff","link_netnsid":0,"addr_info":[{"family":"inet","local":"198.51.100.10","prefixlen":24,"scope":"global","label":"v1","valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"2001:db8:1::10","prefixlen":64,"scope":"global","tentative":true,"valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"fe80::4038:41ff:fe90:33c9","prefixlen":64,"scope":"link","tentative":true,"valid_life_time":4294967295,"preferred_life_time":4294967295}]}]"#
    static let capturedOutput = [
      capturedLinks, capturedAddresses,
      #"[{"dst":"8.8.8.8","gateway":"192.0.2.1","dev":"v0","prefsrc":"192.0.2.10","flags":[],"uid":0,"cache":[]}]"#,
      #"[{"dst":"2001:4860:4860::8888","from":"::","gateway":"fe80::1","dev":"v1","prefsrc":"2001:db8::10","metric":1024,"flags":[],"pref":"medium"}]"#,
      #"[{"dst":"default","gateway":"192.0.2.1","dev":"v0","metric":100,"flags":[]}]"#,
      #"[{"dst":"8.8.8.8","gateway":"192.0.2.1","dev":"v0","prefsrc":"192.0.2.10","flags":[],"uid":0,"cache":[]}]"#,
      // Line 7, fibmatch through v1, failed: no FIB entry in the tables the rules consult leaves through v1.
      // Line 8, the plain lookup bound to v1, answers all the same: the kernel invents an on-link route.
      #"[{"dst":"8.8.8.8","dev":"v1","prefsrc":"198.51.100.10","flags":[],"uid":0,"cache":[]}]"#,
      // Lines 9 and 10 (IPv6 through v0) failed.
      #"[{"dst":"default","gateway":"fe80::1","dev":"v1","metric":1024,"flags":[],"pref":"medium"}]"#,
      #"[{"dst":"2001:4860:4860::8888","from":"::","gateway":"fe80::1","dev":"v1","prefsrc":"2001:db8::10","metric":1024,"flags":[],"pref":"medium"}]"#,
      // Lines 13 and 14, the fibmatch lookups of the primaries, were added by hand when the oracle began asking
      // them, in the shape of lines 5 and 9 (PathOracleMultipathTests has captured multipath answers).
      #"[{"dst":"default","gateway":"192.0.2.1","dev":"v0","metric":100,"flags":[]}]"#,
      #"[{"dst":"default","gateway":"fe80::1","dev":"v1","metric":1024,"flags":["linkdown"],"pref":"medium"}]"#,
    ]
    static let capturedErrors = """
      RTNETLINK answers: No route to host
      Command failed /tmp/nstest.batch:7
      RTNETLINK answers: Network is unreachable
      Command failed /tmp/nstest.batch:9
      RTNETLINK answers: Network is unreachable
      Command failed /tmp/nstest.batch:10

      """

    @Test("the oracle reads a batch run: failures by line, links, addresses, lookups, and the path they give")
    func oracleParsesCapturedOutput() throws {
      let commands = PathOracle.batchCommands(linkNames: ["v0", "v1"])
      #expect(
        commands == [
          "link show", "addr show", "route get 8.8.8.8", "route get 2001:4860:4860::8888",
          "route get fibmatch 8.8.8.8 oif v0", "route get 8.8.8.8 oif v0", "route get fibmatch 8.8.8.8 oif v1",
          "route get 8.8.8.8 oif v1", "route get fibmatch 2001:4860:4860::8888 oif v0",
          "route get 2001:4860:4860::8888 oif v0", "route get fibmatch 2001:4860:4860::8888 oif v1",
          "route get 2001:4860:4860::8888 oif v1", "route get fibmatch 8.8.8.8",
          "route get fibmatch 2001:4860:4860::8888",
        ])
      let outputs = try PathOracle.batchOutputs(
        commandCount: commands.count, standardOutput: Self.capturedOutput, standardError: Self.capturedErrors)
      #expect(
        outputs.map { $0 == nil } == [
          false, false, false, false, false, false, true, false, true, true, false, false, false, false,
        ])
      var snapshot = try PathOracle.snapshot(linkNames: ["v0", "v1"], outputs: outputs)

      #expect(snapshot.links.map(\.name) == ["lo", "v0", "v1"])
      #expect(snapshot.links.map(\.isEligible) == [false, true, false])
      #expect(snapshot.links[2].isUp && !snapshot.links[2].hasCarrier)
      #expect(
        snapshot.addresses.map(\.local) == [
          "127.0.0.1", "::1", "192.0.2.10", "2001:db8::10", "fe80::e889:a6ff:fe89:59ba", "198.51.100.10",
          "2001:db8:1::10", "fe80::4038:41ff:fe90:33c9",
        ])
      #expect(snapshot.addresses.map(\.isUsable) == [false, false, true, true, false, true, false, false])
      #expect(snapshot.addresses[6].isTentative && snapshot.addresses[6].interfaceIndex == 3)
      #expect(
        snapshot.primary[.ipv4]
          == PathOracle.Route(
            type: "unicast", device: "v0", gateway: "192.0.2.1", preferredSource: "192.0.2.10", metric: 0))
      #expect(snapshot.fibmatch[.ipv4]?["v0"]?.metric == 100)
      #expect(snapshot.fibmatch[.ipv4]?["v1"] == nil)
      #expect(snapshot.bound[.ipv4]?["v1"]?.device == "v1")
      #expect(snapshot.fibmatch[.ipv6]?["v0"] == nil)
      #expect(snapshot.fibmatch[.ipv6]?["v1"]?.metric == 1024)

      // IPv4 through v0; IPv6's primary leaves through v1, which has no carrier: IPv6 has nothing, although a
      // usable address (2001:db8::10) is its source.
      #expect(
        PathOracle.expectedPath(snapshot)
          == PathOracle.Expected(
            status: .satisfied, interfaces: ["v0"], gateways: ["192.0.2.1"], supportsIPv4: true, supportsIPv6: false))
      // A filter that excludes v0: the IPv4 primary is skipped, and v1 is no candidate (no carrier, no fibmatch).
      #expect(PathOracle.expectedPath(snapshot) { $0.name != "v0" } == .unsatisfied)

      // v1 gets carrier back, and a rule makes table 100 reachable: fibmatch answers as it does under
      // nexthop_compat_mode=0 for a route through a nexthop object (captured: the id and no device).
      snapshot.links[2].flags.append("LOWER_UP")
      snapshot.fibmatch[.ipv4, default: [:]]["v1"] = try PathOracle.route(
        #"[{"dst":"default","nhid":10,"metric":30,"flags":[]}]"#)
      snapshot.bound[.ipv4]?["v1"] = try PathOracle.route(
        #"[{"dst":"8.8.8.8","gateway":"198.51.100.1","dev":"v1","table":"100","prefsrc":"198.51.100.10","flags":[],"uid":0,"cache":[]}]"#
      )
      // IPv4: v0 (the primary), then v1. IPv6: v1, the primary. Gateways: IPv4's first, IPv6's first, the rest.
      #expect(
        PathOracle.expectedPath(snapshot)
          == PathOracle.Expected(
            status: .satisfied, interfaces: ["v0", "v1"], gateways: ["192.0.2.1", "fe80::1", "198.51.100.1"],
            supportsIPv4: true, supportsIPv6: true))
      // Only tentative and link-local IPv6 addresses left: IPv6 is not looked up at all.
      snapshot.addresses.removeAll { $0.local == "2001:db8::10" }
      #expect(PathOracle.expectedPath(snapshot).supportsIPv6 == false)
      // A primary that is not unicast (`ip` prints its type, captured from a lookup of a local address) blocks
      // IPv4, although v1 would work.
      snapshot.primary[.ipv4] = try PathOracle.route(
        #"[{"type":"local","dst":"192.0.2.10","dev":"lo","prefsrc":"192.0.2.10","flags":[],"uid":0,"cache":["local"]}]"#
      )
      #expect(PathOracle.expectedPath(snapshot) == .unsatisfied)
      // A primary without a source (captured: `default dev v2` with no IPv4 address anywhere) does not count.
      snapshot.primary[.ipv4] = try PathOracle.route(
        #"[{"dst":"8.8.8.8","dev":"v0","flags":[],"uid":0,"cache":[]}]"#)
      #expect(PathOracle.expectedPath(snapshot) == .unsatisfied)
    }

    @Test("a batch whose output does not match its commands is an error, not a guess")
    func oracleRejectsMismatchedBatch() {
      #expect(throws: PathOracle.BatchMismatch.self) {
        try PathOracle.batchOutputs(commandCount: 3, standardOutput: ["[]"], standardError: "")
      }
      #expect(throws: PathOracle.BatchMismatch.self) {
        try PathOracle.batchOutputs(commandCount: 2, standardOutput: ["[]", "oops"], standardError: "")
      }
    }
  }
#endif
