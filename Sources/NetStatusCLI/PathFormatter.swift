import NetStatusCore

/// Renders paths for people: the `netstatus` table and the `watch` lines. Pure.
///
/// Colour and symbols are used only when `style` says so: on a terminal, unless NO_COLOR is set. Every
/// text that came from outside (a portal's redirect and what the check saw, from the network; interface
/// names, from the kernel) has its control characters escaped before it is painted, so that only the
/// formatter's own colour codes reach the terminal.
struct PathFormatter {
  struct Style: Equatable {
    var color: Bool
    var symbols: Bool

    static let plain = Style(color: false, symbols: false)
    static let terminal = Style(color: true, symbols: true)

    /// On a terminal: symbols always, colour unless NO_COLOR is set (to anything non-empty) or TERM is `dumb` (a
    /// terminal that cannot show colour, such as Emacs's shell buffer). One meaning per colour everywhere: green
    /// good (online, yes where yes is good), red bad, bold the interface in use.
    static func detect(isTerminal: Bool, environment: [String: String]) -> Style {
      guard isTerminal else { return .plain }
      let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
      let dumb = environment["TERM"] == "dumb"
      return Style(color: !noColor && !dumb, symbols: true)
    }
  }

  var style: Style

  private func paint(_ text: String, _ code: String) -> String {
    style.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The Constrained row of an ultra-constrained path, marked as a "yes" that is not the happy answer.
  private var ultraConstrained: String {
    style.symbols ? paint("✗ ultra-constrained", "31") : "ultra-constrained"
  }

  private func yesNo(_ value: Bool, good: Bool = true) -> String {
    let text = value ? "yes" : "no"
    guard style.symbols else { return text }
    // "good" tells which answer is the happy one (expensive: no is good).
    let happy = value == good
    return paint((value ? "✓ " : "✗ ") + text, happy ? "32" : "31")
  }

  /// The path's JSON form; with `connectivity`, the same keys and then `"connectivity":{...}`; with `time`,
  /// `"time":"…Z"` after them.
  static func json(_ path: NetworkPath, connectivity: ConnectivityReport? = nil, time: JSONTimestamp? = nil) -> String {
    guard connectivity != nil || time != nil else { return path.jsonRepresentation }
    return path.jsonRepresentation(
      with: NetworkPathJSONExtra(
        connectivity: connectivity?.state, connectivityFamilies: connectivity?.families, time: time))
  }

  /// `limited (connection refused)`, `portal (redirect to http://…)`, `full`. A portal without a redirect is only an
  /// unexpected answer: a portal that intercepted the probe, or an `--expect` that does not match the server (an
  /// ordinary web server answers 200, not the default 204), so the text says both.
  func internet(_ report: ConnectivityReport) -> String {
    var text = report.state.description
    if report.state == .limited, let detail = report.check?.detail { text += " (\(detail))" }
    if report.state == .portal(redirect: nil), let detail = report.check?.detail {
      text +=
        " (unexpected answer: \(detail); either a captive portal intercepted it, or --expect does not match"
        + " the server)"
    }
    if let families = report.families.description { text += "; " + families }
    text = text.escapingControlCharacters()
    guard style.symbols else { return text }
    switch report.state {
    case .full: return paint("✓ " + text, "32")
    case .unknown: return "? " + text
    default: return paint("✗ " + text, "31")
    }
  }

  /// The snapshot table, with an `Internet` row when the connectivity was probed.
  func table(_ path: NetworkPath, connectivity: ConnectivityReport? = nil) -> String {
    var rows: [(String, String)] = []
    var connected = yesNo(path.isConnected)
    if !path.isConnected { connected += " (\(Self.whyNotConnected(path)))" }
    rows.append(("Connected", connected))
    if path.availableInterfaces.isEmpty {
      rows.append(("Interfaces", "none"))
    } else {
      let names = path.availableInterfaces.map { $0.name.escapingControlCharacters() }
      let width = names.map(\.count).max() ?? 0
      for (offset, interface) in path.availableInterfaces.enumerated() {
        let inUse = offset == 0 && path.isConnected
        let name = Self.padded(names[offset], to: width)
        var line: String
        if style.symbols {
          line = (inUse ? paint("▶ ", "1") : "  ") + name + "  " + interface.type.words
        } else {
          line = name + "  " + interface.type.words + (inUse ? "  (in use)" : "")
        }
        if style.symbols, inUse { line = paint(line, "1") }
        rows.append((offset == 0 ? "Interfaces" : "", line))
      }
    }
    rows.append(("VPN", path.vpn.map(Self.words) ?? "none"))
    rows.append(("Expensive", yesNo(path.isExpensive, good: false)))
    // Ultra-constrained (a satellite link) says more than constrained: one row for both.
    rows.append(("Constrained", path.isUltraConstrained ? ultraConstrained : yesNo(path.isConstrained, good: false)))
    rows.append(
      ("Link", !path.isConnected ? "none" : path.linkQuality == .unknown ? "not measured" : path.linkQuality.rawValue))
    rows.append(("IPv4", yesNo(path.supportsIPv4)))
    rows.append(("IPv6", yesNo(path.supportsIPv6)))
    // A resolver without a path answers nothing: "yes" would read as "DNS works".
    rows.append(("DNS", path.isConnected || !path.supportsDNS ? yesNo(path.supportsDNS) : "configured, no path to it"))
    let gateways = path.gateways.joined(separator: ", ").escapingControlCharacters()
    rows.append(("Gateways", path.gateways.isEmpty ? "none" : gateways))
    if let connectivity { rows.append(("Internet", internet(connectivity))) }
    let labelWidth = rows.map(\.0.count).max() ?? 0
    return rows.map { label, value in
      Self.padded(label, to: labelWidth) + "  " + value
    }.joined(separator: "\n")
  }

  /// Why `path` is not connected, in words: its cause where the source knows it (`no carrier on eth0`, `no route`),
  /// else its reason (`cellular data is off for this app`). An interface name in it has its control characters
  /// escaped.
  static func whyNotConnected(_ path: NetworkPath) -> String {
    if let cause = path.unsatisfiedCause { return cause.words.escapingControlCharacters() }
    switch path.unsatisfiedReason {
    case .notAvailable: return "no network available"
    case .cellularDenied: return "cellular data is off for this app"
    case .wifiDenied: return "Wi-Fi is off for this app"
    case .localNetworkDenied: return "local network access is not allowed"
    case .vpnInactive: return "the required VPN is not active"
    case nil:
      return path.status == .requiresConnection ? "comes up when a connection is made" : "no usable network"
    }
  }

  /// `text` with spaces after it up to `width` characters (the widths are counted in characters too).
  private static func padded(_ text: String, to width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  /// `tun0 over wired Ethernet`, or `tun0` when the type under it is not known; then `, IPv6 bypasses it` when a
  /// family of the path goes around the tunnel (a leak a reader must not miss).
  static func words(_ vpn: NetworkPath.VPN) -> String {
    var text = vpn.interface.name.escapingControlCharacters()
    if let type = vpn.underlyingInterfaceType { text += " over \(type.words)" }
    if vpn.isBypassedByIPv4 { text += ", IPv4 bypasses it" }
    if vpn.isBypassedByIPv6 { text += ", IPv6 bypasses it" }
    return text
  }

  /// One `watch` line: `2026-11-29 14:55:01.123  online   eth0 (wired Ethernet)  IPv4 DNS  via 192.0.2.1`, with
  /// `VPN tun0 over wired Ethernet` before the gateways when the path goes through one; an offline one says why:
  /// `2026-11-29 14:55:02.456  offline  no carrier on eth0`.
  func line(_ path: NetworkPath, connectivity: ConnectivityReport? = nil, time: String) -> String {
    var parts = [time]
    if path.isConnected {
      parts.append(style.symbols ? paint("● online ", "32") : "online ")
    } else {
      let label = path.status == .requiresConnection ? "needs connection" : "offline"
      parts.append(style.symbols ? paint("○ \(label)", "31") : label)
    }
    if let first = path.availableInterfaces.first {
      var interfaces = "\(first.name) (\(first.type.words))"
      if path.availableInterfaces.count > 1 {
        interfaces += " +" + path.availableInterfaces.dropFirst().map(\.name).joined(separator: ",")
      }
      parts.append(interfaces.escapingControlCharacters())
    }
    guard path.isConnected else {
      // What broke, in words; no flags: a resolver or a family without a path says nothing.
      parts.append(Self.whyNotConnected(path))
      if let connectivity { parts.append("internet " + internet(connectivity)) }
      return parts.joined(separator: "  ")
    }
    var flags: [String] = []
    if path.supportsIPv4 { flags.append("IPv4") }
    if path.supportsIPv6 { flags.append("IPv6") }
    if path.supportsDNS { flags.append("DNS") }
    if path.isExpensive { flags.append("expensive") }
    if path.isConstrained { flags.append("constrained") }
    if path.isUltraConstrained { flags.append("ultra-constrained") }
    if !flags.isEmpty { parts.append(flags.joined(separator: " ")) }
    if path.linkQuality != .unknown { parts.append("link " + path.linkQuality.rawValue) }
    if let vpn = path.vpn { parts.append("VPN " + Self.words(vpn)) }
    if !path.gateways.isEmpty {
      parts.append("via " + path.gateways.joined(separator: ", ").escapingControlCharacters())
    }
    if let connectivity { parts.append("internet " + internet(connectivity)) }
    return parts.joined(separator: "  ")
  }
}

/// What the connectivity probe found, for output: the state and the check behind it.
struct ConnectivityReport: Equatable {
  var state: ConnectivityState
  var check: ConnectivityCheck?
  /// Each address family's state (`nil`: the path does not support it).
  var families: FamilyConnectivity

  /// The monitor's current state, each family's, and its last check.
  init(_ monitor: ConnectivityMonitor) {
    state = monitor.state
    check = monitor.lastCheck
    families = FamilyConnectivity(ipv4: monitor.ipv4State, ipv6: monitor.ipv6State)
  }

  init(state: ConnectivityState, check: ConnectivityCheck? = nil, families: FamilyConnectivity = FamilyConnectivity()) {
    self.state = state
    self.check = check
    self.families = families
  }
}

extension FamilyConnectivity {
  /// `IPv4 full, IPv6 limited` (`IPv6 unsupported` for a family the path does not support), or `nil` when neither
  /// family is supported.
  var description: String? {
    guard ipv4 != nil || ipv6 != nil else { return nil }
    return IPFamily.allCases.map { family in "\(family.label) \(self[family]?.name ?? "unsupported")" }
      .joined(separator: ", ")
  }
}

extension InterfaceType {
  /// The type in words, for people (`wired Ethernet`, `Wi-Fi`); JSON, metrics and the API keep NWPath's names
  /// (`wiredEthernet`, `wifi`).
  var words: String {
    switch self {
    case .other: "other"
    case .wifi: "Wi-Fi"
    case .cellular: "cellular"
    case .wiredEthernet: "wired Ethernet"
    case .loopback: "loopback"
    }
  }
}
