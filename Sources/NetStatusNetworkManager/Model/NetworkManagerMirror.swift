/// NetworkManager's properties as NetStatus keeps them, from property reads and `PropertiesChanged` signals: which
/// reads to send, and the ``NetworkManagerStatus`` they add up to. Pure: ``NetworkManagerWatch`` (Linux) sends the
/// reads and feeds the answers and signals in; unit-tested without a bus.
///
/// Everything is read once: the manager's `Connectivity` and `Devices`, then each device's `Interface`,
/// `IpInterface`, `Metered`, `Ip4Connectivity`, `Ip6Connectivity` and `ActiveAccessPoint` (a Wi-Fi device's; other
/// devices answer an error), then the `Strength` of each access point in use. After that the values
/// `PropertiesChanged` carries are applied as they are, and a property is re-read only when a signal names it
/// without its value (invalidated), or for a device that appears: at most one read per changed property, never two
/// reads of one property at once. Answers and signals are applied in the order they arrive, which is the order NetworkManager
/// sent them.
///
/// At most ``maxReadsInFlight`` reads are in flight; the others wait, in the order decided, and go as answers come:
/// dbus-daemon refuses a connection's calls past `max_replies_per_connection` awaiting a reply (`LimitsExceeded`;
/// 128 by default), and each device takes several reads. A waiting read is not sent twice: a signal that names its
/// property leaves it waiting, one that carries the value drops it.
struct NetworkManagerMirror: Sendable {
  static let managerPath = "/org/freedesktop/NetworkManager"
  static let managerInterface = "org.freedesktop.NetworkManager"
  static let deviceInterface = "org.freedesktop.NetworkManager.Device"

  /// The most reads in flight at once: a quarter of dbus-daemon's default `max_replies_per_connection` (128), which
  /// leaves room for a bus configured tighter than the default, while the window stays far wider than the one read
  /// NetworkManager serves at a time (it answers in order, from one main loop): a machine's first reads (2, and 6 per
  /// device) all go at once up to five devices, and more devices cost about the same time as without a cap, the next
  /// read being sent as each answer comes.
  static let maxReadsInFlight = 32

  private struct Key: Sendable, Hashable {
    var path: String
    var property: Property
  }

  /// A device's properties: `nil` while not known, empty after a failed read (`Interface`: the device is left out).
  /// A family's connectivity stays `nil` after a failed read: NetworkManager before 1.16 has none.
  private struct Device: Sendable, Hashable {
    var interface: String?
    var ipInterface: String?
    var metered: UInt32?
    var ip4Connectivity: UInt32?
    var ip6Connectivity: UInt32?
    /// Its access point's object path: `/` when it has none, empty when it is no Wi-Fi device (the read failed).
    var activeAccessPoint: String?

    /// The access point it uses, if any.
    var accessPoint: String? {
      guard let activeAccessPoint, activeAccessPoint != "/", !activeAccessPoint.isEmpty else { return nil }
      return activeAccessPoint
    }
  }

  private var connectivity: UInt32?
  private var devicePaths: [String]?
  private var devices: [String: Device] = [:]
  /// The `Strength` of each access point in use, by its object path; only those of a device's `ActiveAccessPoint`.
  private var strengths: [String: UInt8] = [:]
  /// Devices' properties last read or signalled with another type than theirs: the signature, for the diagnostics.
  private var unexpectedTypes: [Key: String] = [:]
  /// The manager's failure, which is the status while it lasts.
  private var failure: NetworkManagerStatus?
  private var inFlight: [UInt64: Key] = [:]
  /// Reads in flight made stale by a signal that named their property without its value: re-read once they answer.
  private var staleInFlight: Set<Key> = []
  /// Reads decided but not sent, while ``maxReadsInFlight`` are in flight: sent in this order as answers come.
  private var waiting: [Key] = []
  private var nextToken: UInt64 = 1
  /// Whether the first reads have all answered.
  private var settled = false

  /// The number of reads sent and not answered yet.
  var readsInFlight: Int { inFlight.count }

  /// The number of reads decided but not sent yet (``maxReadsInFlight`` are in flight).
  var readsWaiting: Int { waiting.count }

