import Foundation
import Testing

@testable import NetStatusCLI

/// The manual page's synopsis and its summary table of options are the option table's (`OptionDocumentation`), as
/// the completions are: an option added to the table and not to them fails here. `NETSTATUS_WRITE_DOCS=1 swift test
/// --filter OptionDocumentationTests` rewrites them.
@Suite("the manual page lists every option")
struct OptionDocumentationTests {
  /// The package's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test(arguments: [
    ("man/netstatus.1", "SYNOPSIS"), ("man/netstatus.1", "OPTIONS"),
  ])
  func theFileHoldsTheGeneratedText(_ file: String, _ name: String) throws {
    let path = Self.root.appendingPathComponent(file).path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let generated = name == "SYNOPSIS" ? OptionDocumentation.manualSynopsis : OptionDocumentation.manualTable
    let expected = try #require(
      OptionDocumentation.replacing(name, in: text, with: generated, roff: true), "\(file) has its \(name) markers")
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
    let table = OptionDocumentation.manualTable
    for spec in CommandLineOptions.optionSpecs {
      #expect(
        table.contains("\n" + OptionDocumentation.roff(spec.long))
          || table.contains(", " + OptionDocumentation.roff(spec.long)), "table: \(spec.long)")
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

  @Test func roffIsEscapedAndTheTableSeparatorUnused() {
    #expect(OptionDocumentation.roff("--all-netns") == "\\-\\-all\\-netns")
    for spec in CommandLineOptions.optionSpecs {
      let text = [spec.long, spec.valuePlaceholder ?? "", spec.summary].joined()
      #expect(!text.contains(OptionDocumentation.tableSeparator), "\(spec.long): its text holds tbl's separator")
    }
    #expect(OptionDocumentation.manualTable.hasPrefix(".TS\ntab(@);"))
    #expect(OptionDocumentation.replacing("X", in: "a\nb", with: "c", roff: false) == nil, "no markers, no change")
  }
}
