import Testing

@testable import NetStatusCLI
@testable import NetStatusCore
@testable import NetStatusLinuxSource

/// The parser of systemd-networkd's per-link state files, over files as networkd writes them and worse.
@Suite("NetworkdLinkState: networkd's per-link state files")
struct NetworkdLinkStateTests {
  /// A link file as Debian 12's networkd (252) writes it for a DHCP link (its `fprintf`s, in order).
  static let debian12 = """
    # This is private data. Do not parse.
    ADMIN_STATE=configured
    OPER_STATE=routable
    CARRIER_STATE=carrier
    ADDRESS_STATE=routable
    IPV4_ADDRESS_STATE=routable
    IPV6_ADDRESS_STATE=degraded
    ONLINE_STATE=online
    REQUIRED_FOR_ONLINE=yes
    REQUIRED_OPER_STATE_FOR_ONLINE=degraded
    REQUIRED_FAMILY_FOR_ONLINE=any
    ACTIVATION_POLICY=up
    NETWORK_FILE=/etc/systemd/network/20-wired.network
    DNS=192.0.2.53
    NTP=
    SIP=
    DOMAINS=
    ROUTE_DOMAINS=
    LLMNR=yes
    MDNS=no
    DHCP4_ADDRESS=192.0.2.10
    DHCP_LEASE=/run/systemd/netif/leases/2

    """

  /// A newer networkd's file: a range of operational states, quoted drop-ins, a captive portal.
  static let newer = """
    # This is private data. Do not parse.
    ADMIN_STATE=configured
    OPER_STATE=degraded
    CARRIER_STATE=carrier
    ADDRESS_STATE=degraded
    IPV4_ADDRESS_STATE=off
    IPV6_ADDRESS_STATE=degraded
    ONLINE_STATE=offline
    REQUIRED_FOR_ONLINE=no
    REQUIRED_OPER_STATE_FOR_ONLINE=routable:routable
    REQUIRED_FAMILY_FOR_ONLINE=both
    ACTIVATION_POLICY=always-up
    NETWORK_FILE=/run/systemd/network/10-wlan.network
    NETWORK_FILE_DROPINS="/etc/systemd/network/10-wlan.network.d/a\\:b.conf:/etc/x.conf"
    DNS=
    CAPTIVE_PORTAL=https://portal.example/api?x=1&y=2
    HOSTNAME=laptop

    """

  @Test func debian12File() {
    let state = NetworkdLinkState(index: 2, fileContents: Self.debian12)
    #expect(state.index == 2)
    #expect(state.administrativeState == "configured")
    #expect(state.operationalState == "routable")
    #expect(state.carrierState == "carrier")
    #expect(state.addressState == "routable")
    #expect(state.ipv4AddressState == "routable")
    #expect(state.ipv6AddressState == "degraded")
    #expect(state.onlineState == "online")
    #expect(state.isRequiredForOnline == true)
    #expect(state.requiredOperationalStateForOnline == "degraded")
    #expect(state.requiredFamilyForOnline == "any")
    #expect(state.activationPolicy == "up")
    #expect(state.networkFile == "/etc/systemd/network/20-wired.network")
    #expect(state.captivePortal == nil)
    #expect(state.isManaged)
    #expect(state.values["DHCP_LEASE"] == nil, "unknown keys are dropped")
    #expect(Set(state.values.keys).isSubset(of: NetworkdLinkState.knownKeys))
    #expect(state.values.count == 12, "\(state.values.keys.sorted())")
    let whole = NetworkdStateFile.parse(Self.debian12)
    #expect(whole["NTP"] == "", "an empty value is kept")
    #expect(whole["DHCP_LEASE"] == "/run/systemd/netif/leases/2", "every key, without a filter")
    #expect(whole.count == 21, "\(whole.keys.sorted())")
  }

