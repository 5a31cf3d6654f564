import NetStatusCore

/// A link's operational state as systemd-networkd names it (`networkctl`, `systemd-networkd-wait-online -i
/// NAME:STATE`), and how it is judged from the kernel's link flags and addresses alone where networkd's own state is
/// not read (no networkd, or a namespace it does not manage). Pure.
///
/// The kernel's judgement follows networkd's `link_update_operstate` (systemd 252): a carrier state (off,
/// no-carrier, dormant, carrier; `enslaved` for a port of a bridge or bond, `degraded-carrier` for a bridge or bond
/// with carrier some of whose ports have none) combined with an address state: a ready address (not tentative, not
/// dadfailed) of global scope makes the link `routable`, one of link or site scope (an IPv6 link-local address)
/// `degraded`; host-scope addresses (`127.0.0.1`) do not count. Without carrier the carrier state is the operational
/// state, whatever the addresses; an enslaved port with only link-local addresses stays `enslaved`.
enum OperationalState: Int, CaseIterable, Comparable, CustomStringConvertible {
  case missing, off, noCarrier, dormant, degradedCarrier, carrier, degraded, enslaved, routable

  /// networkd's name: `no-carrier`, `routable`…
  var description: String {
    switch self {
    case .missing: "missing"
    case .off: "off"
    case .noCarrier: "no-carrier"
    case .dormant: "dormant"
    case .degradedCarrier: "degraded-carrier"
    case .carrier: "carrier"
    case .degraded: "degraded"
    case .enslaved: "enslaved"
    case .routable: "routable"
    }
  }

  /// The state networkd names `name`, if any.
  init?(name: String) {
    guard let state = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = state
  }

  static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// An address state as networkd names it (`IPV4_ADDRESS_STATE`…): the best ready address of a family.
  enum AddressState: Int, Comparable, CustomStringConvertible {
    case off, degraded, routable

    var description: String {
      switch self {
      case .off: "off"
      case .degraded: "degraded"
      case .routable: "routable"
      }
    }

    init?(name: String) {
      switch name {
      case "off": self = .off
      case "degraded": self = .degraded
      case "routable": self = .routable
      default: return nil
      }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The best of `link`'s ready addresses of one family (`ipv6`: IPv6, otherwise IPv4), judged from the
    /// kernel's scopes as networkd does.
    init(of link: LinkInventory.Link, ipv6: Bool) {
      var state = Self.off
      for address in link.addresses where address.text.contains(":") == ipv6 {
        // Not ready yet, or failed: networkd does not count it.
        if address.flags.contains("tentative") || address.flags.contains("dadfailed") { continue }
        if address.flags.contains("host") { continue }
        if address.flags.contains("link") || address.flags.contains("site") {
          state = max(state, .degraded)
        } else {
          state = .routable
        }
      }
      self = state
    }
  }

  /// The state of `link` (`nil`: no such link, `missing`) judged from the kernel alone; `links` are the namespace's
  /// links, which say whether `link` is a bridge or bond some of whose ports lack carrier.
  init(of link: LinkInventory.Link?, among links: [LinkInventory.Link] = []) {
    let degraded = link.map { Self.mastersWithPortsWithoutCarrier(links).contains($0.index) } ?? false
    self.init(of: link, hasPortWithoutCarrier: degraded)
  }

  /// The bridges and bonds among `links` (by index) with a port that lacks carrier: with carrier themselves, they
  /// are `degraded-carrier`. One pass, for judging every link of a namespace at once.
  static func mastersWithPortsWithoutCarrier(_ links: [LinkInventory.Link]) -> Set<Int32> {
    Set(links.lazy.filter { !($0.isUp && $0.hasCarrier) }.compactMap(\.master))
  }

  /// The state of `link` (`nil`: no such link, `missing`) judged from the kernel alone, `hasPortWithoutCarrier` when
  /// it is a bridge or bond one of whose ports lacks carrier (``mastersWithPortsWithoutCarrier(_:)``).
  init(of link: LinkInventory.Link?, hasPortWithoutCarrier: Bool) {
    guard let link else {
      self = .missing
      return
    }
    let carrier: OperationalState
    if link.isDormant && link.isUp {
      carrier = .dormant
    } else if link.isUp && link.hasCarrier {
      if link.master != nil {
        carrier = .enslaved
      } else if hasPortWithoutCarrier {
        carrier = .degradedCarrier
      } else {
        carrier = .carrier
      }
    } else {
      carrier = link.isUp ? .noCarrier : .off
    }
    let address = max(AddressState(of: link, ipv6: false), AddressState(of: link, ipv6: true))
    switch (carrier, address) {
    case (.degradedCarrier, .routable): self = .routable
    case (.degradedCarrier, .degraded): self = .degraded
    case (_, .off): self = carrier
    case _ where carrier < .carrier: self = carrier
    case (_, .routable): self = .routable
    case (.carrier, _): self = .degraded
    default: self = .enslaved
    }
  }

  /// A range of states, `MIN[:MAX]` (`degraded`, `routable`, `carrier:degraded`), as networkd takes them.
  struct Range: Equatable, CustomStringConvertible {
    var minimum: OperationalState
    var maximum: OperationalState = .routable

    /// networkd's default for `-i NAME` without a state: `degraded` or better (`RequiredForOnline=yes`).
    static let online = Range(minimum: .degraded)

    func contains(_ state: OperationalState) -> Bool { minimum <= state && state <= maximum }

    /// `MIN[:MAX]` as networkd parses it (`parse_operational_state_range`): an empty MIN is `missing`, an empty
    /// or absent MAX `routable` (`:carrier`, `degraded:`); `nil` when both are empty, either is not a state, or MIN
    /// is above MAX.
    init?(parsing text: Substring) {
      let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.contains(where: { !$0.isEmpty }) else { return nil }
      let minimum = parts[0].isEmpty ? .missing : OperationalState(name: String(parts[0]))
      let maximum = parts.count < 2 || parts[1].isEmpty ? .routable : OperationalState(name: String(parts[1]))
      guard let minimum, let maximum, minimum <= maximum else { return nil }
      self.minimum = minimum
      self.maximum = maximum
    }

    init(minimum: OperationalState, maximum: OperationalState = .routable) {
      self.minimum = minimum
      self.maximum = maximum
    }

    /// `degraded`, or `carrier:degraded` when there is a maximum below routable.
    var description: String { maximum == .routable ? "\(minimum)" : "\(minimum):\(maximum)" }

    /// The states' names, for messages.
    static let names = OperationalState.allCases.map(\.description).joined(separator: ", ")
  }
}
