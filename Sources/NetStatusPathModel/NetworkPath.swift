/// A snapshot of the device's network path: whether it can reach a network, over what, and at which cost.
///
/// `NetworkPath` mirrors the vocabulary of Apple's `NWPath`, but it is a plain value: you can build one in a
/// test or a preview, compare it, and encode it.
///
/// ```swift
/// let path = NetworkMonitor.shared.currentPath
/// if let path, path.isConnected, !path.isExpensive {
///     startLargeDownload()
/// }
/// ```
///
/// ## JSON
///
/// The JSON form is stable; `netstatus --json` prints it. Every key is always present, in this order:
///
/// ```json
/// {"status":"satisfied","unsatisfiedReason":null,"isExpensive":false,"isConstrained":false,
///  "isUltraConstrained":false,"supportsIPv4":true,"supportsIPv6":false,"supportsDNS":true,
///  "interfaceType":"wiredEthernet","linkQuality":"good",
///  "availableInterfaces":[{"name":"eth0","index":2,"type":"wiredEthernet"}],"gateways":["192.0.2.1"],
///  "vpn":null}
/// ```
///
/// `interfaceType` is derived: the type of the first available interface, or `null` when there is none.
/// It is ignored when decoding.
///
/// ## Changes
///
/// Two paths are equal when every property is. A monitor publishes a path when it is not equal to the last one,
/// with one addition on Apple platforms: each path `NWPathMonitor` delivers is a change, even when every property
/// NetStatus copies is the same (Network's `path.h`: a new path is "an indication that something about the network
/// has changed", such as one Wi-Fi network for another behind the same gateway). Every such path reaches every
/// front-end (the path handlers, `paths`, Combine, Observation), as every one reaches `NWPathMonitor`'s
/// `pathUpdateHandler`, though it may compare equal to the one before.
public struct NetworkPath: Sendable, Hashable {
  /// Whether a path can be used to reach a network.
  public enum Status: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The path is usable: the system routes off-link traffic through an interface that is up (on Linux, the
    /// kernel's own route lookup says so, through an interface with carrier and from a usable source address).
    case satisfied
    /// The path is not usable.
    case unsatisfied
    /// The path is not usable now, but could become so once a connection is made (on-demand VPN, dial-up).
    /// It does not count as connected.
    case requiresConnection

    /// The JSON spelling of the status.
    public var description: String { rawValue }
  }

  /// Why a path is not satisfied, when the system says.
  public enum UnsatisfiedReason: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// No usable network is available.
    case notAvailable
    /// The user has turned off cellular data for this app.
    case cellularDenied
    /// The user has turned off Wi-Fi for this app.
    case wifiDenied
    /// The user has not allowed local network access.
    case localNetworkDenied
    /// A required VPN is not active.
    case vpnInactive

