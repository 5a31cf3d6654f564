#if os(Linux)
  import NetStatusNetlink
#endif

/// ModemManager's modems as read over D-Bus, and the cellular link quality NetStatus makes of them. Pure: the values
/// come from ``ModemManagerMirror``, and these functions are unit-tested on every platform.
///
/// Each modem is an object of ModemManager's ObjectManager (`/org/freedesktop/ModemManager1`) with the interface
/// `org.freedesktop.ModemManager1.Modem`, whose `SignalQuality` (`(ub)`: percent, and whether it is recent) is the
/// signal, and whose `Ports` (`a(su)`: name and `MMModemPortType`) name its network interfaces (type 2, `NET`: the
/// kernel interface, `wwan0`, that the kernel's route lookup gives).
package struct ModemManagerView: Sendable, Hashable {
  /// A modem ModemManager lists.
  struct Modem: Sendable, Hashable {
    /// Its object path.
    var path: String
    /// Its `NET` ports: the kernel interfaces that carry its traffic.
    var netPorts: [String]
    /// Its `SignalQuality`, in percent: `nil` while unknown (not read, or of another type).
    var signalQuality: UInt32?
  }

  var modems: [Modem]
  /// What ModemManager gave of another type than its API's, and what NetStatus does without it, for the
  /// diagnostics.
  package var problems: [String] = []

  /// The modem whose `NET` port is interface `name`.
  func modem(interface name: String) -> Modem? {
    modems.first { $0.netPorts.contains(name) }
  }

  /// The path with the link quality of a modem: a satisfied path whose interface it rides on
  /// (``NetworkManagerView/ridingInterface(of:type:)``, for a VPN over cellular the first cellular interface) is a
  /// modem's `NET` port takes the rating of that modem's `SignalQuality` (`LinkQualityRules.cellular(signalQuality:)`);
  /// any other path is left as it is.
  func apply(to path: NetworkPath) -> NetworkPath {
    guard path.status == .satisfied,
      let interface = NetworkManagerView.ridingInterface(of: path, type: .cellular),
      let modem = modem(interface: interface.name)
    else { return path }
    #if os(Linux)
      var result = path
      result.linkQuality = LinkQualityRules.cellular(signalQuality: modem.signalQuality)
      return result
    #else
      _ = modem
      return path
    #endif
  }
}
