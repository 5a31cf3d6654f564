/// What systemd-networkd says about one link: its per-link state file, `/run/systemd/netif/links/IFINDEX`.
///
/// networkd writes the file (to a temporary name, then renamed into place) whenever the link's state changes, and
/// removes it when the link goes. NetStatus reads it only where networkd runs, for the process's own network
/// namespace (`NetlinkPathSource.networkd` on Linux). It adds to the kernel's answer and never overrides it: the path is
/// still the kernel's route lookup; these states say what networkd thinks of the link.
///
/// The states are networkd's own words, kept as strings (a newer networkd may add words):
/// - ``administrativeState`` (`ADMIN_STATE`): `pending`, `initialized`, `configuring`, `configured`, `unmanaged`,
///   `failed`, `linger`.
/// - ``operationalState`` (`OPER_STATE`): `missing`, `off`, `no-carrier`, `dormant`, `degraded-carrier`,
///   `carrier`, `degraded`, `enslaved`, `routable`.
/// - ``carrierState`` (`CARRIER_STATE`): `off`, `no-carrier`, `dormant`, `degraded-carrier`, `carrier`,
///   `enslaved`; the address states (`ADDRESS_STATE`, `IPV4_ADDRESS_STATE`, `IPV6_ADDRESS_STATE`): `off`,
///   `degraded`, `routable`.
/// - ``onlineState`` (`ONLINE_STATE`, networkd 249 and later): `online`, `partial` or `offline`; absent for a
///   link networkd does not manage.
///
/// Which networkd writes what (from systemd's NEWS and sources): the settings behind `REQUIRED_FOR_ONLINE`
/// (`RequiredForOnline=`) came with networkd 236, its operational-state minimum (`REQUIRED_OPER_STATE_FOR_ONLINE`:
/// `min` alone, or `min:max`; 252, Debian 12's, writes `:max` only when it is not the default) with 242,
/// `ACTIVATION_POLICY` with 248, `ONLINE_STATE` and `REQUIRED_FAMILY_FOR_ONLINE` with 249; `CAPTIVE_PORTAL` is
/// written only by networkd newer than 252 (not Debian 12's). Keys about configuration (`ONLINE_STATE`, `REQUIRED_…`,
/// `ACTIVATION_POLICY`,
/// `NETWORK_FILE`, `CAPTIVE_PORTAL`) are written only for a link a `.network` file matches. A file read keeps only
/// the keys above (``knownKeys``), in ``values``: others (addresses, DNS servers, LLDP) are dropped as they are
/// parsed, so that a large file costs no memory.
package struct NetworkdLinkState: Sendable, Hashable {
  /// The link's interface index (`ifi_index`): the file's name.
  package var index: Int32
  /// The file's keys that NetStatus knows (``knownKeys``) and their values, as networkd wrote them (quotes and
  /// escapes undone).
  package var values: [String: String]

  /// The keys a file read keeps: those the properties below read.
  package static let knownKeys: Set<String> = [
    "ADMIN_STATE", "OPER_STATE", "CARRIER_STATE", "ADDRESS_STATE", "IPV4_ADDRESS_STATE", "IPV6_ADDRESS_STATE",
    "ONLINE_STATE", "REQUIRED_FOR_ONLINE", "REQUIRED_OPER_STATE_FOR_ONLINE", "REQUIRED_FAMILY_FOR_ONLINE",
    "ACTIVATION_POLICY", "NETWORK_FILE", "CAPTIVE_PORTAL",
  ]

  /// Creates the state of link `index` from its keys and values.
  package init(index: Int32, values: [String: String]) {
    self.index = index
    self.values = values
  }

  /// Parses the text of the state file of link `index`, keeping the ``knownKeys``. Malformed lines are skipped; a
  /// truncated file gives what it holds.
  package init(index: Int32, fileContents: String) {
    self.init(index: index, values: NetworkdStateFile.parse(fileContents, keys: Self.knownKeys))
  }

  /// A value, `nil` when the key is absent or empty (as systemd's own reader, sd-network, treats it).
  private func value(_ key: String) -> String? {
    guard let value = values[key], !value.isEmpty else { return nil }
    return value
  }

  /// `ADMIN_STATE`: how far networkd got configuring the link (`configured`, `unmanaged`, `failed`…).
  package var administrativeState: String? { value("ADMIN_STATE") }
  /// `OPER_STATE`: networkd's operational state of the link (`routable`, `degraded`, `no-carrier`…).
  package var operationalState: String? { value("OPER_STATE") }
  /// `CARRIER_STATE`: the link's carrier as networkd sees it (`carrier`, `no-carrier`…).
  package var carrierState: String? { value("CARRIER_STATE") }
  /// `ADDRESS_STATE`: the best address the link has (`routable`, `degraded` for link-local only, `off`).
  package var addressState: String? { value("ADDRESS_STATE") }
  /// `IPV4_ADDRESS_STATE`: ``addressState`` for IPv4 alone.
  package var ipv4AddressState: String? { value("IPV4_ADDRESS_STATE") }
  /// `IPV6_ADDRESS_STATE`: ``addressState`` for IPv6 alone.
  package var ipv6AddressState: String? { value("IPV6_ADDRESS_STATE") }
  /// `ONLINE_STATE`: whether the link meets its own requirement for being online (`online`, `partial`,
  /// `offline`); `nil` for a link networkd does not manage, or before networkd 249.
  package var onlineState: String? { value("ONLINE_STATE") }

  /// `REQUIRED_FOR_ONLINE`: whether `systemd-networkd-wait-online` waits for this link (`RequiredForOnline=` of its
  /// `.network` file). `nil` when the file does not say (an unmanaged link) or says something that is not a
  /// boolean.
  package var isRequiredForOnline: Bool? {
    switch value("REQUIRED_FOR_ONLINE")?.lowercased() {
    case "yes", "y", "true", "t", "on", "1": true
    case "no", "n", "false", "f", "off", "0": false
    default: nil
    }
  }

  /// `REQUIRED_OPER_STATE_FOR_ONLINE`: the operational state (`degraded`) or range (`degraded:routable`) the link
  /// needs to count as online.
  package var requiredOperationalStateForOnline: String? { value("REQUIRED_OPER_STATE_FOR_ONLINE") }
  /// `REQUIRED_FAMILY_FOR_ONLINE`: the address family the link needs to count as online (`any`, `ipv4`, `ipv6`,
  /// `both`).
  package var requiredFamilyForOnline: String? { value("REQUIRED_FAMILY_FOR_ONLINE") }
  /// `ACTIVATION_POLICY`: how networkd brings the link up (`up`, `always-up`, `manual`, `always-down`, `down`,
  /// `bound`).
  package var activationPolicy: String? { value("ACTIVATION_POLICY") }
  /// `NETWORK_FILE`: the `.network` file that configures the link; `nil` for a link networkd does not manage.
  package var networkFile: String? { value("NETWORK_FILE") }
  /// `CAPTIVE_PORTAL`: the captive-portal API URL the network advertised (RFC 8910: DHCPv4 option 114, DHCPv6
  /// option 103 or the IPv6 router advertisement option), when it did and it is an `https` URI, as RFC 8910 requires
  /// (section 2): anything else (`http:`, `javascript:`, text) is `nil`. A ``ConnectivityMonitor`` whose probe
  /// finds a portal reports it as the portal's address.
  package var captivePortal: String? {
    guard let url = value("CAPTIVE_PORTAL"), Self.isHTTPSURI(url) else { return nil }
    return url
  }

  /// Whether `text` is an absolute `https` URI with a host: the scheme (any case) and `://`, a host before any
  /// `/`, `?` or `#`, and only printable ASCII without spaces (RFC 3986's characters), at most 2,048 bytes.
  static func isHTTPSURI(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let scheme = Array("https://".utf8)
    guard bytes.count > scheme.count, bytes.count <= 2048,
      bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
      zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 })
    else { return false }
    let authority = bytes[scheme.count...].prefix {
      $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
    }
    // The host: what follows any user information, up to a port.
    let host = authority.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false).last ?? []
    return !host.isEmpty && host.first != UInt8(ascii: ":")
  }

  /// Whether networkd manages the link: a `.network` file matches it and networkd has not left it unmanaged.
  package var isManaged: Bool { networkFile != nil && administrativeState != "unmanaged" }
}
