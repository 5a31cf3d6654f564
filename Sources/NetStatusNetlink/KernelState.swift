/// The part of the kernel's network state NetStatus mirrors: links and addresses, both small.
///
/// Routes are not mirrored: the kernel's own route lookup answers for them (``RouteLookupRequest``), so the
/// mirror cannot drift from the routing table, nor grow with it.
///
/// A pure value, updated by applying decoded events. Every update is an idempotent upsert keyed by the
/// object's identity, so a replayed or duplicated event changes nothing and a dump can be applied over
/// events seen during it.
package struct KernelState: Sendable, Hashable {
  /// Links by index.
  package var links: [Int32: NetlinkLink] = [:] {
    didSet {
      tunnels = Self.tunnels(of: links)
      linkChanges &+= 1
    }
  }
  /// How many times ``links`` was set: what tells a reader that follows the links whether they may have changed
  /// with one integer comparison (comparing them would cost every route change). Equality and hashing leave it
  /// out; it only grows while this value lives (a new state counts from 0).
  package private(set) var linkChanges: UInt64 = 0
  /// The indexes of the tunnels among ``links`` (``NetlinkLink/isTunnel``), kept up to date with them: every
  /// evaluation asks whether the path's interface is one (PathEvaluator+VPN.swift), and links change far less often
  /// than routes. Derived from ``links``, so equality and hashing leave it out.
  package private(set) var tunnels: [Int32] = []
  /// Addresses by identity (interface, address, prefix length).
  package var addresses: [NetlinkAddress.Key: NetlinkAddress] = [:] {
    didSet { usableSources = Self.usableSources(of: addresses) }
  }
  /// The addresses of ``addresses`` usable beyond the local link (see ``NetlinkAddress/isUsableBeyondLink``),
  /// kept up to date with them: every evaluation asks, and addresses change far less often than routes. Derived
  /// from ``addresses``, so equality and hashing leave it out.
  package private(set) var usableSources: [IPAddressBytes] = []

  /// An empty state.
  package init() {}

  package static func == (lhs: KernelState, rhs: KernelState) -> Bool {
    lhs.links == rhs.links && lhs.addresses == rhs.addresses
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(links)
    hasher.combine(addresses)
  }

  /// The indexes of the tunnels among `links`, in no particular order.
  private static func tunnels(of links: [Int32: NetlinkLink]) -> [Int32] {
    var tunnels: [Int32] = []
    for link in links.values where link.isTunnel { tunnels.append(link.index) }
    return tunnels
  }

  /// The addresses usable beyond the local link among `addresses`, in no particular order.
  private static func usableSources(of addresses: [NetlinkAddress.Key: NetlinkAddress]) -> [IPAddressBytes] {
    var usable: [IPAddressBytes] = []
    for address in addresses.values where address.isUsableBeyondLink { usable.append(address.address) }
    return usable
  }

  /// Applies one message. Route, rule and nexthop messages change nothing here.
  package mutating func apply(_ message: NetlinkMessage) {
    switch message.event {
    case .newLink(var link):
      // A link message without a name (rare, but the kernel may send one) keeps the known name.
      if link.name.isEmpty, let previous = links[link.index] { link.name = previous.name }
      links[link.index] = link
    case .deletedLink(let link):
      links[link.index] = nil
      addresses = addresses.filter { $0.key.interfaceIndex != link.index }
    case .newAddress(let address):
      addresses[address.key] = address
    case .deletedAddress(let address):
      addresses[address.key] = nil
    case .newRoute, .deletedRoute, .routingPolicyChanged, .done, .error, .overrun, .ignored:
      break
    }
  }

  /// Applies messages in order.
  package mutating func apply(_ messages: some Sequence<NetlinkMessage>) {
    for message in messages { apply(message) }
  }

  /// Whether some address of this family can be a source for off-link traffic (see
  /// ``NetlinkAddress/isUsableBeyondLink``). Without one, no lookup of the family can give a usable path.
  package func hasUsableAddress(ipv4: Bool) -> Bool {
    usableSources.contains { $0.isIPv4 == ipv4 }
  }

  /// Whether `source` is one of the mirrored addresses and usable beyond the local link.
  package func isUsableSource(_ source: IPAddressBytes) -> Bool {
    usableSources.contains(source)
  }
}