  @Test func newerFile() {
    let state = NetworkdLinkState(index: 3, fileContents: Self.newer)
    #expect(state.isRequiredForOnline == false)
    #expect(state.requiredOperationalStateForOnline == "routable:routable")
    #expect(state.activationPolicy == "always-up")
    #expect(state.onlineState == "offline")
    #expect(state.captivePortal == "https://portal.example/api?x=1&y=2")
    let whole = NetworkdStateFile.parse(Self.newer)
    #expect(
      whole["NETWORK_FILE_DROPINS"] == "/etc/systemd/network/10-wlan.network.d/a\\:b.conf:/etc/x.conf",
      "inside double quotes a backslash before another character stays: \(whole["NETWORK_FILE_DROPINS"] ?? "nil")"
    )
    #expect(whole["HOSTNAME"] == "laptop")
    #expect(state.values["HOSTNAME"] == nil)
  }

  @Test func unmanagedLink() {
    let text = """
      # This is private data. Do not parse.
      ADMIN_STATE=unmanaged
      OPER_STATE=carrier
      CARRIER_STATE=carrier
      ADDRESS_STATE=off
      IPV4_ADDRESS_STATE=off
      IPV6_ADDRESS_STATE=off

      """
    let state = NetworkdLinkState(index: 4, fileContents: text)
    #expect(!state.isManaged)
    #expect(state.onlineState == nil && state.isRequiredForOnline == nil && state.networkFile == nil)
    #expect(state.operationalState == "carrier")
  }

  @Test func truncatedFileGivesWhatItHolds() {
    let whole = Self.debian12
    for length in [0, 1, 20, 40, 53, 80, whole.utf8.count / 2, whole.utf8.count - 1] {
      let text = String(decoding: whole.utf8.prefix(length), as: UTF8.self)
      let state = NetworkdLinkState(index: 2, fileContents: text)
      for (key, value) in state.values {
        let full = NetworkdLinkState(index: 2, fileContents: whole).values[key]
        #expect(full?.hasPrefix(value) == true, "\(length): \(key)=\(value) is a prefix of \(full ?? "nil")")
      }
    }
    let cut = NetworkdLinkState(index: 2, fileContents: "ADMIN_STATE=configured\nOPER_STATE=rout")
    #expect(cut.administrativeState == "configured" && cut.operationalState == "rout")
  }

  @Test func malformedLinesAreSkipped() {
    let text = """
      garbage without equals
      =no key
      BAD KEY=x
      KÉY=y
        OPER_STATE =  routable  \t
      ; a comment
        # another
      ONLINE_STATE=partial
      ONLINE_STATE=online
      \u{0}\u{1B}[31m=z
      REQUIRED_FOR_ONLINE=maybe
      CAPTIVE_PORTAL=
      """
    let state = NetworkdLinkState(index: 9, fileContents: text)
    #expect(state.operationalState == "routable", "blanks around key and value: \(state.values)")
    #expect(state.onlineState == "online", "the last of a repeated key")
    #expect(state.isRequiredForOnline == nil, "not a boolean")
    #expect(state.captivePortal == nil, "empty is absent")
    #expect(state.values["BAD"] == nil && state.values["KEY"] == nil && state.values[""] == nil, "\(state.values)")
    #expect(Set(state.values.keys) == ["OPER_STATE", "ONLINE_STATE", "REQUIRED_FOR_ONLINE", "CAPTIVE_PORTAL"])
  }

  @Test func quotingAndEscapes() {
    let parsed = NetworkdStateFile.parse(
      #"""
      A="quoted value" 
      B='single $quoted \n'
      C=un\ quoted\\x
      D="esc \" \\ \$ \` \z"
      E=joined\
      line
      F="unterminated
      G=never a key
      """#)
    #expect(parsed["A"] == "quoted value")
    #expect(parsed["B"] == #"single $quoted \n"#)
    #expect(parsed["C"] == #"un quoted\x"#)
    #expect(parsed["D"] == #"esc " \ $ ` \z"#)
    #expect(parsed["E"] == "joinedline")
    #expect(parsed["F"] == "unterminated\nG=never a key", "an open quote runs to the end: \(parsed)")
    #expect(parsed["G"] == nil)
  }

  @Test func carriageReturnsAndOddBytesNeverTrap() {
    let inputs = ["\r\n\r\n", "A=\r", "A=\"\\", "A='", "\\", "=", "A=b\\", String(repeating: "\"", count: 1000)]
    for text in inputs {
      _ = NetworkdStateFile.parse(text)
    }
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("AB_=\"'\\ \t\n\r#;x\u{0}é")
    for _ in 0..<500 {
      let text = String((0..<Int.random(in: 0..<64, using: &generator)).map { _ in alphabet.randomElement()! })
      let parsed = NetworkdStateFile.parse(text)
      #expect(parsed.keys.allSatisfy { !$0.isEmpty }, "\(text.debugDescription)")
    }
  }
}

/// What `netstatus show --all` makes of networkd's state: a link's words, and a `"networkd"` member after a link's
/// documented JSON keys.
@Suite("networkd in show --all")
struct NetworkdInventoryOutputTests {
  static func inventory() -> LinkInventory {
    LinkInventory(
      links: [
        LinkInventory.Link(
          index: 2, name: "eth0", type: .wiredEthernet, kind: nil, isUp: true, hasCarrier: true,
          addresses: [LinkInventory.Address(text: "192.0.2.10/24", flags: [])],
          networkd: NetworkdLinkState(index: 2, fileContents: NetworkdLinkStateTests.debian12)),
        LinkInventory.Link(
          index: 3, name: "v0", type: .other, kind: "veth", isUp: true, hasCarrier: false, addresses: []),
      ], nameservers: ["192.0.2.53"])
  }

  @Test func jsonLinksGainNetworkdAfterTheirKeys() {
    let line = NetworkPath.offline.jsonRepresentation(with: NetworkPathJSONExtra(inventory: Self.inventory()))
    #expect(
      line.contains(
        #""addresses":[{"address":"192.0.2.10/24","flags":[]}],"networkd":{"administrativeState":"configured","#
          + #""operationalState":"routable","onlineState":"online","requiredForOnline":true,"captivePortal":null}}"#),
      "\(line)")
    #expect(line.contains(#""addresses":[],"networkd":null}"#), "\(line)")
  }

  @Test func tableShowsNetworkdWords() {
    let text = LinkTable.text(Self.inventory())
    #expect(text.contains("  networkd routable, online, required for online\n"), "\(text)")
    // Whether networkd's state is read at all is one of the monitor's sources, not a line of the table.
    #expect(text.hasSuffix("DNS servers  192.0.2.53"), "\(text)")
    let unmanaged = NetworkdLinkState(index: 4, values: ["ADMIN_STATE": "unmanaged", "OPER_STATE": "carrier"])
    #expect(LinkTable.networkdText(unmanaged) == "networkd carrier, unmanaged")
  }

  /// RFC 8910 (section 2): the captive-portal API URI is an `https` one. Anything else the file says (a DHCP server
  /// may send any bytes) is not an address to show for a portal.
  @Test func onlyAnHTTPSCaptivePortalIsTaken() {
    func portal(_ value: String) -> String? {
      NetworkdLinkState(index: 2, values: ["CAPTIVE_PORTAL": value]).captivePortal
    }
    #expect(portal("https://portal.example/api") == "https://portal.example/api")
    #expect(portal("HTTPS://portal.example") == "HTTPS://portal.example")
    #expect(portal("https://user@portal.example:8443/x?y#z") == "https://user@portal.example:8443/x?y#z")
    for bad in [
      "javascript:alert(1)", "http://portal.example/", "https://", "https:///path", "https://:443/", "https:portal",
      "https://portal example/", "https://portal.example/\u{1B}[2J", "https://portal.example/\u{E9}",
      "ftp://portal.example/", "https://portal.example/" + String(repeating: "a", count: 2048), "",
    ] {
      #expect(portal(bad) == nil, "\(bad.debugDescription)")
    }
  }

  /// A file with many unknown or huge keys keeps only the known ones: what a link's state holds stays small whatever
  /// the file holds.
  @Test func hugeAndUnknownKeysAreDropped() {
    let hugeKey = String(repeating: "K", count: 60_000)
    let text = "OPER_STATE=routable\n\(hugeKey)=1\nDNS=" + String(repeating: "1.1.1.1 ", count: 2000) + "\n"
    let state = NetworkdLinkState(index: 2, fileContents: text)
    #expect(state.values == ["OPER_STATE": "routable"])
  }
}
