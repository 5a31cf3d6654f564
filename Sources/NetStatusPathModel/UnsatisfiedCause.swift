/// Why a path is unsatisfied, in the terms of the system that judged it: what `netstatus` says in words ("no carrier
/// on eth0") where the JSON keeps NWPath's ``NetworkPath/UnsatisfiedReason``.
///
/// The Linux source sets it from the same kernel answers that made the path unsatisfied
/// (Sources/NetStatusNetlink/PathEvaluator+Cause.swift); `NWPath` says no more than its reason, so Apple paths have none.
/// It travels with the path but is not one of its properties: not part of equality, hashing or the JSON form, so
/// that two unsatisfied paths compare equal whatever broke them.
@usableFromInline
package enum UnsatisfiedCause: Sendable, Hashable {
  /// No address usable beyond the local link, of either family.
  case noAddress
  /// Addresses, but no route off the link: the kernel's lookup found none.
  case noRoute
  /// The kernel's route or rule rejects the traffic (an unreachable host, a blackhole, prohibit), or is not a route
  /// to go by (a local one).
  case unreachableRoute
  /// The route goes through this interface, which is administratively down.
  case interfaceDown(String)
  /// The route goes through this interface, which is up without carrier (a cable out, a peer down, Wi-Fi not
  /// associated).
  case noCarrier(String)
  /// The route goes through this interface, which has no usable source address for it.
  case noSourceAddress(String)
  /// The route goes through this interface, whose type the monitor's interface filter does not allow.
  case notAllowed(String, InterfaceType)
  /// The only route goes through loopback.
  case loopbackOnly

  /// In words, for people: `no carrier on eth0`, `no route`.
  package var words: String {
    switch self {
    case .noAddress: "no address"
    case .noRoute: "no route"
    case .unreachableRoute: "the route rejects traffic"
    case .interfaceDown(let name): "\(name) is down"
    case .noCarrier(let name): "no carrier on \(name)"
    case .noSourceAddress(let name): "no address on \(name)"
    case .notAllowed(let name, let type): "\(name) (\(type)) is not allowed"
    case .loopbackOnly: "loopback only"
    }
  }
}
