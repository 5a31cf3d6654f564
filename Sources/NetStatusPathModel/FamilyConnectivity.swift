/// The connectivity of each address family of a path: `nil` for a family the path does not support. Pure.
package struct FamilyConnectivity: Sendable, Hashable {
  /// The IPv4 state, or `nil` when the path does not support IPv4.
  package var ipv4: ConnectivityState?
  /// The IPv6 state, or `nil` when the path does not support IPv6.
  package var ipv6: ConnectivityState?

  package init(ipv4: ConnectivityState? = nil, ipv6: ConnectivityState? = nil) {
    self.ipv4 = ipv4
    self.ipv6 = ipv6
  }

  /// `state` for each family `path` supports (none without a path).
  package init(_ state: ConnectivityState, over path: NetworkPath?) {
    self.init(
      ipv4: path?.supportsIPv4 == true ? state : nil, ipv6: path?.supportsIPv6 == true ? state : nil)
  }

  /// The state of `family`.
  package subscript(family: IPFamily) -> ConnectivityState? {
    get { family == .ipv4 ? ipv4 : ipv6 }
    set {
      if family == .ipv4 { ipv4 = newValue } else { ipv6 = newValue }
    }
  }

  /// The best of the families' states (full, then portal, limited, unknown, none), as the overall state is; `nil`
  /// when neither family has one.
  package var best: ConnectivityState? {
    [ipv4, ipv6].compactMap { $0 }.max { Self.rank($0) < Self.rank($1) }
  }

  /// Whether a family's check answered, but not with full access: worth checking again (a family not checked, or
  /// whose check failed locally, is `unknown` and does not count).
  package var hasAnswerShortOfFull: Bool {
    [ipv4, ipv6].contains { state in
      switch state {
      case .limited, .portal: true
      default: false
      }
    }
  }

  private static func rank(_ state: ConnectivityState) -> Int {
    switch state {
    case .noPath: 0
    case .unknown: 1
    case .limited: 2
    case .portal: 3
    case .full: 4
    }
  }
}