    /// The JSON spelling of the reason.
    public var description: String { rawValue }
  }

  // A path stores three words (NetworkPath+Storage.swift): its plain values packed in one, its arrays and VPN in
  // one immutable box, and its observation. A route change copies its path several times on its way to the
  // subscribers: a copy is then three words and one retain, and two paths compare with one integer comparison and,
  // for copies of one path, one pointer comparison. ``==`` compares the stored properties in this order.

  /// ``status``, ``unsatisfiedReason``, ``expenseSource`` and the five flags, packed (see ``Packing``).
  @usableFromInline var packed: UInt32
  /// The interfaces, gateways and VPN of the path, or `nil` when it has none of them (see ``Storage``).
  @usableFromInline var storage: Storage?
  /// Which delivery of the system's path monitor this is (see "Changes" above). Not part of equality, not encoded.
  package var observation = PathObservation()

  /// Whether the path can be used.
  public var status: Status {
    @inlinable get { Status(code: Packing.byte(packed, Packing.status)) }
    @inlinable set { packed = Packing.setting(packed, Packing.status, to: newValue.code) }
  }
  /// Why the path is not satisfied, or `nil` when it is satisfied or no reason is known.
  public var unsatisfiedReason: UnsatisfiedReason? {
    @inlinable get { UnsatisfiedReason(code: Packing.byte(packed, Packing.unsatisfiedReason)) }
    @inlinable set {
      packed = Packing.setting(packed, Packing.unsatisfiedReason, to: UnsatisfiedReason.code(of: newValue))
    }
  }
  /// Whether the path is expensive (cellular, or a personal hotspot; on Linux also a device NetworkManager
  /// considers metered).
  public var isExpensive: Bool {
    @inlinable get { packed & Packing.isExpensive != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.isExpensive, newValue) }
  }
  /// Why the path is expensive, when the source says: `nil` when it is not expensive, or when the platform does
  /// not say why (Apple's `NWPath` does not). Not part of the JSON form. A path made with the initializer (or
  /// decoded from JSON) says ``ExpenseSource/cellular`` when it is expensive over a cellular interface, `nil`
  /// otherwise; the Linux source sets ``ExpenseSource/metered`` or ``ExpenseSource/meteredGuessed`` from
  /// NetworkManager.
  public var expenseSource: ExpenseSource? {
    @inlinable get { ExpenseSource(code: Packing.byte(packed, Packing.expenseSource)) }
    @inlinable set { packed = Packing.setting(packed, Packing.expenseSource, to: ExpenseSource.code(of: newValue)) }
  }
  /// Whether the path is constrained (Low Data Mode). Always `false` on Linux.
  public var isConstrained: Bool {
    @inlinable get { packed & Packing.isConstrained != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.isConstrained, newValue) }
  }
  /// Whether the path can carry IPv4 traffic to a network beyond the local link.
  public var supportsIPv4: Bool {
    @inlinable get { packed & Packing.supportsIPv4 != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.supportsIPv4, newValue) }
  }
  /// The interfaces of the path, in order of preference: the first is the one in use.
  public var availableInterfaces: [NetworkInterface] {
    @inlinable get { storage?.availableInterfaces ?? [] }
    @inlinable set {
      storage = Storage.make(availableInterfaces: newValue, gateways: gateways, vpn: vpn, cause: unsatisfiedCause)
    }
  }
  /// The addresses of the path's gateways (the next hops off-link traffic goes to, per available interface),
  /// most preferred first. An IPv6 link-local gateway is written without its scope (`fe80::1`, not `fe80::1%en0`)
  /// on every platform; its interface is among ``availableInterfaces``.
  public var gateways: [String] {
    @inlinable get { storage?.gateways ?? [] }
    @inlinable set {
      storage = Storage.make(
        availableInterfaces: availableInterfaces, gateways: newValue, vpn: vpn, cause: unsatisfiedCause)
    }
  }
  /// Whether the path can carry IPv6 traffic to a network beyond the local link.
  public var supportsIPv6: Bool {
    @inlinable get { packed & Packing.supportsIPv6 != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.supportsIPv6, newValue) }
  }
  /// The VPN or tunnel the path goes through, when its interface in use is one (see ``VPN``); `nil` otherwise.
  public var vpn: VPN? {
    @inlinable get { storage?.vpn }
    @inlinable set {
      // None on a path that has none changes nothing: the path keeps its box (or its lack of one).
      if newValue == nil && storage?.vpn == nil { return }
      storage = Storage.make(
        availableInterfaces: availableInterfaces, gateways: gateways, vpn: newValue, cause: unsatisfiedCause)
    }
  }
  /// Why the path is unsatisfied, where its source knows (see ``UnsatisfiedCause``); not one of the path's values.
  @usableFromInline package var unsatisfiedCause: UnsatisfiedCause? {
    @inlinable get { storage?.cause }
    @inlinable set {
      if newValue == nil && storage?.cause == nil { return }
      storage = Storage.make(
        availableInterfaces: availableInterfaces, gateways: gateways, vpn: vpn, cause: newValue)
    }
  }
  /// Whether the path has a DNS resolver configured.
  public var supportsDNS: Bool {
    @inlinable get { packed & Packing.supportsDNS != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.supportsDNS, newValue) }
  }
  /// The expected capabilities of the link in use, as `NWPath.linkQuality` says them: for tuning the initial values
  /// of algorithms that scale with the network, never for deciding whether to connect (see ``LinkQuality``).
  /// ``LinkQuality/unknown`` when nothing measures it.
  public var linkQuality: LinkQuality {
    @inlinable get { LinkQuality(code: Packing.twoBits(packed, Packing.linkQuality)) }
    @inlinable set { packed = Packing.settingTwoBits(packed, Packing.linkQuality, to: newValue.code) }
  }
  /// Whether the path uses an interface the system considers ultra-constrained, as satellite links are
  /// (`NWPath.isUltraConstrained`, iOS and macOS 26). On Linux, `false` unless a system service says otherwise: none
  /// does today.
  public var isUltraConstrained: Bool {
    @inlinable get { packed & Packing.isUltraConstrained != 0 }
    @inlinable set { packed = Packing.setting(packed, Packing.isUltraConstrained, newValue) }
  }

  /// Creates a path.
  ///
  /// - Parameters:
  ///   - status: Whether the path can be used.
  ///   - unsatisfiedReason: Why it cannot, if known. Ignored when `status` is `.satisfied`.
  ///   - availableInterfaces: The interfaces of the path, the one in use first.
  ///   - isExpensive: Whether the path is expensive.
  ///   - isConstrained: Whether the path is constrained.
  ///   - supportsIPv4: Whether IPv4 traffic can leave the local link.
  ///   - supportsIPv6: Whether IPv6 traffic can leave the local link.
  ///   - supportsDNS: Whether a DNS resolver is configured.
  ///   - gateways: The gateways' addresses, most preferred first.
  ///   - vpn: The VPN the path goes through, if any.
  ///   - linkQuality: The expected capabilities of the link in use.
  ///   - isUltraConstrained: Whether the path uses an ultra-constrained interface.
  @inlinable public init(
    status: Status,
    unsatisfiedReason: UnsatisfiedReason? = nil,
    availableInterfaces: [NetworkInterface] = [],
    isExpensive: Bool = false,
    isConstrained: Bool = false,
    supportsIPv4: Bool = false,
    supportsIPv6: Bool = false,
    supportsDNS: Bool = false,
    gateways: [String] = [],
    vpn: VPN? = nil,
    linkQuality: LinkQuality = .unknown,
    isUltraConstrained: Bool = false
  ) {
    let expenseSource: ExpenseSource? = isExpensive && availableInterfaces.first?.type == .cellular ? .cellular : nil
    self.packed =
      Packing.placing(status.code, Packing.status)
      | Packing.placing(
        UnsatisfiedReason.code(of: status == .satisfied ? nil : unsatisfiedReason), Packing.unsatisfiedReason)
      | Packing.placing(ExpenseSource.code(of: expenseSource), Packing.expenseSource)
      | (isExpensive ? Packing.isExpensive : 0) | (isConstrained ? Packing.isConstrained : 0)
      | (supportsIPv4 ? Packing.supportsIPv4 : 0) | (supportsIPv6 ? Packing.supportsIPv6 : 0)
      | (supportsDNS ? Packing.supportsDNS : 0) | Packing.placing(linkQuality.code, Packing.linkQuality)
      | (isUltraConstrained ? Packing.isUltraConstrained : 0)
    self.storage = Storage.make(availableInterfaces: availableInterfaces, gateways: gateways, vpn: vpn)
  }

  /// Whether the path is satisfied. `requiresConnection` is not connected.
  public var isConnected: Bool { status == .satisfied }

  /// The type of the interface in use: the first available interface's type, or `nil` when there is none.
  ///
  /// Unlike `allCases.filter(path.usesInterfaceType).first`, this does not depend on the order of an
  /// enumeration: it is the preferred interface's own type.
  public var interfaceType: InterfaceType? {
    @inlinable get { storage?.availableInterfaces.first?.type }
  }

  /// The distinct types of the available interfaces, in order of preference.
  public var availableInterfaceTypes: [InterfaceType] {
    var seen = Set<InterfaceType>()
    return availableInterfaces.compactMap { seen.insert($0.type).inserted ? $0.type : nil }
  }

  /// Whether any of the path's available interfaces is of the given type.
  public func usesInterfaceType(_ type: InterfaceType) -> Bool {
    availableInterfaces.contains { $0.type == type }
  }
}

