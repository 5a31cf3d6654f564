/// The part of the kernel's network state a path depends on: links, addresses and routes.
///
/// A pure value, updated by applying decoded events. Every update is an idempotent upsert keyed by the
/// object's identity, so a replayed or duplicated event changes nothing and a dump can be applied over
/// events seen during it.
struct KernelState: Sendable, Hashable {
  /// Links by index.
  var links: [Int32: NetlinkLink] = [:]
  /// Addresses by identity (interface, address, prefix length).
  var addresses: [NetlinkAddress.Key: NetlinkAddress] = [:]
  /// Routes by identity (table, family, destination, TOS, metric, outgoing interface).
  var routes: [NetlinkRoute.Key: NetlinkRoute] = [:]

  /// An empty state.
  init() {}

  /// Applies one message.
  ///
  /// Besides the plain upserts and removals, it mirrors what the kernel does without telling:
  /// - `NLM_F_REPLACE` on a new route: the kernel replaced the route with the same table, family,
  ///   destination, TOS and metric, whatever its interface, and sends no RTM_DELROUTE for it.
  /// - A link going administratively down: the kernel flushes single-path routes through it (IPv4 sends no
  ///   RTM_DELROUTE for them), and multipath routes whose every next hop uses it.
  /// - The last IPv4 address of a link being removed: the kernel disables IPv4 on it and flushes its IPv4
  ///   routes, again without RTM_DELROUTE (routes with that address as preferred source are announced).
  /// - A link being deleted: its addresses and routes go with it.
  /// - A link getting carrier back: the kernel clears RTNH_F_LINKDOWN on routes through it without a
  ///   notification (nor RTNH_F_DEAD on multipath next hops when it comes back up), so the stored flags are
  ///   cleared too.
  mutating func apply(_ message: NetlinkMessage) {
    switch message.event {
    case .newLink(var link):
      let previous = links[link.index]
      if link.name.isEmpty, let previous { link.name = previous.name }
      links[link.index] = link
      if link.flags & RTNL.IFF_UP == 0 {
        removeRoutes(onlyThrough: link.index)
      } else if link.isUsable, previous.map({ !$0.isUsable }) ?? false {
        clearLinkDown(on: link.index)
      }
    case .deletedLink(let link):
      links[link.index] = nil
      addresses = addresses.filter { $0.key.interfaceIndex != link.index }
      removeRoutes(onlyThrough: link.index)
    case .newAddress(let address):
      addresses[address.key] = address
    case .deletedAddress(let address):
      addresses[address.key] = nil
      if address.address.isIPv4,
        !addresses.keys.contains(where: { $0.interfaceIndex == address.interfaceIndex && $0.address.isIPv4 })
      {
        removeRoutes(onlyThrough: address.interfaceIndex, family: RTNL.AF_INET)
      }
    case .newRoute(let route):
      if message.flags & RTNL.NLM_F_REPLACE != 0 {
        let key = route.key
        routes = routes.filter {
          !($0.key.table == key.table && $0.key.family == key.family && $0.key.destination == key.destination
            && $0.key.destinationLength == key.destinationLength && $0.key.tos == key.tos
            && $0.key.priority == key.priority)
        }
      }
      routes[route.key] = route
    case .deletedRoute(let route):
      routes[route.key] = nil
    case .done, .error, .overrun, .ignored:
      break
    }
  }

  /// Applies messages in order.
  mutating func apply(_ messages: some Sequence<NetlinkMessage>) {
    for message in messages { apply(message) }
  }

  private mutating func removeRoutes(onlyThrough index: Int32, family: UInt8? = nil) {
    routes = routes.filter { _, route in
      if let family, route.family != family { return true }
      let hops = route.nextHops
      return hops.isEmpty || !hops.allSatisfy { $0.interfaceIndex == index }
    }
  }

  private mutating func clearLinkDown(on index: Int32) {
    let stale = RTNL.RTNH_F_LINKDOWN | RTNL.RTNH_F_DEAD
    for (key, var route) in routes {
      var changed = false
      if route.interfaceIndex == index, route.flags & stale != 0 {
        route.flags &= ~stale
        changed = true
      }
      for hop in route.multipath.indices where route.multipath[hop].interfaceIndex == index {
        if route.multipath[hop].flags & stale != 0 {
          route.multipath[hop].flags &= ~stale
          changed = true
        }
      }
      if changed { routes[key] = route }
    }
  }
}
