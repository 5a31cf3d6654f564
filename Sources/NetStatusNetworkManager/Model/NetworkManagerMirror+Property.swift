extension NetworkManagerMirror {
  static let wirelessInterface = "org.freedesktop.NetworkManager.Device.Wireless"
  static let accessPointInterface = "org.freedesktop.NetworkManager.AccessPoint"

  /// Whose property it is: the manager's, a device's, or an access point's.
  enum Owner: Sendable, Hashable {
    case manager
    case device
    /// An access point a Wi-Fi device uses (its `ActiveAccessPoint`); no other access point is read.
    case accessPoint
  }

  /// The properties NetStatus uses.
  enum Property: String, Sendable, Hashable, CaseIterable {
    case connectivity = "Connectivity"
    case devices = "Devices"
    case interface = "Interface"
    case ipInterface = "IpInterface"
    case metered = "Metered"
    case ip4Connectivity = "Ip4Connectivity"
    case ip6Connectivity = "Ip6Connectivity"
    /// `Device.Wireless`'s: the access point a Wi-Fi device is associated with (`/` when none). Other devices have no
    /// `Device.Wireless`: their read fails, and they have no access point.
    case activeAccessPoint = "ActiveAccessPoint"
    /// `AccessPoint`'s: its signal strength, a percentage NetworkManager computes from the dBm the driver reports.
    case strength = "Strength"

    /// A device's properties, in the order a new device's are read.
    static let ofADevice: [Property] = [
      .interface, .ipInterface, .metered, .ip4Connectivity, .ip6Connectivity, .activeAccessPoint,
    ]

    /// Whose property it is.
    var owner: Owner {
      switch self {
      case .connectivity, .devices: .manager
      case .interface, .ipInterface, .metered, .ip4Connectivity, .ip6Connectivity, .activeAccessPoint: .device
      case .strength: .accessPoint
      }
    }

    /// Whether it is the manager's.
    var isManagers: Bool { owner == .manager }

    /// The D-Bus interface it belongs to.
    var interfaceName: String {
      switch self {
      case .connectivity, .devices: NetworkManagerMirror.managerInterface
      case .activeAccessPoint: NetworkManagerMirror.wirelessInterface
      case .strength: NetworkManagerMirror.accessPointInterface
      case .interface, .ipInterface, .metered, .ip4Connectivity, .ip6Connectivity:
        NetworkManagerMirror.deviceInterface
      }
    }

    /// Its D-Bus type, for messages.
    var signature: String {
      switch self {
      case .connectivity, .metered, .ip4Connectivity, .ip6Connectivity: "u"
      case .devices: "ao"
      case .interface, .ipInterface: "s"
      case .activeAccessPoint: "o"
      case .strength: "y"
      }
    }

    /// Whether `value` is of its type.
    func accepts(_ value: Value) -> Bool {
      switch (self, value) {
      case (.connectivity, .uint32), (.metered, .uint32), (.ip4Connectivity, .uint32), (.ip6Connectivity, .uint32),
        (.devices, .strings), (.interface, .string), (.ipInterface, .string), (.activeAccessPoint, .string),
        (.strength, .byte):
        true
      default: false
      }
    }

    /// What NetStatus does with a device's (or an access point's) property of another type.
    var whenUnexpected: String {
      switch self {
      case .interface: "the device is left out"
      case .ipInterface: "its Interface is taken for it"
      case .metered: "counted as unknown"
      case .ip4Connectivity, .ip6Connectivity: "the manager's Connectivity stands for it"
      case .activeAccessPoint, .strength: "its link quality is unknown"
      case .connectivity, .devices: "NetworkManager is not followed"
      }
    }
  }

  /// A property read to send: `Get(property.interfaceName, property)` on object `path`, answered with
  /// ``answered(_:_:)`` and `token`.
  struct Read: Sendable, Hashable {
    var token: UInt64
    var path: String
    var property: Property
  }

  /// A value read or carried by a signal.
  enum Value: Sendable, Hashable {
    case uint32(UInt32)
    case byte(UInt8)
    case string(String)
    case strings([String])
    /// `(ub)`: a number and a flag (ModemManager's `SignalQuality`).
    case numberAndFlag(UInt32, Bool)
    /// `a(su)`: named numbers (ModemManager's `Ports`).
    case namedNumbers([NamedNumber])
    /// Another type: its D-Bus signature.
    case other(signature: String)

    /// Its D-Bus type, for messages (`s` stands for `o` too, `as` for `ao`).
    var signature: String {
      switch self {
      case .uint32: "u"
      case .byte: "y"
      case .string: "s"
      case .strings: "as"
      case .numberAndFlag: "(ub)"
      case .namedNumbers: "a(su)"
      case .other(let signature): signature
      }
    }
  }

  /// An entry of an `a(su)` value.
  struct NamedNumber: Sendable, Hashable {
    var name: String
    var number: UInt32
  }

  /// Why a read failed: the D-Bus error's name (empty if none), the errno, and a description.
  struct ReadFailure: Error, Sendable, Hashable {
    var errorName: String
    var code: Int32
    var description: String
  }
}
