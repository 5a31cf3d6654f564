extension String {
  /// This text with every character that `replacements` names written as its replacement: the escaping of roff
  /// (OptionDocumentation.swift) and of Prometheus's label values (PrometheusTextfile.swift), each with its table.
  func replacingCharacters(_ replacements: [Character: String]) -> String {
    var result = ""
    result.reserveCapacity(utf8.count)
    for character in self {
      if let replacement = replacements[character] { result += replacement } else { result.append(character) }
    }
    return result
  }
}
