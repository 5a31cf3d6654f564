import Foundation
import Testing

@testable import NetStatusCLI

/// The manual page's synopsis and the README's options table are the option table's (`OptionDocumentation`), as
/// the completions are: an option added to the table and not to them fails here. `NETSTATUS_WRITE_DOCS=1 swift test
/// --filter OptionDocumentationTests` rewrites them.
@Suite("the manual page and the README list every option")
struct OptionDocumentationTests {
  /// The package's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test(arguments: [
    ("man/netstatus.1", "SYNOPSIS", true), ("README.md", "OPTIONS", false),
  ])
  func theFileHoldsTheGeneratedText(_ file: String, _ name: String, _ roff: Bool) throws {
    let path = Self.root.appendingPathComponent(file).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let generated = roff ? OptionDocumentation.manualSynopsis : OptionDocumentation.readmeTable
    let expected = try #require(
      OptionDocumentation.replacing(name, in: text, with: generated, roff: roff), "\(file) has its \(name) markers")
    if ProcessInfo.processInfo.environment["NETSTATUS_WRITE_DOCS"] == "1", expected != text {
      try expected.write(toFile: path, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      expected == text,
      "\(file)'s \(name) is not the option table's: run NETSTATUS_WRITE_DOCS=1 swift test --filter OptionDocumentationTests"
    )
  }

  @Test func everyOptionIsInBoth() {
    let synopsis = OptionDocumentation.manualSynopsis
    let table = OptionDocumentation.readmeTable
    for spec in CommandLineOptions.optionSpecs {
      #expect(table.contains("`\(spec.long)"), "README: \(spec.long)")
      if !OptionDocumentation.general.contains(spec.long) {
        #expect(synopsis.contains(OptionDocumentation.roff(spec.long)), "synopsis: \(spec.long)")
      }
    }
    for spec in CommandLineOptions.optionSpecs where spec.commands.contains(.watch) {
      // --textfile and --probe-interval were missing from the hand-written synopsis of watch.
      let watch =
        synopsis.components(separatedBy: ".B watch").dropFirst().first?.components(separatedBy: ".YS")
        .first ?? ""
      if !OptionDocumentation.general.contains(spec.long) {
        #expect(watch.contains(OptionDocumentation.roff(spec.long)), "watch's synopsis: \(spec.long)")
      }
    }
  }

  @Test func markdownAndRoffAreEscaped() {
    #expect(OptionDocumentation.markdown("NAME|PATH") == "NAME\\|PATH")
    #expect(OptionDocumentation.roff("--all-netns") == "\\-\\-all\\-netns")
    #expect(OptionDocumentation.replacing("X", in: "a\nb", with: "c", roff: false) == nil, "no markers, no change")
  }
}
