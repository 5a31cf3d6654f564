#if os(Linux)
  import NetStatusLinuxSource
  import NetStatusNetworkManager
#elseif canImport(NetStatusAppleSource)
  import NetStatusAppleSource
#endif

/// The path source a ``NetworkMonitor`` uses when none is given: the kernel (rtnetlink) on Linux, with
/// NetworkManager's metered view applied where it runs (``NetworkManagerPathSource``), `NWPathMonitor` on Apple
/// platforms but watchOS.
///
/// Not on watchOS: Apple's TN3135 ("Low-level networking on watchOS") says that watchOS lets an app use the Network
/// framework only while it streams audio, runs a CallKit call, or serves a tvOS app through DeviceDiscoveryUI, and
/// that otherwise `NWPathMonitor` stays unsatisfied. An ordinary watch app would be told "offline" forever. So there
/// the default source fails to start: the path stays not known (`currentPath` is `nil`, never offline), and
/// `lastError` says why.
func makeDefaultPathSource() -> any PathSource {
  #if os(Linux)
    // Made as every Linux monitor's source is (NetworkMonitor+Namespace.swift): NetworkManager's metered view is
    // applied where the process runs in PID 1's namespace, which NetworkManager manages, or where a system bus was
    // named explicitly (DBUS_SYSTEM_BUS_ADDRESS), which says whose NetworkManager to ask (SystemNamespace.swift).
    do throws(NetworkMonitorError) {
      return try NetworkMonitor.linuxSource(networkNamespace: nil)
    } catch {
      preconditionFailure("the process's own namespace has no file to open, so its source cannot fail here: \(error)")
    }
  #elseif os(watchOS)
    return UnsupportedPathSource(platform: UnsupportedPathSource.watchOS)
  #elseif canImport(Network)
    return NWPathMonitorSource()
  #else
    return UnsupportedPathSource()
  #endif
}

/// A source for platforms NetStatus does not support: starting it fails with a clear error.
struct UnsupportedPathSource: PathSource {
  /// What watchOS's default source says.
  static let watchOS =
    "watchOS: NWPathMonitor reports an ordinary watchOS app as offline (Apple's TN3135); the path stays not known"

  /// The platform, as the error names it.
  var platform = "this operating system"

  func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
    throw .unsupportedPlatform(platform)
  }
}
