/// iwd's stations as NetStatus keeps them, and its signal level agent's registrations: what to call, and the
/// ``IwdStatus`` they add up to. Pure: ``NetworkManagerWatch`` (Linux) makes the calls on NetworkManager's
/// connection, exports the agent object, and feeds the answers, signals and the agent's calls in; unit-tested without
/// a bus.
///
/// One `GetManagedObjects` of `/` at the start (and when iwd gets a new owner), whose answer carries every object
/// with its properties; then `InterfacesAdded` and `InterfacesRemoved`. Each station (an object with
/// `net.connman.iwd.Station`) gets one `RegisterSignalLevelAgent` when it is first seen by this owner of iwd's name:
/// iwd then calls the agent's `Changed` at once and at each crossing of a level, so nothing is read or polled. The
/// first status waits for the listing and the registrations' answers, not for the levels (they follow as changes).
struct IwdMirror: Sendable {
  static let service = "net.connman.iwd"
  static let managerPath = "/"
  static let stationInterface = "net.connman.iwd.Station"
  static let deviceInterface = "net.connman.iwd.Device"
  static let agentInterface = "net.connman.iwd.SignalLevelAgent"
  /// iwd's error for a registration with a station that has an agent already.
  static let alreadyExists = "net.connman.iwd.AlreadyExists"
  /// Where NetStatus exports its agent.
  static let agentPath = "/org/netstatus/SignalLevelAgent"
  /// The first call token: apart from ``NetworkManagerMirror``'s and ``ModemManagerMirror``'s on the same connection.
  static let firstToken: UInt64 = 2 << 60

  /// Whether `token` is one of this mirror's calls.
  static func owns(_ token: UInt64) -> Bool { token >= firstToken && token < firstToken + (1 << 60) }

  /// A call to make.
  enum Call: Sendable, Hashable {
    /// `GetManagedObjects` of `/`, answered with `token`.
    case list(token: UInt64)
    /// `RegisterSignalLevelAgent(agentPath, levels)` on station `path`, answered with `token`.
    case register(token: UInt64, station: String)
  }

  private struct Object: Sendable, Hashable {
    var interface = ""
    var isStation = false
    var level: UInt8?
    /// The unique name of the iwd that accepted the agent for this station: the only caller whose `Changed` and
    /// `Release` count (any other connection the bus's policy lets call the agent is ignored).
    var agentOwner: String?
  }

  private var objects: [String: Object] = [:]
  /// Registrations in flight: the station of each token.
  private var registering: [UInt64: String] = [:]
  /// Stations registered with (or being registered with) by iwd's current owner.
  private var registered: Set<String> = []
  /// By station, this connection's registrations with iwd's current owner that it accepted or has not answered:
  /// kept when iwd is listed again after a failed listing (the same iwd keeps the agents), so that its
  /// `AlreadyExists` to a registration made again is known as this connection's own agent, not a refusal.
  private var agents: [String: Set<UInt64>] = [:]
  private var problems: [String: String] = [:]
  private var listing: UInt64?
  private var nextToken = Self.firstToken
  private var failure: IwdStatus?
  private var listed = false

  /// The status, or `nil` until the first listing and its registrations have answered.
  var status: IwdStatus? {
    if let failure { return failure }
    guard listed, registering.isEmpty else { return nil }
    let stations = objects.filter(\.value.isStation).sorted { $0.key < $1.key }.map {
      IwdView.Station(path: $0.key, interface: $0.value.interface, level: $0.value.level)
    }
    return .running(IwdView(stations: stations, problems: problems.sorted { $0.key < $1.key }.map(\.value)))
  }

  /// Whether a call is in flight.
  var isWaiting: Bool { listing != nil || !registering.isEmpty }

  /// Forgets everything and lists iwd's objects.
  mutating func start() -> [Call] {
    agents = [:]
    return restart()
  }

  /// Forgets everything but the agents iwd's owner holds (``agents``) and lists iwd's objects.
  private mutating func restart() -> [Call] {
    objects = [:]
    registering = [:]
    registered = []
    problems = [:]
    failure = nil
    listed = false
    let token = token()
    listing = token
    return [.list(token: token)]
  }

  /// The end of listing `token`: `failure` is why it failed, if it did.
  mutating func listed(_ token: UInt64, _ failure: NetworkManagerMirror.ReadFailure?) {
    guard token == listing else { return }
    listing = nil
    listed = true
    if let failure {
      objects = [:]
      registering = [:]
      self.failure = IwdStatus.afterFailedListing(errorName: failure.errorName, description: failure.description)
    }
  }

