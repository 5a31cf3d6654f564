import Foundation
import Testing

/// NetStatusUI's words are package resources (Sources/NetStatusUI/Resources); SwiftUI cannot run here, so this
/// checks the files: every `Text("…", bundle: .module)` of NetStatusUI has its key in every language, and the
/// languages have the same keys.
@Suite("NetStatusUI strings")
struct UIStringsTests {
  static let ui = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/NetStatusUI")

  /// The keys of a `.strings` file (`"key" = "value";` lines).
  static func keys(_ language: String) throws -> [String: String] {
    let url = ui.appendingPathComponent("Resources/\(language).lproj/Localizable.strings")
    var entries: [String: String] = [:]
    for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where line.hasPrefix("\"") {
      let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
      try #require(parts.count == 5, "\(language): \(line)")
      entries[String(parts[1])] = String(parts[3])
    }
    return entries
  }

  @Test("English and Traditional Chinese have the same keys, and every key used with bundle: .module")
  func complete() throws {
    let english = try Self.keys("en")
    let chinese = try Self.keys("zh-Hant")
    #expect(Set(english.keys) == Set(chinese.keys))
    #expect(english.allSatisfy { $0.key == $0.value }, "English values are their keys")
    #expect(chinese.values.allSatisfy { !$0.isEmpty && !english.keys.contains($0) }, "translated")

    var used = Set<String>()
    for name in try FileManager.default.contentsOfDirectory(atPath: Self.ui.path) where name.hasSuffix(".swift") {
      let text = try String(contentsOf: Self.ui.appendingPathComponent(name), encoding: .utf8)
      for part in text.components(separatedBy: "Text(\"").dropFirst() {
        guard let end = part.range(of: "\", bundle: .module)") else { continue }
        used.insert(String(part[..<end.lowerBound]))
      }
    }
    #expect(used.count == 8)
    #expect(used.isSubset(of: Set(english.keys)), "missing: \(used.subtracting(english.keys))")
  }
}