  /// The status, or `nil` while the first reads have not all answered.
  var status: NetworkManagerStatus? {
    if let failure { return failure }
    guard settled, let connectivity else { return nil }
    var known: [NetworkManagerView.Device] = []
    for path in devicePaths ?? [] {
      guard let device = devices[path], let interface = device.interface, !interface.isEmpty else { continue }
      known.append(
        NetworkManagerView.Device(
          interface: interface, ipInterface: device.ipInterface ?? "",
          metered: device.metered.map(NetworkManagerView.metered) ?? .unknown,
          ip4Connectivity: device.ip4Connectivity.map(NetworkManagerView.connectivity),
          ip6Connectivity: device.ip6Connectivity.map(NetworkManagerView.connectivity),
          signalStrength: device.accessPoint.flatMap { strengths[$0] }))
    }
    let problems = unexpectedTypes.sorted {
      ($0.key.path, $0.key.property.rawValue) < ($1.key.path, $1.key.property.rawValue)
    }
    .map { Self.unexpectedType($0.key.property, $0.value, device: $0.key.path) }
    return .running(
      NetworkManagerView(
        connectivity: NetworkManagerView.connectivity(connectivity), devices: known, problems: problems))
  }

  /// What has not answered yet, for people (`nil` when everything has).
  var unanswered: String? {
    guard !inFlight.isEmpty || !waiting.isEmpty else { return nil }
    let keys = Array(inFlight.values) + waiting
    if keys.contains(where: \.property.isManagers) { return "reading the manager object" }
    let paths = Set(keys.map(\.path))
    return paths.count == 1 ? "reading device \(paths.first ?? "")" : "reading \(paths.count) devices"
  }

  /// Forgets everything and reads the manager's properties (NetworkManager has a new owner, or at the start).
  mutating func start() -> [Read] {
    connectivity = nil
    devicePaths = nil
    devices = [:]
    strengths = [:]
    unexpectedTypes = [:]
    failure = nil
    inFlight = [:]
    staleInFlight = []
    waiting = []
    settled = false
    return [read(Self.managerPath, .connectivity), read(Self.managerPath, .devices)].compactMap { $0 }
  }

  /// The answer to read `token`; an answer to a read forgotten meanwhile is ignored.
  mutating func answered(_ token: UInt64, _ result: Result<Value, ReadFailure>) -> [Read] {
    guard let key = inFlight.removeValue(forKey: token) else { return [] }
    let reads = apply(result, to: key)
    return reads + sendWaiting()
  }

  /// Applies the answer to the read of `key`, which is no longer in flight.
  private mutating func apply(_ result: Result<Value, ReadFailure>, to key: Key) -> [Read] {
    var reads: [Read] = []
    switch result {
    case .success(let value):
      if key.property.isManagers, !key.property.accepts(value) {
        fail(.unavailable(Self.unexpectedType(key.property, value.signature)))
        return []
      }
      reads += apply(value, to: key)
    case .failure(let failure):
      if key.property.isManagers {
        fail(
          NetworkManagerStatus.afterFailedRead(
            errorName: failure.errorName, code: failure.code, description: failure.description))
        return []
      }
      // A device's read that failed: a device without `Interface` is left out, the others count as unknown (no
      // `ActiveAccessPoint`: no Wi-Fi device). An access point's: its strength is unknown.
      if isKnown(key) {
        unexpectedTypes[key] = nil
        switch key.property {
        case .interface: devices[key.path]?.interface = ""
        case .ipInterface: devices[key.path]?.ipInterface = ""
        case .metered: devices[key.path]?.metered = NetworkManagerView.Metered.unknown.rawValue
        case .activeAccessPoint: _ = setAccessPoint("", of: key.path)
        case .strength: strengths[key.path] = nil
        case .connectivity, .devices, .ip4Connectivity, .ip6Connectivity: break
        }
      }
    }
    if staleInFlight.remove(key) != nil, let reread = read(key.path, key.property) { reads.append(reread) }
    settle()
    return reads
  }

  /// A `PropertiesChanged` signal gave `name` of `interface` at `path` this value.
  mutating func changed(path: String, interface: String, property name: String, value: Value) -> [Read] {
    guard let key = key(path, interface, name) else { return [] }
    if failure != nil { return recover() }
    // A read of it that waits would only bring this value again.
    waiting.removeAll { $0 == key }
    if key.property.isManagers, !key.property.accepts(value) {
      fail(.unavailable(Self.unexpectedType(key.property, value.signature)))
      return []
    }
    return apply(value, to: key)
  }

