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
  public var jsonRepresentation: String {
    var out = "{"
    out += #""status":"# + JSONText.string(status.rawValue)
    out += #","unsatisfiedReason":"# + (unsatisfiedReason.map { JSONText.string($0.rawValue) } ?? "null")
    out += #","isExpensive":\#(isExpensive)"#
    out += #","isConstrained":\#(isConstrained)"#
    out += #","supportsIPv4":\#(supportsIPv4)"#
    out += #","supportsIPv6":\#(supportsIPv6)"#
    out += #","supportsDNS":\#(supportsDNS)"#
    out += #","interfaceType":"# + (interfaceType.map { JSONText.string($0.rawValue) } ?? "null")
    out += #","availableInterfaces":["#
    out += availableInterfaces.map { interface in
      #"{"name":"# + JSONText.string(interface.name) + #","index":\#(interface.index),"type":"#
        + JSONText.string(interface.type.rawValue) + "}"
    }.joined(separator: ",")
    out += #"],"gateways":["# + gateways.map(JSONText.string).joined(separator: ",") + "]"
    out += "}"
    return out
  }
}

/// Minimal JSON text helpers for the stable output forms.
enum JSONText {
  /// A JSON string literal for `text`, escaped as RFC 8259 requires.
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
