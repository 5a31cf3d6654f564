#if os(Linux)
  import NetStatusNetlink
#endif

/// What NetworkManager says about the machine, as read over D-Bus, and what NetStatus makes of it. Pure: the
/// values come from ``NetworkManagerWatch`` (Linux), and these functions are unit-tested on every platform.
///
/// The numbers are NetworkManager's D-Bus API (its `introspection/org.freedesktop.NetworkManager.xml` and
/// `org.freedesktop.NetworkManager.Device.xml`): the manager's `Connectivity` (`NMConnectivityState`) and each
/// device's `Metered` (`NMMetered`), `Ip4Connectivity` and `Ip6Connectivity` (`NMConnectivityState`, since
/// NetworkManager 1.16), and the `Strength` (percent) of a Wi-Fi device's `ActiveAccessPoint`.
package struct NetworkManagerView: Sendable, Hashable {
  /// NetworkManager's `NMConnectivityState`.
  enum Connectivity: UInt32, Sendable, Hashable {
    case unknown = 0
    case none = 1
    case portal = 2
    case limited = 3
    case full = 4
  }

  /// NetworkManager's `NMMetered`.
  enum Metered: UInt32, Sendable, Hashable {
    case unknown = 0
    case yes = 1
    case no = 2
    case guessYes = 3
    case guessNo = 4

    /// Why a path over a device metered this way is expensive, or `nil` when it is not.
    var expenseSource: ExpenseSource? {
      switch self {
      case .yes: .metered
      case .guessYes: .meteredGuessed
      case .unknown, .no, .guessNo: nil
      }
    }
  }

  /// A device of NetworkManager's `Devices`.
  struct Device: Sendable, Hashable {
    /// `Interface`: the device's kernel interface, or a name of NetworkManager's own (a modem's control port).
    var interface: String
    /// `IpInterface`: the kernel interface that carries its IP traffic, empty when it has none (a modem's
    /// `wwan0`, a PPP link); it is the name the kernel's route lookup gives.
    var ipInterface: String
    var metered: Metered
    /// `Ip4Connectivity`: NetworkManager's check over IPv4 through this device; `nil` when it has none (before 1.16).
    var ip4Connectivity: Connectivity? = nil
    /// `Ip6Connectivity`, as ``ip4Connectivity`` for IPv6.
    var ip6Connectivity: Connectivity? = nil
    /// The `Strength` of its `ActiveAccessPoint`, in percent: `nil` for a device that is no Wi-Fi device, has no
    /// access point, or whose access point's strength could not be read.
    var signalStrength: UInt8? = nil
  }

  var connectivity: Connectivity
  var devices: [Device]
  /// What NetworkManager gave of another type than its API's, and what NetStatus does without it (a device's
  /// property; the manager's fail the integration), for the diagnostics.
  var problems: [String] = []

  /// Decodes a `Connectivity` value; a number NetworkManager adds later is unknown.
  static func connectivity(_ value: UInt32) -> Connectivity { Connectivity(rawValue: value) ?? .unknown }

  /// Decodes a `Metered` value; a number NetworkManager adds later is unknown.
  static func metered(_ value: UInt32) -> Metered { Metered(rawValue: value) ?? .unknown }

  /// How the device whose IP interface (or, failing that, interface) is `name` is metered: ``Metered/unknown`` when
  /// NetworkManager has no such device.
  func metered(interface name: String) -> Metered {
    device(interface: name)?.metered ?? .unknown
  }

  /// The device whose IP interface (or, failing that, interface) is `name`.
  func device(interface name: String) -> Device? {
    devices.first { $0.ipInterface == name } ?? devices.first { $0.ipInterface.isEmpty && $0.interface == name }
  }

  /// The path as NetworkManager's metered view changes it: a satisfied path whose interface in use (the first)
  /// is metered, or guessed metered, becomes expensive and says so in ``NetworkPath/expenseSource``. A path already
  /// expensive (cellular) stays as it is.
  ///
  /// A satisfied path over Wi-Fi also takes its link quality from the signal strength of the Wi-Fi device's access
  /// point (``wifiDevice(of:)``), rated by `LinkQualityRules.wifi(networkManagerStrength:)`; without one, it keeps
  /// the kernel source's rating.
  func apply(to path: NetworkPath) -> NetworkPath {
    guard path.status == .satisfied, let first = path.availableInterfaces.first else { return path }
    var result = path
    if !path.isExpensive, let source = metered(interface: first.name).expenseSource {
      result.isExpensive = true
      result.expenseSource = source
    }
    #if os(Linux)
      if let strength = wifiDevice(of: path)?.signalStrength {
        result.linkQuality = LinkQualityRules.wifi(networkManagerStrength: strength)
      }
    #endif
    return result
  }

  /// The device of the link `path` rides on, whose access point's strength (if it has one: NetworkManager knows its
  /// Wi-Fi devices) rates the path: that of the interface in use; for a VPN over Wi-Fi
  /// (``NetworkPath/VPN/underlyingInterfaceType``), that of the path's first Wi-Fi interface. The evaluator's rule
  /// (`PathEvaluator.underlyingInterface(of:state:)`) has a VPN ride on the first interface that is not a tunnel, and
  /// a tunnel is never Wi-Fi: when that interface is Wi-Fi, it is the first Wi-Fi interface.
  func wifiDevice(of path: NetworkPath) -> Device? {
    Self.ridingInterface(of: path, type: .wifi).flatMap { device(interface: $0.name) }
  }

  /// The interface whose link `path` rides on, when that link is of `type`: the interface in use; for a VPN whose
  /// ``NetworkPath/VPN/underlyingInterfaceType`` is `type`, the path's first interface of that type (the
  /// evaluator's rule, as ``wifiDevice(of:)`` explains it: a tunnel is never Wi-Fi nor cellular). For another type
  /// the interface in use is returned too: the caller finds it among its own devices or not.
  static func ridingInterface(of path: NetworkPath, type: InterfaceType) -> NetworkInterface? {
    path.vpn?.underlyingInterfaceType == type
      ? path.availableInterfaces.first { $0.type == type } : path.availableInterfaces.first
  }

  /// The connectivity state NetworkManager's `Connectivity` stands for over `path`: ``ConnectivityState/unknown``
  /// while the path is not known, ``ConnectivityState/noPath`` while it is not satisfied (as a probing monitor
  /// says), NetworkManager's answer otherwise. NetworkManager gives no portal address on its manager object.
  package func connectivityState(over path: NetworkPath?) -> ConnectivityState {
    Self.state(connectivity, over: path)
  }

  /// Each address family's state over `path`: for each family the path supports, NetworkManager's
  /// `Ip4Connectivity` or `Ip6Connectivity` of the device of the path's interface in use, as
  /// ``connectivityState(over:)`` reads `Connectivity`; the manager's `Connectivity` where the device has none
  /// (NetworkManager before 1.16, or an interface it does not manage).
  package func familyStates(over path: NetworkPath?) -> FamilyConnectivity {
    guard let path else { return FamilyConnectivity() }
    let device = path.isConnected ? path.availableInterfaces.first.flatMap { self.device(interface: $0.name) } : nil
    return FamilyConnectivity(
      ipv4: path.supportsIPv4 ? Self.state(device?.ip4Connectivity ?? connectivity, over: path) : nil,
      ipv6: path.supportsIPv6 ? Self.state(device?.ip6Connectivity ?? connectivity, over: path) : nil)
  }

  /// What `connectivity` stands for over `path`.
  private static func state(_ connectivity: Connectivity, over path: NetworkPath?) -> ConnectivityState {
    guard let path else { return .unknown }
    guard path.isConnected else { return .noPath }
    switch connectivity {
    case .unknown: return .unknown
    case .none: return .noPath
    case .portal: return .portal(redirect: nil)
    case .limited: return .limited
    case .full: return .full
    }
  }
}
