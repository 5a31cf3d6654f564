import NetStatusCore

/// Renders a ``LinkInventory`` for people: what `netstatus show --all` prints after the path. Pure.
///
/// ```text
/// Links
///   1  lo  loopback  up  carrier  127.0.0.1/8 (host), ::1/128 (host)
///   2  v0  other     up  carrier  198.51.100.2/24, fe80::1/64 (link)  [veth]  networkd routable, online, required for online
/// DNS servers  192.0.2.53
/// ```
enum LinkTable {
  /// The lines, without a final newline.
  static func text(_ inventory: LinkInventory) -> String {
    var lines = ["Links"]
    let names = inventory.links.map { $0.name.escapingControlCharacters() }
    let indexWidth = inventory.links.map { String($0.index).count }.max() ?? 1
    let nameWidth = names.map(\.count).max() ?? 0
    let typeWidth = inventory.links.map(\.type.rawValue.count).max() ?? 0
    for (link, name) in zip(inventory.links, names) {
      let index = String(repeating: " ", count: indexWidth - String(link.index).count) + String(link.index)
      var line = "  \(index)  \(pad(name, nameWidth))  \(pad(link.type.rawValue, typeWidth))"
      line += "  " + pad(link.isUp ? "up" : "down", 4) + "  " + pad(link.hasCarrier ? "carrier" : "no carrier", 10)
      let addresses = link.addresses.map { address in
        address.flags.isEmpty ? address.text : "\(address.text) (\(address.flags.joined(separator: ", ")))"
      }
      line += "  " + (addresses.isEmpty ? "no address" : addresses.joined(separator: ", "))
      if let kind = link.kind { line += "  [\(kind.escapingControlCharacters())]" }
      if let speed = link.speed { line += "  \(speed) Mb/s" }
      if let networkd = link.networkd { line += "  " + networkdText(networkd) }
      lines.append(line)
    }
    let servers = inventory.nameservers.map { $0.escapingControlCharacters() }
    lines.append("DNS servers  " + (servers.isEmpty ? "none" : servers.joined(separator: ", ")))
    return lines.joined(separator: "\n")
  }

  /// `networkd routable, online, required for online` (or `unmanaged`, `not required for online`…).
  static func networkdText(_ state: NetworkdLinkState) -> String {
    var words = [state.operationalState ?? state.administrativeState ?? "unknown"]
    if let online = state.onlineState { words.append(online) }
    if !state.isManaged {
      words.append("unmanaged")
    } else if let required = state.isRequiredForOnline {
      words.append(required ? "required for online" : "not required for online")
    }
    return "networkd " + words.map { $0.escapingControlCharacters() }.joined(separator: ", ")
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
}
