/// The captive-portal API URL a network advertised (RFC 8910: DHCPv4 option 114, DHCPv6 option 103, the IPv6 router
/// advertisement option), as the system's network manager recorded it for the interface a probe went out on. When a
/// probe finds a portal, a ``ConnectivityMonitor`` reports this URL as the portal's address
/// (``ConnectivityState/portal(redirect:)``): it is what the network itself says, where a redirect is only what one
/// answer to one request said. The probe still decides whether there is a portal.
///
/// The monitor's source says it (``PathSource/advertisedCaptivePortal(interfaceIndex:)``). Today's: systemd-networkd's
/// `CAPTIVE_PORTAL=` (``NetworkdLinkState/captivePortal``), read by the Linux path source for the process's own
/// namespace (NetworkManager's manager object exposes no such URL).
enum AdvertisedCaptivePortal {
  /// The URL advertised on the interface with index `interfaceIndex` of `monitor`'s path, if any.
  static func url(of monitor: NetworkMonitor, interfaceIndex: Int?) -> String? {
    interfaceIndex.flatMap { monitor.source.advertisedCaptivePortal(interfaceIndex: $0) }
  }

  /// `check` with the advertised `url` as the portal's address, when the check found a portal; the detail says so
  /// (and keeps what the probe saw, a redirect included).
  static func apply(_ url: String?, to check: ConnectivityCheck) -> ConnectivityCheck {
    guard let url, case .portal = check.state else { return check }
    var result = check
    result.state = .portal(redirect: url)
    result.detail += "; captive-portal API advertised by the network: " + url.escapingControlCharacters()
    return result
  }
}
