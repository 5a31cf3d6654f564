import NetStatusCore

/// The condition `netstatus wait` waits for. Pure.
struct WaitCondition: Equatable {
  var interfaceTypes: Set<InterfaceType> = []
  /// Interfaces that must each carry the default path (`--via`; one of them with ``anyInterface``).
  var interfaces: [String] = []
  var anyInterface = false
  /// Interfaces that never count: glob patterns (`fnmatch(3)`), as `systemd-networkd-wait-online --ignore` takes
  /// them.
  var ignoredInterfaces: [String] = []
  var requireIPv4 = false
  var requireIPv6 = false
  var requireDNS = false
  /// A path through a VPN or tunnel (`--vpn`): ``NetworkPath/vpn`` is set and no family goes around it; with
  /// ``requireIPv4`` or ``requireIPv6``, only the families asked for are judged (``isThroughVPN(_:)``).
  var requireVPN = false
  /// What `-i`, or `--any`, `-o` and `--ignore` without a path option, ask of the links: as
  /// systemd-networkd-wait-online decides (WaitOnlineRule.swift). `nil`: the links are not judged.
  var links: WaitOnlineRule?

  /// Whether a satisfied path is needed: always, unless only links are judged (as systemd-networkd-wait-online asks
  /// for nothing else); `-4` and `-6` then judge the links' addresses.
  var needsPath: Bool {
    links == nil || !interfaceTypes.isEmpty || !interfaces.isEmpty || requireDNS || requireVPN
  }

  /// Whether the path (when one is needed) and the links meet the condition.
  func isMet(by path: NetworkPath?, links judged: [WaitOnlineRule.Link]) -> Bool {
    if needsPath {
      guard let path, isMet(by: path) else { return false }
    }
    return links?.isMet(by: judged) ?? true
  }

  /// Whether `path` meets the condition: satisfied; through an interface that is not ignored (the path's
  /// available interfaces are the ones the kernel routes off-link traffic through, with a usable address); of one
  /// of the interface types if any are given; through every named interface (or one of them, with
  /// ``anyInterface``); through a VPN if asked; with the address families and DNS asked for.
  func isMet(by path: NetworkPath) -> Bool {
    guard path.isConnected else { return false }
    let counted = path.availableInterfaces.filter { interface in
      !ignoredInterfaces.contains { WaitOnlineRule.matches($0, interface.name) }
    }
    guard !counted.isEmpty else { return false }
    if !interfaceTypes.isEmpty, !counted.contains(where: { interfaceTypes.contains($0.type) }) {
      return false
    }
    if !interfaces.isEmpty {
      let names = Set(counted.map(\.name))
      let carrying = interfaces.filter(names.contains)
      if anyInterface ? carrying.isEmpty : carrying.count != interfaces.count { return false }
    }
    if requireVPN, !isThroughVPN(path) { return false }
    if requireIPv4, !path.supportsIPv4 { return false }
    if requireIPv6, !path.supportsIPv6 { return false }
    if requireDNS, !path.supportsDNS { return false }
    return true
  }

  /// Whether `path`'s traffic goes through a VPN as `--vpn` asks: every family the path carries (a family that
  /// goes around the tunnel leaks what the VPN was waited for to protect), or, with `-4` / `-6`, each one asked for.
  func isThroughVPN(_ path: NetworkPath) -> Bool {
    guard let vpn = path.vpn else { return false }
    guard requireIPv4 || requireIPv6 else { return !vpn.isBypassed }
    return (!requireIPv4 || !vpn.isBypassedByIPv4) && (!requireIPv6 || !vpn.isBypassedByIPv6)
  }

  /// Whether the internet connectivity meets `--internet`: with `-4` / `-6`, the state of each family asked for is
  /// full (each is checked on its own, ConnectivityMonitor+Families.swift); without, the overall state is.
  func isInternetMet(_ state: ConnectivityState, families: FamilyConnectivity) -> Bool {
    guard requireIPv4 || requireIPv6 else { return state.isFull }
    return (!requireIPv4 || families.ipv4 == .full) && (!requireIPv6 || families.ipv6 == .full)
  }

  /// `full internet access`, `full internet access over IPv4 and IPv6`: what `--internet` waits for.
  var internetDescription: String {
    let families = [requireIPv4 ? "IPv4" : nil, requireIPv6 ? "IPv6" : nil].compactMap { $0 }
    return "full internet access" + (families.isEmpty ? "" : " over " + families.joined(separator: " and "))
  }

  /// `a satisfied path over wifi or cellular with IPv4 and DNS`; `eth1 degraded or better (systemd-networkd's
  /// operational state)` (``WaitOnlineRule/description``).
  var description: String {
    var parts: [String] = []
    if let links { parts.append(links.description) }
    if needsPath { parts.append(pathDescription) }
    return parts.joined(separator: " and ")
  }

  /// The path's part of ``description``.
  private var pathDescription: String {
    var text = "a satisfied path"
    if !interfaces.isEmpty {
      text += " through " + interfaces.joined(separator: anyInterface ? " or " : " and ")
    }
    if requireVPN {
      text += requireIPv4 || requireIPv6 ? " through a VPN" : " through a VPN for every family"
    }
    if !ignoredInterfaces.isEmpty {
      text += " (ignoring " + ignoredInterfaces.joined(separator: ", ") + ")"
    }
    if !interfaceTypes.isEmpty {
      text +=
        " over " + InterfaceType.allCases.filter(interfaceTypes.contains).map(\.rawValue).joined(separator: " or ")
    }
    var needs: [String] = []
    if requireIPv4 { needs.append("IPv4") }
    if requireIPv6 { needs.append("IPv6") }
    if requireDNS { needs.append("DNS") }
    if !needs.isEmpty {
      text += " with " + needs.joined(separator: " and ")
    }
    return text
  }
}