  /// An object with `interfaces`: of listing `token`, or of `InterfacesAdded` (`token` 0). A station not registered
  /// with yet is registered with.
  mutating func object(token: UInt64, path: String, interfaces: [String]) -> [Call] {
    guard token == 0 || token == listing else { return [] }
    guard interfaces.contains(Self.stationInterface) || interfaces.contains(Self.deviceInterface) else { return [] }
    if token == 0, failure != nil { return recover() }
    var object = objects[path] ?? Object()
    if interfaces.contains(Self.stationInterface) { object.isStation = true }
    objects[path] = object
    guard object.isStation, !registered.contains(path) else { return [] }
    registered.insert(path)
    let token = self.token()
    registering[token] = path
    agents[path, default: []].insert(token)
    return [.register(token: token, station: path)]
  }

  /// A property of an object a listing (`token`) or a signal (`token` 0: `InterfacesAdded`, `PropertiesChanged`)
  /// announced: the `Device`'s `Name` is kept.
  mutating func property(
    token: UInt64, path: String, interface: String, name: String, value: NetworkManagerMirror.Value
  ) {
    guard token == 0 || token == listing, interface == Self.deviceInterface, name == "Name", objects[path] != nil
    else { return }
    if case .string(let text) = value {
      objects[path]?.interface = text
      problems[path] = nil
    } else {
      objects[path]?.interface = ""
      problems[path] =
        "iwd's Name of device \(path) has an unexpected type (`\(value.signature)`, not `s`): its link quality is "
        + "unknown"
    }
  }

  /// `InterfacesRemoved`: a station that is no longer one loses its level (iwd forgets its agents with it).
  mutating func removed(path: String, interfaces: [String]) {
    guard objects[path] != nil else { return }
    if interfaces.contains(Self.deviceInterface) {
      objects[path] = nil
      problems[path] = nil
      problems["register " + path] = nil
      problems["level " + path] = nil
      registered.remove(path)
      agents[path] = nil
    } else if interfaces.contains(Self.stationInterface) {
      objects[path]?.isStation = false
      objects[path]?.level = nil
      registered.remove(path)
      agents[path] = nil
    }
  }

  /// The answer to call `token` (a registration's) from `sender` (iwd's unique name); an answer to a call forgotten
  /// meanwhile is ignored. `AlreadyExists` while another registration of this connection with the station was
  /// accepted or is unanswered (one made before a failed listing, made again after it) is that agent's, not a
  /// refusal.
  mutating func answered(
    _ token: UInt64, from sender: String, _ result: Result<NetworkManagerMirror.Value, NetworkManagerMirror.ReadFailure>
  ) {
    let inFlight = registering.removeValue(forKey: token)
    guard let station = inFlight ?? agents.first(where: { $0.value.contains(token) })?.key else { return }
    var result = result
    if case .failure = result { agents[station]?.remove(token) }
    if case .failure(let failure) = result, failure.errorName == Self.alreadyExists,
      agents[station]?.isEmpty == false
    {
      result = .success(.other(signature: ""))
    }
    if case .success = result, objects[station] != nil { objects[station]?.agentOwner = sender }
    guard inFlight != nil else { return }
    if case .failure(let failure) = result {
      let name = failure.errorName.isEmpty ? "" : "\(failure.errorName): "
      problems["register " + station] =
        "iwd refused the signal level agent for station \(station) (\(name)\(failure.description)): its link "
        + "quality is unknown"
    } else {
      problems["register " + station] = nil
    }
  }

  /// The agent's `method` called by `sender` for station `device`: `Changed` with `level`, or `Release`. Only the
  /// iwd that accepted the agent for that station is heard; before its answer came, iwd's call (which it makes at
  /// once) is taken from whoever makes it, and the answer's sender decides the calls that follow. A `Changed`
  /// without a level (`nil`: arguments of other types than `oy`) changes nothing, and is said.
  mutating func agentCalled(_ method: String, by sender: String, device: String, level: UInt8?) {
    guard let object = objects[device], object.agentOwner == nil || object.agentOwner == sender else { return }
    switch method {
    case "Changed":
      guard let level else {
        problems["level " + device] =
          "iwd called the signal level agent's Changed for station \(device) without a level (not `oy`): ignored"
        return
      }
      problems["level " + device] = nil
      objects[device]?.level = level
    case "Release":
      objects[device]?.level = nil
      objects[device]?.agentOwner = nil
      registered.remove(device)
      agents[device] = nil
    default: break
    }
  }

  /// NameOwnerChanged of iwd's name: gone (`owner` empty), or a new owner, listed and registered with from scratch.
  mutating func ownerChanged(_ owner: String) -> [Call] {
    guard owner.isEmpty else { return start() }
    _ = start()
    listing = nil
    listed = true
    failure = .absent
    return []
  }

  private mutating func token() -> UInt64 {
    defer { nextToken += 1 }
    return nextToken
  }

  /// A signal after a failed listing: iwd answers again, so it is listed again (once: not while a listing is in
  /// flight, nor while iwd is not on the bus).
  private mutating func recover() -> [Call] {
    guard failure != .absent, listing == nil else { return [] }
    return restart()
  }
}
