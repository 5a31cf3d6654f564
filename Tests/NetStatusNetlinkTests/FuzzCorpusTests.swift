import Foundation
import NetStatusNetlinkFuzzing
import NetStatusPathModel
import Testing

@testable import NetStatusNetlink

/// The fuzzer's committed inputs, replayed through the same entry point the fuzzer calls: the seed corpus
/// (real rtnetlink datagrams, Fuzz/capture-corpus.py, and the generic netlink datagrams of ``CapturedNL80211``,
/// `genl-*`) and every input a fuzzing run once crashed on (Fuzz/regressions).
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
    let inputs = try Self.inputs(in: "corpus").filter { !$0.lastPathComponent.hasPrefix("genl-") }
    #expect(inputs.count >= 20, "the committed seed corpus")
    for input in inputs {
      let bytes = try [UInt8](Data(contentsOf: input))
      #expect(throws: Never.self, "\(input.lastPathComponent)") { try NetlinkMessageDecoder.decode(bytes) }
      bytes.withUnsafeBytes { NetlinkFuzzing.exercise($0) }
    }
  }

  @Test("the generic netlink seeds (genl-*) are the nl80211 tests' datagrams, and decode to what they say")
  func genericNetlinkSeeds() throws {
    let inputs = try Self.inputs(in: "corpus").filter { $0.lastPathComponent.hasPrefix("genl-") }
    #expect(Set(inputs.map(\.lastPathComponent)) == Set(CapturedNL80211.seeds.keys))
    for input in inputs {
      let bytes = try [UInt8](Data(contentsOf: input))
      let name = input.lastPathComponent
      #expect(bytes == CapturedNL80211.seeds[name], "\(name) is not its capture")
      let messages = try GenericNetlinkDecoder.decode(bytes, nl80211Family: CapturedNL80211.family)
      #expect(!messages.isEmpty, "\(name)")
      for message in messages {
        if case .ignored = message.event { Issue.record("\(name): an ignored message") }
        if case .wireless(.ignored) = message.event { Issue.record("\(name): an ignored nl80211 command") }
      }
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
