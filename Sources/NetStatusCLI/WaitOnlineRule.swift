import NetStatusCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How `systemd-networkd-wait-online` decides that links are online (systemd 252's `manager_configured` and
/// `manager_link_is_online`), for `netstatus wait -i` and the options it shares with it. Pure.
///
/// - With interfaces (`-i NAME[:MIN[:MAX]]`): each one (or one of them, with `--any`) must exist, be configured by
///   networkd (or unmanaged: then only its state counts), and have an operational state in its range (the one
///   given, else `-o`'s, else its `.network` file's `RequiredForOnline=`, else `degraded:routable`) and the
///   addresses its family needs (`-4` / `-6`, else `RequiredFamilyForOnline=`). A range whose minimum is `missing`
///   is met by an interface that does not exist.
/// - Without (`--any`, `-o` or `--ignore` alone): every link networkd manages that is required for online, not
///   loopback and not ignored (`--ignore` takes glob patterns) must be configured; links configured but not in
///   range are passed over, and at least one must be online (with `--any`: one is enough).
///
/// Where networkd's state is not read (it does not run, or does not manage the namespace), ``Link/init(kernel:among:)``
/// judges a link from the kernel alone, as configured; without interfaces nothing is then managed, so nothing is
/// online.
struct WaitOnlineRule: Equatable {
  /// An interface asked for with `-i`, and its range when one was given.
  struct Interface: Equatable {
    var name: String
    var range: OperationalState.Range?
  }

  /// The interfaces of `-i`; empty: every managed link.
  var interfaces: [Interface] = []
  /// `--any`: one online link is enough.
  var any = false
  /// `--ignore` glob patterns: links never counted when there are no interfaces.
  var ignored: [String] = []
  /// `-o MIN[:MAX]`: the range for each link given without one.
  var operationalState: OperationalState.Range?
  /// `-4` / `-6`: each link needs an address of that family (a routable one when the range's minimum is routable).
  var requireIPv4 = false
  var requireIPv6 = false

  /// A link as the rule sees it: networkd's state of it, or the kernel's judgement.
  struct Link: Equatable {
    var name: String
    var isLoopback: Bool
    /// networkd's setup state (`ADMIN_STATE`: `pending`, `configuring`, `configured`, `unmanaged`, `failed`…);
    /// `nil` when networkd has written nothing for the link yet.
    var setupState: String?
    var operationalState: OperationalState
    /// `RequiredForOnline=` (yes when the file does not say).
    var isRequiredForOnline = true
    /// `RequiredForOnline=`'s range (`REQUIRED_OPER_STATE_FOR_ONLINE`), `degraded:routable` when not said.
    var requiredRange = OperationalState.Range.online
    /// `RequiredFamilyForOnline=`.
    var requiresIPv4 = false
    var requiresIPv6 = false
    var ipv4: OperationalState.AddressState = .off
    var ipv6: OperationalState.AddressState = .off
    /// Judged from the kernel alone: networkd's state is not read, so networkd manages nothing that is known.
    var isJudgedByKernel = false

    /// A link as networkd's state file describes it (`nil`: no file yet).
    init(name: String, isLoopback: Bool, networkd state: NetworkdLinkState?) {
      self.name = name
      self.isLoopback = isLoopback
      guard let state else {
        operationalState = .missing
        return
      }
      setupState = state.administrativeState
      operationalState = state.operationalState.flatMap(OperationalState.init(name:)) ?? .missing
      isRequiredForOnline = state.isRequiredForOnline ?? true
      if let text = state.requiredOperationalStateForOnline, let range = OperationalState.Range(parsing: text[...]) {
        requiredRange = range
      }
      switch state.requiredFamilyForOnline {
      case "ipv4": requiresIPv4 = true
      case "ipv6": requiresIPv6 = true
      case "both": (requiresIPv4, requiresIPv6) = (true, true)
      default: break
      }
      ipv4 = state.ipv4AddressState.flatMap(OperationalState.AddressState.init(name:)) ?? .off
      ipv6 = state.ipv6AddressState.flatMap(OperationalState.AddressState.init(name:)) ?? .off
    }

    /// A link judged from the kernel alone (networkd's state not read), taken as configured; `links` are the
    /// namespace's (``kernelJudged(_:)`` judges them all in one pass).
    init(kernel link: LinkInventory.Link, among links: [LinkInventory.Link]) {
      let masters = OperationalState.mastersWithPortsWithoutCarrier(links)
      self.init(kernel: link, hasPortWithoutCarrier: masters.contains(link.index))
    }

    /// Every link of a namespace judged from the kernel alone: linear in the links, as each change is judged.
    static func kernelJudged(_ links: [LinkInventory.Link]) -> [Link] {
      let masters = OperationalState.mastersWithPortsWithoutCarrier(links)
      return links.map { Link(kernel: $0, hasPortWithoutCarrier: masters.contains($0.index)) }
    }

    private init(kernel link: LinkInventory.Link, hasPortWithoutCarrier: Bool) {
      name = link.name
      isLoopback = link.type == .loopback
      setupState = "configured"
      isJudgedByKernel = true
      operationalState = OperationalState(of: link, hasPortWithoutCarrier: hasPortWithoutCarrier)
      ipv4 = OperationalState.AddressState(of: link, ipv6: false)
      ipv6 = OperationalState.AddressState(of: link, ipv6: true)
    }
  }

  /// Why a link is not online, or that it is.
  enum Verdict: Equatable {
    case online
    /// networkd does not manage it (counts only when named with `-i`).
    case unmanaged
    /// networkd has not processed it yet (no state, or `pending`), or is still configuring it.
    case pending
    /// Configured, but its state or addresses are not what is asked.
    case notInRange
  }

  /// The verdict on `link`, with the range given for it (`nil`: none given).
  func verdict(on link: Link, range given: OperationalState.Range?, named: Bool) -> Verdict {
    guard let setup = link.setupState, setup != "pending" else { return .pending }
    if setup == "unmanaged" {
      if !named { return .unmanaged }
    } else if setup != "configured" {
      return .pending
    }
    let range = given ?? operationalState ?? link.requiredRange
    guard range.contains(link.operationalState) else { return .notInRange }
    let (needsIPv4, needsIPv6) =
      requireIPv4 || requireIPv6 ? (requireIPv4, requireIPv6) : (link.requiresIPv4, link.requiresIPv6)
    let least: OperationalState.AddressState = range.minimum < .routable ? .degraded : .routable
    if needsIPv4, link.ipv4 < least { return .notInRange }
    if needsIPv6, link.ipv6 < least { return .notInRange }
    return .online
  }

  /// Whether `links` (the namespace's, by name) are online as the rule asks.
  func isMet(by links: [Link]) -> Bool {
    if !interfaces.isEmpty {
      for wanted in interfaces {
        let online: Bool
        if let link = links.first(where: { $0.name == wanted.name }) {
          online = verdict(on: link, range: wanted.range, named: true) == .online
        } else {
          online = wanted.range?.minimum == .missing
        }
        if any, online { return true }
        if !any, !online { return false }
      }
      return !any
    }
    var hasOnline = false
    for link in links where counts(link) {
      switch verdict(on: link, range: nil, named: false) {
      case .online:
        if any { return true }
        hasOnline = true
      case .pending:
        if !any { return false }
      case .unmanaged, .notInRange:
        break
      }
    }
    return !any && hasOnline
  }

  /// Whether a link counts when no interfaces are named: one networkd's state describes, not loopback, required for
  /// online, not ignored.
  func counts(_ link: Link) -> Bool {
    !link.isJudgedByKernel && !link.isLoopback && link.isRequiredForOnline
      && !ignored.contains { Self.matches($0, link.name) }
  }

  /// `fnmatch(3)` without flags, as wait-online matches `--ignore`.
  static func matches(_ pattern: String, _ name: String) -> Bool { fnmatch(pattern, name, 0) == 0 }

  /// What the rule waits for, for messages: `eth1 degraded or better (systemd-networkd's operational state)`,
  /// `every link systemd-networkd manages configured and one online`.
  var description: String {
    func words(_ range: OperationalState.Range) -> String {
      range.maximum == .routable
        ? (range.minimum == .routable ? "routable" : "\(range.minimum) or better")
        : "between \(range.minimum) and \(range.maximum)"
    }
    var families = [requireIPv4 ? "IPv4" : nil, requireIPv6 ? "IPv6" : nil].compactMap { $0 }
      .joined(separator: " and ")
    if !families.isEmpty { families = " with an \(families) address" }
    guard interfaces.isEmpty else {
      let each = interfaces.map { wanted in
        wanted.name + " " + ((wanted.range ?? operationalState).map(words) ?? "online")
      }
      return each.joined(separator: any ? " or " : " and ") + families + " (systemd-networkd's operational state)"
    }
    var text =
      any ? "a link systemd-networkd manages online" : "every link systemd-networkd manages configured and one online"
    if let range = operationalState { text += ", \(words(range))" }
    text += families
    if !ignored.isEmpty { text += " (ignoring " + ignored.joined(separator: ", ") + ")" }
    return text
  }

  /// `veth0 configuring, veth1 routable`: the links the rule judges and where each stands, for the timeout message.
  func linksNow(_ links: [Link]) -> String {
    let judged =
      interfaces.isEmpty
      ? links.filter { counts($0) && $0.setupState != "unmanaged" && $0.setupState != nil }.map(\.name)
      : interfaces.map(\.name)
    guard !judged.isEmpty else { return "no link is managed by systemd-networkd" }
    return judged.map { name in
      guard let link = links.first(where: { $0.name == name }) else { return "\(name) missing" }
      guard let setup = link.setupState, setup == "configured" || setup == "unmanaged" else {
        return "\(name) \(link.setupState ?? "not yet seen by systemd-networkd")"
      }
      return "\(name) \(link.operationalState)"
        + (requireIPv4 ? " (IPv4 \(link.ipv4))" : "") + (requireIPv6 ? " (IPv6 \(link.ipv6))" : "")
    }.joined(separator: ", ")
  }
}