extension NetworkPath {
  /// An unsatisfied path with no interfaces, for tests and previews.
  public static let offline = NetworkPath(status: .unsatisfied, unsatisfiedReason: .notAvailable)

  /// A satisfied path over one interface of the given type, for tests and previews.
  ///
  /// A cellular path is expensive. The interface is named after its type (`en0`, `pdp_ip0`, `lo0`…).
  ///
  /// ```swift
  /// let source = ScriptedPathSource([.connected(via: .wifi), .offline, .connected(via: .cellular)])
  /// ```
  public static func connected(via type: InterfaceType, index: Int = 2) -> NetworkPath {
    let name: String
    switch type {
    case .wifi: name = "en0"
    case .wiredEthernet: name = "en1"
    case .cellular: name = "pdp_ip0"
    case .loopback: name = "lo0"
    case .other: name = "utun0"
    }
    return NetworkPath(
      status: .satisfied,
      availableInterfaces: [NetworkInterface(name: name, index: index, type: type)],
      isExpensive: type == .cellular,
      supportsIPv4: true,
      supportsIPv6: false,
      supportsDNS: true,
      gateways: ["192.0.2.1"]
    )
  }
}

extension NetworkPath: CustomStringConvertible {
  /// A one-line summary, for example `satisfied via eth0 (wiredEthernet) [IPv4 DNS]`.
  public var description: String {
    var text = status.rawValue
    if let unsatisfiedReason { text += " (\(unsatisfiedReason))" }
    if !availableInterfaces.isEmpty {
      text += " via " + availableInterfaces.map(\.description).joined(separator: ", ")
    }
    var flags: [String] = []
    if supportsIPv4 { flags.append("IPv4") }
    if supportsIPv6 { flags.append("IPv6") }
    if supportsDNS { flags.append("DNS") }
    if isExpensive { flags.append("expensive") }
    if isConstrained { flags.append("constrained") }
    if isUltraConstrained { flags.append("ultra-constrained") }
    if linkQuality != .unknown { flags.append("link \(linkQuality)") }
    if !flags.isEmpty { text += " [" + flags.joined(separator: " ") + "]" }
    if let vpn { text += " VPN \(vpn)" }
    return text
  }
}

