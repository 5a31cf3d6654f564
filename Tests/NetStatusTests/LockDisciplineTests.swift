import Foundation
import Testing

/// Every `Mutex` and `Locked` in Sources is locked through `withLockedValue`, never `Mutex.withLock`: on Linux,
/// ThreadSanitizer cannot see the futex inside `Synchronization.Mutex`, and only `withLockedValue` tells it that the
/// lock was taken (Sources/NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift). A direct `withLock` compiles and
/// passes the plain tests; under TSan it turns every access it guards into a reported race. This reads the sources so
/// that plain `swift test` catches it.
///
/// Nor does any lock, in Sources or Tests, guard an empty value (`()`): `withLockedValue` hands its value out
/// `inout`, which ThreadSanitizer records as a write at the value's address, and an empty value's address is that of
/// whatever is stored after it (the next property of its class, say). Every unlocked read of that neighbour then
/// looks like a race (it did: a `Locked(())` beside a `DispatchSemaphore` failed a CI run). A lock that only
/// serialises holds a count instead.
@Suite("Lock discipline")
struct LockDisciplineTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources")

  /// The file that defines `withLockedValue` on top of `Mutex.withLock`: the one place allowed to call it.
  static let wrapper = "NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift"

  /// A Swift file: its path below Sources (its first component is its module) and its text.
  struct SourceFile {
    var path: String
    var text: String
    var module: Substring { path.split(separator: "/").first ?? "" }
  }

  /// `let name: Mutex<…>`, `var name = Locked(…)`, `let name = Mutex<…>(…)` and the like: the name is group 1.
  static var declaration: Regex<AnyRegexOutput> {
    try! Regex(#"(?:^|\s)(?:let|var)\s+(\w+)\s*(?::\s*(?:Mutex|Locked)\s*<|=\s*(?:Mutex|Locked)\s*[<(])"#)
  }

  /// `Locked(())`, `Mutex<Void>(())`, `: Mutex<()>` and the like: a lock around an empty value.
  static var emptyValue: Regex<AnyRegexOutput> {
    try! Regex(#"(?:Mutex|Locked)\s*(?:<\s*(?:Void|\(\s*\))\s*>|\(\s*\(\s*\)\s*\))"#)
  }

  /// `name.withLock` (not `withLockedValue`), `self.name.withLock` included: the name is group 1. No `\b`: Swift's
  /// regexes find Unicode word boundaries, and `self.name` is one word to them.
  static var directCall: Regex<AnyRegexOutput> { try! Regex(#"(\w+)\s*\.\s*withLock(?!\w)"#) }

  /// Every Swift file under Sources (or `folder`).
  static func sourceFiles(in folder: URL = sources) throws -> [SourceFile] {
    let root = folder.standardizedFileURL.path + "/"
    let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    var files: [SourceFile] = []
    for case let url as URL in enumerator where url.pathExtension == "swift" {
      let path = url.standardizedFileURL.path
      files.append(
        SourceFile(
          path: path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path,
          text: try String(contentsOf: url, encoding: .utf8)))
    }
    return files
  }

  /// The text of `line` before a `//` comment.
  static func code(_ line: Substring) -> Substring {
    guard let comment = line.firstRange(of: "//") else { return line }
    return line[..<comment.lowerBound]
  }

  /// The names declared as a `Mutex` or a `Locked` in each module.
  static func lockNames(in files: [SourceFile]) -> [Substring: Set<Substring>] {
    var names: [Substring: Set<Substring>] = [:]
    for file in files {
      for line in file.text.split(separator: "\n") {
        let code = code(line)
        guard code.contains("Mutex") || code.contains("Locked") else { continue }
        for match in code.matches(of: declaration) {
          if let name = match.output[1].substring { names[file.module, default: []].insert(name) }
        }
      }
    }
    return names
  }

  /// `path:line: text` for each `withLock` called on a name its module declares as a `Mutex` or a `Locked`.
  static func violations(in files: [SourceFile]) -> [String] {
    let names = lockNames(in: files)
    var found: [String] = []
    for file in files where file.path != wrapper {
      let locks = names[file.module] ?? []
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = code(line)
        guard code.contains("withLock") else { continue }
        for match in code.matches(of: directCall) {
          guard let name = match.output[1].substring, locks.contains(name) else { continue }
          found.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    return found
  }

  /// `path:line: text` for each lock around an empty value.
  static func emptyLocks(in files: [SourceFile]) -> [String] {
    var found: [String] = []
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        // Swift's regexes are slow; most lines name no lock.
        let code = code(line)
        guard code.contains("Mutex") || code.contains("Locked"), code.contains(emptyValue) else { continue }
        found.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }

  @Test("no Mutex or Locked in Sources is locked with withLock")
  func sourcesLockThroughWithLockedValue() throws {
    let files = try Self.sourceFiles()
    // Not vacuous: the scan reads the real tree and finds its locks.
    try #require(files.count > 50, "Sources read from \(Self.sources.path)")
    try #require(Self.lockNames(in: files).values.map(\.count).reduce(0, +) > 10, "the sources' locks are found")
    let violations = Self.violations(in: files)
    #expect(violations.isEmpty, "lock through withLockedValue:\n\(violations.joined(separator: "\n"))")
  }

  @Test("the check finds a direct withLock on a Mutex or Locked, and leaves other locks and comments alone")
  func checkFindsViolations() {
    let files = [
      SourceFile(
        path: "NetStatusCore/Linux/Watch.swift",
        text: [
          "private let state = Mutex(State())",
          "let thread = Mutex<pthread_t?>(nil)",
          "private let lifecycle = CallOutLock()",
          "func a() { state.withLock { $0.count += 1 } }",
          "func b() { self.thread.withLock { $0 = nil } }",
          "func c() { state.withLockedValue { $0.count += 1 } }",
          "func d() { lifecycle.withLock { } }",
          "// state.withLock in a comment",
        ].joined(separator: "\n")),
      SourceFile(
        path: "NetStatusCore/Linux/Watch+Stop.swift",
        text: "func e() { let value = state.withLock { $0.count } }"),
      SourceFile(path: "NetStatusCLI/Other.swift", text: "func f() { state.withLock { } }"),
      SourceFile(path: Self.wrapper, text: "let mutex = Mutex(0)\nfunc g() { mutex.withLock { _ in } }"),
    ]
    #expect(
      Self.violations(in: files) == [
        "NetStatusCore/Linux/Watch.swift:4: func a() { state.withLock { $0.count += 1 } }",
        "NetStatusCore/Linux/Watch.swift:5: func b() { self.thread.withLock { $0 = nil } }",
        "NetStatusCore/Linux/Watch+Stop.swift:1: func e() { let value = state.withLock { $0.count } }",
      ])
  }

  @Test("no lock in Sources or Tests guards an empty value")
  func noLockAroundAnEmptyValue() throws {
    let tests = Self.sources.deletingLastPathComponent().appendingPathComponent("Tests")
    let files = try Self.sourceFiles() + Self.sourceFiles(in: tests)
    try #require(files.count > 100, "Sources and Tests read from \(tests.deletingLastPathComponent().path)")
    // This file names the patterns it looks for.
    let found = Self.emptyLocks(in: files.filter { !$0.path.hasSuffix("LockDisciplineTests.swift") })
    #expect(found.isEmpty, "hold a count, not ():\n\(found.joined(separator: "\n"))")
  }

  @Test("the check finds every spelling of a lock around an empty value, and nothing else")
  func checkFindsEmptyLocks() {
    let file = SourceFile(
      path: "NetStatusCLI/Writer.swift",
      text: [
        "private let writing = Locked(())",
        "static let spawnLock = Mutex<Void>(())",
        "let gate: Mutex<()>",
        "let other = Locked< ( ) >( () )",
        "let count = Locked(0)",
        "let state = Mutex<State>(State())",
        "let pair = Locked<(Int, Int)>((0, 0))",
        "// a Locked(()) in a comment",
      ].joined(separator: "\n"))
    #expect(
      Self.emptyLocks(in: [file]) == [
        "NetStatusCLI/Writer.swift:1: private let writing = Locked(())",
        "NetStatusCLI/Writer.swift:2: static let spawnLock = Mutex<Void>(())",
        "NetStatusCLI/Writer.swift:3: let gate: Mutex<()>",
        "NetStatusCLI/Writer.swift:4: let other = Locked< ( ) >( () )",
      ])
  }
}
