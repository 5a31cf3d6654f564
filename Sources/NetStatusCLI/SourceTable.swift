import NetStatusCore

/// The "Sources" part of `show --all`: what the monitor draws on, and why a source is not in use. Pure.
enum SourceTable {
  /// `Sources` and one indented line per source:
  /// `  NetworkManager (metered devices, connectivity, Wi-Fi signal): active`.
  static func text(_ sources: [SourceDiagnostic]) -> String {
    (["Sources"] + sources.map { "  " + $0.description.escapingControlCharacters() }).joined(separator: "\n")
  }
}
