import Foundation
import Testing

/// `swift test` on a Mac compiles NetStatusTests, NetStatusNetlinkTests and their support targets: a test file that uses Linux-only API
/// (rtnetlink, namespaces, Glibc) outside `#if os(Linux)` breaks the whole test build there, and nothing on Linux
/// would notice. So would `Mutex` and `Atomic` (Synchronization), which need macOS 15, above the deployment target.
/// This check reads the sources and fails for such a use, except in the files that Package.swift's
/// `linuxOnlyTestFiles` leaves out of the target on other platforms.
///
/// It collects the names Sources/ declares only under `#if os(Linux)` or `#if canImport(Glibc)` (types, functions,
/// properties and argument labels at file scope and in extensions), leaves out any name also declared for every
/// platform, and looks for them in the test files outside such blocks. It reads text, not types: it may miss a use
/// that needs no Linux-only name (a member reached through a value), so gate a whole Linux-only test file.
@Suite("Linux-only API in tests is gated")
struct LinuxOnlyAPIGateTests {
  @Test("no test file compiled on Apple platforms uses Linux-only API outside #if os(Linux)")
  func gated() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let sources = try SourceScan.swiftFiles(under: root.appendingPathComponent("Sources"))
    var linuxOnly = Set<String>()
    var everywhere = Set<String>()
    for file in sources {
      let scan = SourceScan(text: try String(contentsOf: file, encoding: .utf8))
      linuxOnly.formUnion(scan.declarations(linuxOnly: true))
      everywhere.formUnion(scan.declarations(linuxOnly: false))
    }
    linuxOnly.subtract(everywhere)
    linuxOnly.formUnion(["Glibc", "CNetStatusShim", "Synchronization", "Mutex", "Atomic"])
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let excluded = SourceScan.stringList(named: "linuxOnlyTestFiles", in: manifest)
    #expect(excluded.contains("KernelTestSupport.swift"), "the scan reads Package.swift's list")
    #expect(linuxOnly.contains("networkNamespace:"), "the scan finds NetworkMonitor(networkNamespace:)")
    #expect(linuxOnly.contains("NetlinkPathSource"), "the scan finds the Linux source")

    // What the left-out files declare exists on Linux only too.
    var testDeclarations = Set<String>()
    for file in try SourceScan.swiftFiles(under: root.appendingPathComponent("Tests/NetStatusTests")) {
      let scan = SourceScan(text: try String(contentsOf: file, encoding: .utf8))
      if excluded.contains(file.lastPathComponent) {
        linuxOnly.formUnion(scan.declarations(linuxOnly: false).union(scan.declarations(linuxOnly: true)))
      } else {
        testDeclarations.formUnion(scan.declarations(linuxOnly: false))
      }
    }
    linuxOnly.subtract(everywhere.union(testDeclarations))
    #expect(linuxOnly.contains("ChildProcess"), "the scan finds what the left-out files declare")

    var uses: [String] = []
    for folder in [
      "Tests/NetStatusTests", "Tests/NetStatusTestSupport", "Tests/NetStatusNetlinkTests", "Tests/NetlinkTestSupport",
    ] {
      for file in try SourceScan.swiftFiles(under: root.appendingPathComponent(folder)) {
        if folder == "Tests/NetStatusTests", excluded.contains(file.lastPathComponent) { continue }
        let scan = SourceScan(text: try String(contentsOf: file, encoding: .utf8))
        for (line, name) in scan.uses(of: linuxOnly) {
          uses.append("\(folder)/\(file.lastPathComponent):\(line): \(name)")
        }
      }
    }
    #expect(uses.isEmpty, "Linux-only API outside #if os(Linux):\n\(uses.joined(separator: "\n"))")
  }

  @Test("the scan tells gated code from ungated code")
  func scanner() {
    let source = SourceScan(
      text: """
        #if os(Linux)
          struct OnlyHere {}
          extension Shared {
            init(onlyLabel: Int) {}
            func onlyMethod() {}
          }
        #else
          struct Elsewhere {}
        #endif
        struct Shared {}
        """)
    #expect(source.declarations(linuxOnly: true) == ["OnlyHere", "onlyLabel:", "onlyMethod"])
    #expect(source.declarations(linuxOnly: false) == ["Elsewhere", "Shared"])
    let test = SourceScan(
      text: """
        let a = OnlyHere()  // OnlyHere in a comment is no use
        #if canImport(Glibc)
          let b = Shared(onlyLabel: 1)
        #endif
        let c = "onlyMethod"
        let d = Shared(onlyLabel: 2)
        """)
    #expect(test.uses(of: ["OnlyHere", "onlyLabel:", "onlyMethod"]).map(\.name) == ["OnlyHere", "onlyLabel:"])
  }
}

