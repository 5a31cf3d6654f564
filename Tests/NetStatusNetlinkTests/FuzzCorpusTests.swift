import Foundation
import NetStatusNetlinkFuzzing
import NetStatusPathModel
import Testing

@testable import NetStatusNetlink

/// The fuzzer's committed inputs, replayed through the same entry point the fuzzer calls: the seed corpus
/// (real datagrams, Fuzz/capture-corpus.py) and every input a fuzzing run once crashed on (Fuzz/regressions).
@Suite("fuzz corpus replay")
struct FuzzCorpusTests {
  /// The repository's Fuzz folder, found from this file's path.
  static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz")

  static func inputs(in folder: String) throws -> [URL] {
    let url = fuzzFolder.appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
      .filter { !$0.lastPathComponent.hasPrefix(".") }
      .sorted { $0.path < $1.path }
  }

  @Test("the seed corpus is real rtnetlink data: it decodes, and runs through state and evaluator")
  func seedCorpus() throws {
    let inputs = try Self.inputs(in: "corpus")
    #expect(inputs.count >= 20, "the committed seed corpus")
    for input in inputs {
      let bytes = try [UInt8](Data(contentsOf: input))
      #expect(throws: Never.self, "\(input.lastPathComponent)") { try NetlinkMessageDecoder.decode(bytes) }
      bytes.withUnsafeBytes { NetlinkFuzzing.exercise($0) }
    }
  }

  @Test("every input a fuzzing run crashed on now runs through")
  func regressions() throws {
    let inputs = try Self.inputs(in: "regressions")
    #expect(!inputs.isEmpty)
    for input in inputs {
      let bytes = try [UInt8](Data(contentsOf: input))
      bytes.withUnsafeBytes { NetlinkFuzzing.exercise($0) }
    }
  }
}
