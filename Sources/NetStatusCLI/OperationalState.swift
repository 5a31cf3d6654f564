import NetStatusCore

/// A link's operational state as systemd-networkd names it (`networkctl`, `systemd-networkd-wait-online -i
/// NAME:STATE`), judged from the kernel's link flags and addresses alone, so that `netstatus wait --interface` means
/// what `systemd-networkd-wait-online --interface` means whatever manages the network. Pure.
///
/// networkd combines a carrier state (off, no-carrier, dormant, carrier) with an address state: a ready address
/// (not tentative, not dadfailed) of global scope makes the link `routable`, one of link or site scope (an IPv6
/// link-local address) `degraded`; host-scope addresses (`127.0.0.1`) do not count. Without carrier the carrier
/// state is the operational state, whatever the addresses. `enslaved` and `degraded-carrier` (a bond's or bridge's
/// ports) are not told apart here: a port reads as its own carrier and addresses say.
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

  /// The state of `link` (`nil`: no such link, `missing`).
  init(of link: LinkInventory.Link?) {
    guard let link else {
      self = .missing
      return
    }
    guard link.isUp else {
      self = .off
      return
    }
    guard link.hasCarrier, !link.isDormant else {
      self = link.isDormant ? .dormant : .noCarrier
      return
    }
    var state = Self.carrier
    for address in link.addresses {
      // Not ready yet, or failed: networkd does not count it.
      if address.flags.contains("tentative") || address.flags.contains("dadfailed") { continue }
      if address.flags.contains("host") { continue }
      if address.flags.contains("link") {
        state = max(state, .degraded)
      } else {
        self = .routable
        return
      }
    }
    self = state
  }

  /// A range of states, `MIN[:MAX]` (`degraded`, `routable`, `carrier:degraded`), as networkd takes them.
  struct Range: Equatable, CustomStringConvertible {
    var minimum: OperationalState
    var maximum: OperationalState = .routable

    /// networkd's default for `-i NAME` without a state: `degraded` or better (`RequiredForOnline=yes`).
    static let online = Range(minimum: .degraded)

    func contains(_ state: OperationalState) -> Bool { minimum <= state && state <= maximum }

    /// `MIN[:MAX]`, or `nil` when either is not a state or MIN is above MAX.
    init?(parsing text: Substring) {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard (1...2).contains(parts.count), let minimum = OperationalState(name: String(parts[0])) else { return nil }
      let maximum = parts.count == 2 ? OperationalState(name: String(parts[1])) : .routable
      guard let maximum, minimum <= maximum else { return nil }
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
