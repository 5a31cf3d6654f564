// A connectivity state's documented JSON form, written with the JSON writer beside the path's (NetworkPath+JSON.swift),
// where it is inlined into the lines `watch --json` writes.

extension ConnectivityState {
  /// The state in its documented JSON form, on one line, with its keys in the documented order:
  /// `{"state":"portal","redirect":"http://portal.example/login"}`.
  package var jsonRepresentation: String {
    var json = JSONWriter(capacity: 64)
    writeJSON(to: &json)
    return json.text
  }

  /// Writes the documented JSON form, `{` to `}`: ``jsonRepresentation``, and the `connectivity` member of a
  /// path's JSON line, which adds each family's state by name, `null` for a family the path does not support:
  /// `{"state":"full","ipv4":"full","ipv6":"limited"}`.
  package func writeJSON(to json: inout JSONWriter, families: FamilyConnectivity? = nil) {
    json.raw(#"{"state":"#)
    json.string(name)
    if let redirect {
      json.raw(#","redirect":"#)
      json.string(redirect)
    }
    if let families {
      json.raw(#","ipv4":"#)
      Self.writeName(of: families.ipv4, to: &json)
      json.raw(#","ipv6":"#)
      Self.writeName(of: families.ipv6, to: &json)
    }
    json.raw("}")
  }

  /// A family's state by name, or `null`.
  private static func writeName(of state: ConnectivityState?, to json: inout JSONWriter) {
    if let state { json.string(state.name) } else { json.raw("null") }
  }
}