  /// A `PropertiesChanged` signal said `name` of `interface` at `path` changed, without its value.
  mutating func invalidated(path: String, interface: String, property name: String) -> [Read] {
    guard let key = key(path, interface, name) else { return [] }
    if failure != nil { return recover() }
    return read(key.path, key.property).map { [$0] } ?? []
  }

  /// `DeviceAdded`: read it, unless `Devices` already listed it.
  mutating func deviceAdded(_ path: String) -> [Read] {
    if failure != nil { return recover() }
    guard var paths = devicePaths, !paths.contains(path) else { return [] }
    paths.append(path)
    return setDevices(paths)
  }

  /// `DeviceRemoved`: the reads that waited for the slots its reads in flight took, if any.
  mutating func deviceRemoved(_ path: String) -> [Read] {
    guard var paths = devicePaths, paths.contains(path) else { return [] }
    paths.removeAll { $0 == path }
    return setDevices(paths)
  }

  /// NameOwnerChanged of NetworkManager's name: gone (`owner` empty) or a new owner, which is read from scratch.
  mutating func ownerChanged(_ owner: String) -> [Read] {
    guard owner.isEmpty else { return start() }
    _ = start()
    fail(.absent)
    return []
  }

  // MARK: Inside

  static func unexpectedType(_ property: Property, _ signature: String) -> String {
    "NetworkManager's \(property.rawValue) has an unexpected type (`\(signature)`, not `\(property.signature)`)"
  }

  /// A device's (or an access point's) property of another type, for the diagnostics: what it is, and what NetStatus
  /// does without it.
  static func unexpectedType(_ property: Property, _ signature: String, device path: String) -> String {
    let owner = property.owner == .accessPoint ? "access point" : "device"
    return "NetworkManager's \(property.rawValue) of \(owner) \(path) has an unexpected type (`\(signature)`, not "
      + "`\(property.signature)`): \(property.whenUnexpected)"
  }

  private func key(_ path: String, _ interface: String, _ name: String) -> Key? {
    guard let property = Property(rawValue: name), property.interfaceName == interface else { return nil }
    let key = Key(path: path, property: property)
    // Only devices of `Devices` (one that appears is read whole when it does), and only access points in use.
    return isKnown(key) ? key : nil
  }

  /// Whether `key` is a property of the manager, of a device of `Devices`, or of an access point a device uses.
  private func isKnown(_ key: Key) -> Bool {
    switch key.property.owner {
    case .manager: key.path == Self.managerPath
    case .device: devices[key.path] != nil
    case .accessPoint: devices.values.contains { $0.accessPoint == key.path }
    }
  }

  /// Device `path` uses access point `accessPoint` now (`/`: none, empty: no Wi-Fi device): the reads its strength
  /// takes (none when it is known or being read), and those of access points no device uses any more are forgotten.
  private mutating func setAccessPoint(_ accessPoint: String, of path: String) -> [Read] {
    devices[path]?.activeAccessPoint = accessPoint
    forgetUnusedAccessPoints()
    guard let used = devices[path]?.accessPoint, strengths[used] == nil else { return [] }
    return read(used, .strength).map { [$0] } ?? []
  }

  /// Forgets the strengths, reads and diagnostics of access points no device uses.
  private mutating func forgetUnusedAccessPoints() {
    let used = Set(devices.values.compactMap(\.accessPoint))
    let isUsed = { (key: Key) in key.property.owner != .accessPoint || used.contains(key.path) }
    strengths = strengths.filter { used.contains($0.key) }
    unexpectedTypes = unexpectedTypes.filter { isUsed($0.key) }
    inFlight = inFlight.filter { isUsed($0.value) }
    staleInFlight = staleInFlight.filter(isUsed)
    waiting.removeAll { !isUsed($0) }
  }

