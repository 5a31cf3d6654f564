extension NetworkPath {
  /// The path in its documented JSON form, on one line, with its keys in the documented order.
  ///
  /// `JSONEncoder` does not keep key order on every platform; this does, so that the output of
  /// `netstatus --json` is byte-for-byte stable. `JSONDecoder` reads it back.
  ///
  /// ```swift
  /// print(path.jsonRepresentation)
  /// // {"status":"satisfied","unsatisfiedReason":null,"isExpensive":false,...,"gateways":["192.0.2.1"]}
  /// ```
  package var jsonRepresentation: String {
    var json = JSONWriter()
    writeJSON(to: &json)
    return json.text
  }

  /// ``jsonRepresentation`` and a newline, as UTF-8: what `netstatus watch --json` writes for each change,
  /// without making a `String` first.
  package var jsonLine: [UInt8] {
    var line: [UInt8] = []
    withJSONLine { line = Array($0) }
    return line
  }

  /// Calls `body` with ``jsonLine``'s bytes, written in stack memory: no allocation for a path of ordinary size.
  /// The bytes are valid only during `body`.
  ///
  /// Not generic on purpose: its caller is in another module (`netstatus watch --json`), where a generic call
  /// would look up the type metadata of its result at run time, for every line.
  package func withJSONLine(_ body: (UnsafeRawBufferPointer) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
      var json = JSONWriter(scratch: scratch)
      writeJSON(to: &json)
      json.raw("\n")
      body(json.written)
    }
  }

  /// The path's JSON form with `extra`'s members after the documented keys: the same object, written once, with
  /// more keys (what `netstatus --json --probe` prints, with `"connectivity":{...}`).
  package func jsonRepresentation(with extra: NetworkPathJSONExtra) -> String {
    var json = JSONWriter()
    writeJSON(to: &json, extra: extra)
    return json.text
  }

  /// ``withJSONLine(_:)`` with `"time"` after the documented keys: a line of `netstatus watch --json`. Its own
  /// entry point (not ``withJSONLine(extra:_:)``): a line per change should not pay for the optional members it
  /// does not have.
  package func withJSONLine(time: JSONTimestamp, _ body: (UnsafeRawBufferPointer) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
      var json = JSONWriter(scratch: scratch)
      writeDocumentedMembers(to: &json)
      json.raw(#","time":"#)
      time.writeJSON(to: &json)
      json.raw("}\n")
      body(json.written)
    }
  }

  /// ``withJSONLine(_:)`` with `extra`'s members after the documented keys: a line of
  /// `netstatus watch --all-netns --json` (`"netns":"NAME"`), also written in stack memory.
  package func withJSONLine(extra: NetworkPathJSONExtra, _ body: (UnsafeRawBufferPointer) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
      var json = JSONWriter(scratch: scratch)
      writeJSON(to: &json, extra: extra)
      json.raw("\n")
      body(json.written)
    }
  }

  /// `text` as a JSON string, quotes included.
  package static func jsonString(_ text: String) -> String {
    var json = JSONWriter()
    json.string(text)
    return json.text
  }

  /// Writes the documented JSON form, `{` to `}`.
  func writeJSON(to json: inout JSONWriter) {
    writeDocumentedMembers(to: &json)
    json.raw("}")
  }

  /// Writes the documented JSON form with `extra`'s members after the documented keys, `{` to `}`.
  func writeJSON(to json: inout JSONWriter, extra: NetworkPathJSONExtra) {
    writeDocumentedMembers(to: &json)
    extra.writeMembers(to: &json)
    json.raw("}")
  }

  /// Writes `{` and the documented keys, in the order of ``CodingKeys`` (which `Codable` uses too; tests check that
  /// both agree): the object is left open for more members. Inlined, so that a `watch --json` line costs what it
  /// did when this was the whole of ``writeJSON(to:)``.
  @inline(__always)
  private func writeDocumentedMembers(to json: inout JSONWriter) {
    // Each key is written with its value where the value is one of a few constants (a bool, `null`): one literal,
    // one check for room, instead of two.
    json.raw(#"{"status":"#)
    status.writeJSON(to: &json)
    if let unsatisfiedReason {
      json.raw(#","unsatisfiedReason":"#)
      unsatisfiedReason.writeJSON(to: &json)
    } else {
      json.raw(#","unsatisfiedReason":null"#)
    }
    json.member(isExpensive, #","isExpensive":true"#, else: #","isExpensive":false"#)
    json.member(isConstrained, #","isConstrained":true"#, else: #","isConstrained":false"#)
    json.member(isUltraConstrained, #","isUltraConstrained":true"#, else: #","isUltraConstrained":false"#)
    json.member(supportsIPv4, #","supportsIPv4":true"#, else: #","supportsIPv4":false"#)
    json.member(supportsIPv6, #","supportsIPv6":true"#, else: #","supportsIPv6":false"#)
    json.member(supportsDNS, #","supportsDNS":true"#, else: #","supportsDNS":false"#)
    if let interfaceType {
      json.raw(#","interfaceType":"#)
      interfaceType.writeJSON(to: &json)
    } else {
      json.raw(#","interfaceType":null"#)
    }
    switch linkQuality {
    case .unknown: json.raw(#","linkQuality":"unknown""#)
    case .minimal: json.raw(#","linkQuality":"minimal""#)
    case .moderate: json.raw(#","linkQuality":"moderate""#)
    case .good: json.raw(#","linkQuality":"good""#)
    }
    json.raw(#","availableInterfaces":["#)
    json.elements(availableInterfaces) { json, interface in
      json.raw(#"{"name":"#)
      json.string(interface.name)
      json.raw(#","index":"#)
      json.int(interface.index)
      json.raw(#","type":"#)
      interface.type.writeJSON(to: &json)
      json.raw("}")
    }
    json.raw(#"],"gateways":["#)
    json.strings(gateways)
    json.raw("]")
    writeVPN(to: &json)
  }

  /// Writes `,"vpn":null` or
  /// `,"vpn":{"interface":"tun0","underlyingInterfaceType":"wiredEthernet","bypassedByIPv4":false,"bypassedByIPv6":false}`.
  @inline(__always)
  private func writeVPN(to json: inout JSONWriter) {
    guard let vpn else {
      json.raw(#","vpn":null"#)
      return
    }
    json.raw(#","vpn":{"interface":"#)
    json.string(vpn.interface.name)
    if let type = vpn.underlyingInterfaceType {
      json.raw(#","underlyingInterfaceType":"#)
      type.writeJSON(to: &json)
    } else {
      json.raw(#","underlyingInterfaceType":null"#)
    }
    json.raw(vpn.isBypassedByIPv4 ? #","bypassedByIPv4":true"# : #","bypassedByIPv4":false"#)
    json.raw(vpn.isBypassedByIPv6 ? #","bypassedByIPv6":true}"# : #","bypassedByIPv6":false}"#)
  }
}

/// The optional members a path's JSON object can carry after its documented keys, written in this order, each only
/// when set: `"connectivity":{...}` (what the probe found), `"netns":"NAME"` (the namespace of
/// `watch --all-netns`), `"time":"…Z"` (when `watch` saw the change), then `"links":[...]` and
/// `"nameservers":[...]` (`show --all`). A new member is a new property here, written in ``writeMembers(to:)``.
package struct NetworkPathJSONExtra: Sendable {
  /// `"connectivity":{"state":...}`: the connectivity state, in its documented JSON form.
  package var connectivity: ConnectivityState?
  /// `"ipv4":...,"ipv6":...` inside `"connectivity"`: each family's state (`null`: not supported), when given.
  package var connectivityFamilies: FamilyConnectivity?
  /// `"netns":"NAME"`: the network namespace the path is of.
  package var netns: String?
  /// `"time":"2026-11-30T22:19:01.123456Z"`: when the change was seen (RFC 3339, UTC, microseconds).
  package var time: JSONTimestamp?
  /// `"links":[...],"nameservers":[...]`: every link and the resolver's servers (`show --all`).
  package var inventory: LinkInventory?
  /// `"sources":[{"name","provides","active","reason"}]`, and `"note"` when an active source has one: the monitor's
  /// sources (`show --all`), after the links.
  package var sources: [SourceDiagnostic]?

  /// Members to write after a path's documented keys; `nil` ones are left out.
  package init(
    connectivity: ConnectivityState? = nil, connectivityFamilies: FamilyConnectivity? = nil, netns: String? = nil,
    time: JSONTimestamp? = nil, inventory: LinkInventory? = nil, sources: [SourceDiagnostic]? = nil
  ) {
    self.connectivity = connectivity
    self.connectivityFamilies = connectivityFamilies
    self.netns = netns
    self.time = time
    self.inventory = inventory
    self.sources = sources
  }

  /// Writes each member that is set, each preceded by a comma (they follow the documented keys).
  func writeMembers(to json: inout JSONWriter) {
    if let connectivity {
      json.raw(#","connectivity":"#)
      connectivity.writeJSON(to: &json, families: connectivityFamilies)
    }
    if let netns {
      json.raw(#","netns":"#)
      json.string(netns)
    }
    if let time {
      json.raw(#","time":"#)
      time.writeJSON(to: &json)
    }
    if let inventory {
      json.raw(#","links":["#)
      json.elements(inventory.links) { json, link in
        json.raw(#"{"index":"#)
        json.int(Int(link.index))
        json.raw(#","name":"#)
        json.string(link.name)
        json.raw(#","type":"#)
        link.type.writeJSON(to: &json)
        json.raw(#","kind":"#)
        json.optionalString(link.kind)
        json.raw(#","up":"#)
        json.bool(link.isUp)
        json.raw(#","carrier":"#)
        json.bool(link.hasCarrier)
        if let speed = link.speed {
          json.raw(#","speed":"#)
          json.int(speed)
        } else {
          json.raw(#","speed":null"#)
        }
        json.raw(#","addresses":["#)
        json.elements(link.addresses) { json, address in
          json.raw(#"{"address":"#)
          json.string(address.text)
          json.raw(#","flags":["#)
          json.strings(address.flags)
          json.raw("]}")
        }
        json.raw("]")
        writeNetworkd(link.networkd, to: &json)
        json.raw("}")
      }
      json.raw(#"],"nameservers":["#)
      json.strings(inventory.nameservers)
      json.raw("]")
    }
    if let sources {
      json.raw(#","sources":["#)
      json.elements(sources) { json, source in
        json.raw(#"{"name":"#)
        json.string(source.name)
        json.raw(#","provides":"#)
        json.string(source.provides)
        json.raw(#","active":"#)
        json.bool(source.isActive)
        json.raw(#","reason":"#)
        json.optionalString(source.unavailableReason)
        if let note = source.note {
          json.raw(#","note":"#)
          json.string(note)
        }
        json.raw("}")
      }
      json.raw("]")
    }
  }
}

extension NetworkPathJSONExtra {
  /// `,"networkd":{...}` after a link's documented keys: what systemd-networkd says of it, or `null` where its state
  /// is not read or it has no file for the link. Keys: `administrativeState`, `operationalState`, `onlineState`,
  /// `requiredForOnline`, `captivePortal` (each `null` when the file does not say).
  func writeNetworkd(_ state: NetworkdLinkState?, to json: inout JSONWriter) {
    json.raw(#","networkd":"#)
    guard let state else {
      json.raw("null")
      return
    }
    json.raw(#"{"administrativeState":"#)
    json.optionalString(state.administrativeState)
    json.raw(#","operationalState":"#)
    json.optionalString(state.operationalState)
    json.raw(#","onlineState":"#)
    json.optionalString(state.onlineState)
    json.raw(#","requiredForOnline":"#)
    if let required = state.isRequiredForOnline { json.bool(required) } else { json.raw("null") }
    json.raw(#","captivePortal":"#)
    json.optionalString(state.captivePortal)
    json.raw("}")
  }
}

// The raw values of the enums in a path, as JSON strings fixed at compile time: a line then makes no `String` for
// them, nor scans them for characters to escape (they have none). Each case writes its own literal, so that its
// length is a constant and the copy a few stores (one literal chosen from a table would be copied by `memcpy`).
// Tests check them against `rawValue`.

extension NetworkPath.Status {
  /// Writes ``rawValue`` as a JSON string, quotes included.
  @inline(__always)
  func writeJSON(to json: inout JSONWriter) {
    switch self {
    case .satisfied: json.raw(#""satisfied""#)
    case .unsatisfied: json.raw(#""unsatisfied""#)
    case .requiresConnection: json.raw(#""requiresConnection""#)
    }
  }
}

extension NetworkPath.UnsatisfiedReason {
  /// Writes ``rawValue`` as a JSON string, quotes included.
  @inline(__always)
  func writeJSON(to json: inout JSONWriter) {
    switch self {
    case .notAvailable: json.raw(#""notAvailable""#)
    case .cellularDenied: json.raw(#""cellularDenied""#)
    case .wifiDenied: json.raw(#""wifiDenied""#)
    case .localNetworkDenied: json.raw(#""localNetworkDenied""#)
    case .vpnInactive: json.raw(#""vpnInactive""#)
    }
  }
}

extension InterfaceType {
  /// Writes ``rawValue`` as a JSON string, quotes included.
  @inline(__always)
  func writeJSON(to json: inout JSONWriter) {
    switch self {
    case .other: json.raw(#""other""#)
    case .wifi: json.raw(#""wifi""#)
    case .cellular: json.raw(#""cellular""#)
    case .wiredEthernet: json.raw(#""wiredEthernet""#)
    case .loopback: json.raw(#""loopback""#)
    }
  }
}