extension NetworkPath: Codable {
  /// The JSON keys, in the order they are written.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case status, unsatisfiedReason, isExpensive, isConstrained, isUltraConstrained, supportsIPv4, supportsIPv6
    case supportsDNS, interfaceType, linkQuality, availableInterfaces, gateways, vpn
  }

  /// Decodes a path from its documented JSON form. `interfaceType` is derived and not read; `vpn`, `linkQuality` and
  /// `isUltraConstrained` may be absent (JSON written before they existed: no VPN, ``LinkQuality/unknown``, `false`),
  /// and the VPN's interface is the available interface of that name.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let status = try container.decode(Status.self, forKey: .status)
    let unsatisfiedReason = try container.decodeIfPresent(UnsatisfiedReason.self, forKey: .unsatisfiedReason)
    let availableInterfaces = try container.decode([NetworkInterface].self, forKey: .availableInterfaces)
    let isExpensive = try container.decode(Bool.self, forKey: .isExpensive)
    let isConstrained = try container.decode(Bool.self, forKey: .isConstrained)
    let supportsIPv4 = try container.decode(Bool.self, forKey: .supportsIPv4)
    let supportsIPv6 = try container.decode(Bool.self, forKey: .supportsIPv6)
    let supportsDNS = try container.decode(Bool.self, forKey: .supportsDNS)
    let linkQuality = try container.decodeIfPresent(LinkQuality.self, forKey: .linkQuality) ?? .unknown
    let isUltraConstrained = try container.decodeIfPresent(Bool.self, forKey: .isUltraConstrained) ?? false
    let gateways = try container.decode([String].self, forKey: .gateways)
    let vpn = try container.decodeIfPresent(VPN.self, forKey: .vpn).map { decoded in
      var vpn = decoded
      vpn.interface = availableInterfaces.first { $0.name == decoded.interface.name } ?? decoded.interface
      return vpn
    }
    self.init(
      status: status, unsatisfiedReason: unsatisfiedReason, availableInterfaces: availableInterfaces,
      isExpensive: isExpensive, isConstrained: isConstrained, supportsIPv4: supportsIPv4, supportsIPv6: supportsIPv6,
      supportsDNS: supportsDNS, gateways: gateways, vpn: vpn, linkQuality: linkQuality,
      isUltraConstrained: isUltraConstrained)
  }

  /// Encodes the path in its documented JSON form, writing every key, `null` included.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(status, forKey: .status)
    try container.encodeOrNull(unsatisfiedReason, forKey: .unsatisfiedReason)
    try container.encode(isExpensive, forKey: .isExpensive)
    try container.encode(isConstrained, forKey: .isConstrained)
    try container.encode(isUltraConstrained, forKey: .isUltraConstrained)
    try container.encode(supportsIPv4, forKey: .supportsIPv4)
    try container.encode(supportsIPv6, forKey: .supportsIPv6)
    try container.encode(supportsDNS, forKey: .supportsDNS)
    try container.encodeOrNull(interfaceType, forKey: .interfaceType)
    try container.encode(linkQuality, forKey: .linkQuality)
    try container.encode(availableInterfaces, forKey: .availableInterfaces)
    try container.encode(gateways, forKey: .gateways)
    try container.encodeOrNull(vpn, forKey: .vpn)
  }
}

extension KeyedEncodingContainer {
  /// Encodes `value`, or `null` when it is `nil`: the documented form has every key (`encodeIfPresent` would leave
  /// the key out).
  fileprivate mutating func encodeOrNull<Value: Encodable>(_ value: Value?, forKey key: Key) throws {
    if let value {
      try encode(value, forKey: key)
    } else {
      try encodeNil(forKey: key)
    }
  }
}

extension NetworkPath {
  /// Whether two paths have the same properties: status, reason, cost, families, DNS, interfaces, gateways and VPN;
  /// not their ``unsatisfiedCause`` nor which delivery of the system's monitor they are. One integer comparison,
  /// then, for copies of one path, one pointer comparison.
  @inlinable public static func == (lhs: NetworkPath, rhs: NetworkPath) -> Bool {
    lhs.packed == rhs.packed && Storage.same(lhs.storage, rhs.storage)
  }

  /// Hashes the properties ``==`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(packed)
    if let storage, storage.holdsValues { hasher.combine(storage) }
  }

  /// Whether this path repeats `other`: equal, and the same delivery of the system's path monitor (on Apple
  /// platforms each one is a change: "Changes" above). The monitor and its front-ends pass on only what is not a
  /// repeat of the last path passed on.
  package func isRepeat(of other: NetworkPath) -> Bool {
    self == other && observation.number == other.observation.number
  }
}
