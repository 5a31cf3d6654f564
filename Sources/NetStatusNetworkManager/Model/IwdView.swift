#if os(Linux)
  import NetStatusNetlink
#endif

/// iwd's Wi-Fi stations and the signal level its agent reported for each, and the link quality NetStatus makes of
/// them. Pure: the values come from ``IwdMirror``, and these functions are unit-tested on every platform.
///
/// Each station is an object of iwd's ObjectManager (`/`) with the interface `net.connman.iwd.Station`; the same
/// object's `net.connman.iwd.Device` `Name` is its kernel interface. NetStatus registers a signal level agent with
/// each (`RegisterSignalLevelAgent`, levels `LinkQualityRules.iwdSignalLevels`), which iwd calls with the station's
/// level at once and at each crossing of a level (`net.connman.iwd.SignalLevelAgent.Changed`).
package struct IwdView: Sendable, Hashable {
  /// A station iwd lists.
  struct Station: Sendable, Hashable {
    /// Its object path.
    var path: String
    /// Its kernel interface (its `Device`'s `Name`), empty while unknown.
    var interface: String
    /// The last level its agent reported, `nil` before the first (or after `Release`).
    var level: UInt8?
  }

  var stations: [Station]
  /// What went wrong with iwd (a refused registration, a value of another type), for the diagnostics.
  package var problems: [String] = []

  /// The station of kernel interface `name`.
  func station(interface name: String) -> Station? {
    stations.first { !$0.interface.isEmpty && $0.interface == name }
  }

  /// The path with the link quality of an iwd station: a satisfied path whose Wi-Fi link
  /// (``NetworkManagerView/ridingInterface(of:type:)``) is a station's, and which NetworkManager does not rate
  /// (`networkManager`: its view, whose rating comes first; a device it lists without an access point's strength,
  /// as one it does not manage, is not rated), takes the rating of its level (`LinkQualityRules.wifi(iwdLevel:)`);
  /// any other path, and one whose station has no level yet, is left as it is.
  func apply(to path: NetworkPath, after networkManager: NetworkManagerView?) -> NetworkPath {
    guard path.status == .satisfied, let interface = NetworkManagerView.ridingInterface(of: path, type: .wifi),
      networkManager?.wifiDevice(of: path)?.signalStrength == nil,
      let level = station(interface: interface.name)?.level
    else { return path }
    #if os(Linux)
      var result = path
      result.linkQuality = LinkQualityRules.wifi(iwdLevel: level)
      return result
    #else
      _ = level
      return path
    #endif
  }
}
