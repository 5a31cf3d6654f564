/// ModemManager's modems as NetStatus keeps them, from its ObjectManager and `PropertiesChanged` signals: when to
/// list them, and the ``ModemManagerStatus`` they add up to. Pure: ``NetworkManagerWatch`` (Linux) sends the call on
/// NetworkManager's connection and feeds the answers and signals in; unit-tested without a bus.
///
/// One call at the start (and when ModemManager gets a new owner): `GetManagedObjects` of
/// `/org/freedesktop/ModemManager1`, whose answer carries every modem with its properties, so nothing else is read.
/// After that `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` keep the modems as they are. At most one
/// call is in flight, far below the bus's limit of calls awaiting a reply. After a failed listing (a timeout, an
/// answer of another type) the next signal of ModemManager lists the modems again, once.
struct ModemManagerMirror: Sendable {
  static let service = "org.freedesktop.ModemManager1"
  static let managerPath = "/org/freedesktop/ModemManager1"
  static let modemInterface = "org.freedesktop.ModemManager1.Modem"
  /// `MMModemPortType`'s `MM_MODEM_PORT_TYPE_NET`: a port that is a kernel network interface.
  static let netPortType: UInt32 = 2
  /// The first call token: the tokens of this mirror's calls are apart from ``NetworkManagerMirror``'s, which count
  /// from 1 on the same connection.
  static let firstToken: UInt64 = 1 << 60

  /// Whether `token` is one of this mirror's calls.
  static func owns(_ token: UInt64) -> Bool { token >= firstToken && token < 2 * firstToken }

  private struct Modem: Sendable, Hashable {
    var netPorts: [String] = []
    var signalQuality: UInt32?
  }

  private var modems: [String: Modem] = [:]
  /// The properties of modems that had another type than their API's, by "path property": the message.
  private var unexpected: [String: String] = [:]
  /// The token of the `GetManagedObjects` in flight.
  private var listing: UInt64?
  private var nextToken = Self.firstToken
  private var failure: ModemManagerStatus?
  private var listed = false

  /// The status, or `nil` until the first listing has answered.
  var status: ModemManagerStatus? {
    if let failure { return failure }
    guard listed else { return nil }
    let known = modems.sorted { $0.key < $1.key }.map {
      ModemManagerView.Modem(path: $0.key, netPorts: $0.value.netPorts, signalQuality: $0.value.signalQuality)
    }
    return .running(ModemManagerView(modems: known, problems: unexpected.sorted { $0.key < $1.key }.map(\.value)))
  }

  /// Whether a listing is in flight.
  var isListing: Bool { listing != nil }

  /// Forgets everything and lists the modems: the token of the `GetManagedObjects` to send.
  mutating func start() -> UInt64 {
    modems = [:]
    unexpected = [:]
    failure = nil
    listed = false
    let token = nextToken
    nextToken += 1
    listing = token
    return token
  }

  /// The end of listing `token` (after its objects): `failure` is why it failed, if it did. An end of a listing
  /// forgotten meanwhile is ignored.
  mutating func listed(_ token: UInt64, _ failure: NetworkManagerMirror.ReadFailure?) {
    guard token == listing else { return }
    listing = nil
    listed = true
    if let failure {
      modems = [:]
      unexpected = [:]
      self.failure = ModemManagerStatus.afterFailedListing(
        errorName: failure.errorName, description: failure.description)
    }
  }

  /// An object with `interfaces`: of listing `token`, or of `InterfacesAdded` (`token` 0). The token of a new
  /// listing when ModemManager answers again after a failure, else `nil`.
  mutating func object(token: UInt64, path: String, interfaces: [String]) -> UInt64? {
    guard token == 0 || token == listing, path.hasPrefix(Self.managerPath + "/") else { return nil }
    if token == 0, failure != nil { return recover() }
    if interfaces.contains(Self.modemInterface), modems[path] == nil { modems[path] = Modem() }
    return nil
  }

  /// `InterfacesRemoved`: the object at `path` lost `interfaces`.
  mutating func removed(path: String, interfaces: [String]) {
    guard interfaces.contains(Self.modemInterface) else { return }
    modems[path] = nil
    unexpected = unexpected.filter { !$0.key.hasPrefix(path + " ") }
  }

  /// A property: of an object of listing `token`, or of a signal (`token` 0: `InterfacesAdded`, or
  /// `PropertiesChanged`). The token of a new listing when ModemManager answers again after a failure, else `nil`.
  mutating func property(
    token: UInt64, path: String, interface: String, name: String, value: NetworkManagerMirror.Value
  )
    -> UInt64?
  {
    guard token == 0 || token == listing else { return nil }
    guard interface == Self.modemInterface, path.hasPrefix(Self.managerPath + "/") else { return nil }
    if token == 0, failure != nil { return recover() }
    guard modems[path] != nil else { return nil }
    let key = path + " " + name
    switch (name, value) {
    case ("SignalQuality", .numberAndFlag(let quality, _)):
      modems[path]?.signalQuality = quality
      unexpected[key] = nil
    case ("Ports", .namedNumbers(let ports)):
      modems[path]?.netPorts = ports.filter { $0.number == Self.netPortType }.map(\.name)
      unexpected[key] = nil
    case ("SignalQuality", _):
      modems[path]?.signalQuality = nil
      unexpected[key] = Self.unexpectedType(name, value.signature, "(ub)", modem: path)
    case ("Ports", _):
      modems[path]?.netPorts = []
      unexpected[key] = Self.unexpectedType(name, value.signature, "a(su)", modem: path)
    default: break
    }
    return nil
  }

  /// NameOwnerChanged of ModemManager's name: gone (`owner` empty), or a new owner, listed from scratch (the token
  /// of its listing).
  mutating func ownerChanged(_ owner: String) -> UInt64? {
    guard owner.isEmpty else { return start() }
    _ = start()
    listing = nil
    listed = true
    failure = .absent
    return nil
  }

  /// The diagnostic of a modem's property of another type.
  static func unexpectedType(_ name: String, _ signature: String, _ expected: String, modem path: String) -> String {
    "ModemManager's \(name) of modem \(path) has an unexpected type (`\(signature)`, not `\(expected)`): its "
      + "link quality is unknown"
  }

  /// A signal after a failed listing: ModemManager answers again, so the modems are listed again (once: not while
  /// a listing is in flight, nor while ModemManager is not on the bus).
  private mutating func recover() -> UInt64? {
    guard failure != .absent, listing == nil else { return nil }
    return start()
  }
}
