import Foundation
import Testing

/// No Swift file under Sources is over 400 lines: a file that long holds more than one concept (CONTRIBUTING.md,
/// "Files"). The rule was kept in prose and drifted; this reads the sources, as ``LockDisciplineTests`` does, so
/// that plain `swift test` catches a file that outgrows it.
@Suite("Source file size")
struct SourceFileSizeTests {
  static let maximumLines = 400

  @Test("no Swift file under Sources is over 400 lines")
  func noFileIsOverTheLimit() throws {
    let files = try LockDisciplineTests.sourceFiles()
    #expect(files.count > 100, "the sources were found: \(files.count) files")
    let long = files.compactMap { file -> String? in
      let lines =
        file.text.split(separator: "\n", omittingEmptySubsequences: false).count
        - (file.text.hasSuffix("\n") ? 1 : 0)
      return lines > Self.maximumLines ? "\(file.path): \(lines) lines" : nil
    }
    #expect(long.isEmpty, "split these by concept: \(long)")
  }
}