/// A Swift file read as lines, with the `#if` blocks that are Linux-only marked.
struct SourceScan {
  /// Each line without comments and string literals, whether it is Linux-only, and its brace depth at its start.
  private var lines: [(text: String, linuxOnly: Bool, depth: Int)] = []

  init(text: String) {
    var branches: [(parent: Bool, current: Bool)] = []
    var depth = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let code = SourceScan.stripped(String(raw))
      let trimmed = code.trimmingCharacters(in: .whitespaces)
      let inLinux = branches.last?.current ?? false
      if trimmed.hasPrefix("#if ") {
        branches.append((inLinux, inLinux || SourceScan.isLinuxCondition(trimmed)))
      } else if trimmed.hasPrefix("#elseif "), let top = branches.popLast() {
        branches.append((top.parent, top.parent || SourceScan.isLinuxCondition(trimmed)))
      } else if trimmed.hasPrefix("#else"), let top = branches.popLast() {
        branches.append((top.parent, top.parent))
      } else if trimmed.hasPrefix("#endif") {
        _ = branches.popLast()
      } else {
        lines.append((code, inLinux, depth))
      }
      depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
    }
  }

  /// A condition that holds on Linux only: `os(Linux)` or `canImport(Glibc)`, not negated.
  private static func isLinuxCondition(_ line: String) -> Bool {
    (line.contains("os(Linux)") && !line.contains("!os(Linux)"))
      || (line.contains("canImport(Glibc)") && !line.contains("!canImport(Glibc)"))
  }

  /// The line without a `//` comment and with string literals emptied (one line's worth; good enough here).
  private static func stripped(_ line: String) -> String {
    var result = ""
    var inString = false
    var previous: Character = " "
    for character in line {
      if !inString, character == "/", previous == "/" {
        result.removeLast()
        break
      }
      if character == "\"" && previous != "\\" {
        inString.toggle()
        result.append(character)
      } else if !inString {
        result.append(character)
      }
      previous = character
    }
    return result
  }

  /// The names declared at file scope (types, functions, properties) and in extensions (functions, properties,
  /// initializer labels, as `label:`), in Linux-only blocks or outside them.
  func declarations(linuxOnly: Bool) -> Set<String> {
    var names = Set<String>()
    let keywords = ["struct", "class", "enum", "actor", "protocol", "typealias", "func", "var", "let"]
    var inExtension = false
    var labelFollows = false
    for line in lines where line.linuxOnly == linuxOnly {
      let words = line.text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
      if labelFollows {
        // `init(` ended the previous line: its first label starts this one.
        labelFollows = false
        if let label = words.first, label != "_" { names.insert(label + ":") }
      }
      if line.depth == 0 { inExtension = words.contains("extension") }
      guard line.depth == 0 || (line.depth == 1 && inExtension) else { continue }
      for (index, word) in words.enumerated() where keywords.contains(word) && index + 1 < words.count {
        names.insert(words[index + 1])
      }
      if let range = line.text.range(of: "init("), line.depth == 1 {
        let label = line.text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if !label.isEmpty, label != "_" { names.insert(label + ":") }
        labelFollows = line.text[range.upperBound...].trimmingCharacters(in: .whitespaces).isEmpty
      }
    }
    return names
  }

  /// The uses of `names` outside Linux-only blocks, with their line numbers (among the lines that are not `#if`).
  func uses(of names: Set<String>) -> [(line: Int, name: String)] {
    var found: [(line: Int, name: String)] = []
    for (number, line) in lines.enumerated() where !line.linuxOnly {
      var word = ""
      for character in line.text + " " {
        if character.isLetter || character.isNumber || character == "_" {
          word.append(character)
          continue
        }
        if !word.isEmpty {
          if character == ":", names.contains(word + ":") {
            found.append((number + 1, word + ":"))
          } else if names.contains(word) {
            found.append((number + 1, word))
          }
        }
        word = ""
      }
    }
    return found
  }

  /// The string literals of `let name = [ ... ]` in `text`.
  static func stringList(named name: String, in text: String) -> Set<String> {
    guard let start = text.range(of: "let \(name) = ["),
      let end = text[start.upperBound...].firstIndex(of: "]")
    else { return [] }
    let parts = text[start.upperBound..<end].split(separator: "\"", omittingEmptySubsequences: false)
    return Set(stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) })
  }

  /// Every `.swift` file under `folder`, sorted.
  static func swiftFiles(under folder: URL) throws -> [URL] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let file = enumerator?.nextObject() as? URL {
      if file.pathExtension == "swift" { files.append(file) }
    }
    return files.sorted { $0.path < $1.path }
  }
}