  /// A read of `property` at `path`, or `nil` when one is in flight (it is then re-read once that one answers), when
  /// one waits already (its answer will be as new), or when ``maxReadsInFlight`` are in flight (it waits).
  private mutating func read(_ path: String, _ property: Property) -> Read? {
    let key = Key(path: path, property: property)
    guard !inFlight.values.contains(key) else {
      staleInFlight.insert(key)
      return nil
    }
    guard !waiting.contains(key) else { return nil }
    guard waiting.isEmpty, inFlight.count < Self.maxReadsInFlight else {
      waiting.append(key)
      return nil
    }
    return send(key)
  }

  /// The waiting reads that fit in flight now, in their order.
  private mutating func sendWaiting() -> [Read] {
    var reads: [Read] = []
    while !waiting.isEmpty, inFlight.count < Self.maxReadsInFlight { reads.append(send(waiting.removeFirst())) }
    return reads
  }

  /// `key`'s read, in flight from now.
  private mutating func send(_ key: Key) -> Read {
    let token = nextToken
    nextToken += 1
    inFlight[token] = key
    return Read(token: token, path: key.path, property: key.property)
  }

  private mutating func apply(_ value: Value, to key: Key) -> [Read] {
    var reads: [Read] = []
    if !key.property.isManagers, isKnown(key) {
      unexpectedTypes[key] = key.property.accepts(value) ? nil : value.signature
    }
    switch (key.property, value) {
    case (.connectivity, .uint32(let number)): connectivity = number
    case (.devices, .strings(let paths)): reads = setDevices(paths)
    case (.interface, .string(let text)): devices[key.path]?.interface = text
    case (.ipInterface, .string(let text)): devices[key.path]?.ipInterface = text
    case (.metered, .uint32(let number)): devices[key.path]?.metered = number
    case (.ip4Connectivity, .uint32(let number)): devices[key.path]?.ip4Connectivity = number
    case (.ip6Connectivity, .uint32(let number)): devices[key.path]?.ip6Connectivity = number
    case (.activeAccessPoint, .string(let text)): reads = setAccessPoint(text, of: key.path)
    case (.strength, .byte(let strength)): if isKnown(key) { strengths[key.path] = strength }
    // A device's property of another type counts as unreadable: the device left out, or that value unknown.
    case (.interface, _): devices[key.path]?.interface = ""
    case (.ipInterface, _): devices[key.path]?.ipInterface = ""
    case (.metered, _): devices[key.path]?.metered = NetworkManagerView.Metered.unknown.rawValue
    case (.ip4Connectivity, _): devices[key.path]?.ip4Connectivity = nil
    case (.ip6Connectivity, _): devices[key.path]?.ip6Connectivity = nil
    case (.activeAccessPoint, _): reads = setAccessPoint("", of: key.path)
    case (.strength, _): strengths[key.path] = nil
    case (.connectivity, _), (.devices, _): break  // answered above: an unexpected type fails the manager
    }
    settle()
    return reads
  }

  /// The device list is now `paths`: devices that left are forgotten, new ones read.
  private mutating func setDevices(_ paths: [String]) -> [Read] {
    devicePaths = paths
    let listed = Set(paths)
    for path in devices.keys where !listed.contains(path) { devices[path] = nil }
    let isListed = { (key: Key) in key.property.owner != .device || listed.contains(key.path) }
    unexpectedTypes = unexpectedTypes.filter { isListed($0.key) }
    inFlight = inFlight.filter { isListed($0.value) }
    staleInFlight = staleInFlight.filter(isListed)
    waiting.removeAll { !isListed($0) }
    forgetUnusedAccessPoints()
    // The slots of the reads forgotten go to those that waited, before the new devices' (read adds these after).
    var reads = sendWaiting()
    for path in paths where devices[path] == nil {
      devices[path] = Device()
      for property in Property.ofADevice {
        if let read = read(path, property) { reads.append(read) }
      }
    }
    return reads
  }

  private mutating func fail(_ status: NetworkManagerStatus) {
    failure = status
    inFlight = [:]
    staleInFlight = []
    waiting = []
    settled = true
  }

  /// A signal of NetworkManager after its manager failed: it answers once more, so everything is re-read (once: nothing
  /// more while those reads are in flight).
  private mutating func recover() -> [Read] {
    guard failure != .absent, inFlight.isEmpty else { return [] }
    return start()
  }

  private mutating func settle() {
    guard !settled, connectivity != nil, devicePaths != nil, inFlight.isEmpty, waiting.isEmpty else { return }
    settled = true
  }
}
