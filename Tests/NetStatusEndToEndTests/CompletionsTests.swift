#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCLI
  @testable import NetStatusCore

  /// The completion scripts offer exactly what the parser accepts: both come from one option table, and these
  /// tests hold the parser to the table and run the scripts in the shells themselves.
  @Suite("shell completions")
  struct CompletionsTests {
    /// A value the parser takes for `value`.
    static func sample(_ value: OptionSpec.Value) -> String {
      switch value {
      case .namespace: return "blue"
      case .url: return "http://192.0.2.80/generate_204"
      case .expectation: return "204"
      case .timeSpan: return "5s"
      case .interfaceType: return "wifi"
      case .interfaceName: return "eth0"
      case .file: return "/tmp/nstest.prom"
      case .operationalState: return "routable"
      }
    }

    /// Arguments that make the option parse on its own: `--expect` needs `--probe`, `--internet` too.
    static func arguments(_ command: CommandLineOptions.Command, _ spelling: String, _ spec: OptionSpec) -> [String] {
      var arguments = [command.rawValue, spelling] + (spec.value.map { [sample($0)] } ?? [])
      if command == .completions { arguments.append("bash") }
      if ["--expect", "--internet", "--probe-interval"].contains(spec.long) {
        arguments += ["--probe", "http://192.0.2.80/"]
      }
      if spec.long == "--any" || spec.long == "--operational-state" { arguments += ["--interface", "eth0"] }
      if spec.long == "--netns-dir" { arguments += ["--all-netns"] }
      return arguments
    }

    @Test(arguments: CommandLineOptions.Command.allCases)
    func theParserAcceptsAnOptionExactlyWhereTheTableSays(_ command: CommandLineOptions.Command) {
      for spec in CommandLineOptions.optionSpecs {
        for spelling in [spec.long] + (spec.short.map { ["-\($0)"] } ?? []) {
          let arguments = Self.arguments(command, spelling, spec)
          if spec.commands.contains(command) {
            #expect(throws: Never.self, "\(arguments)") { try CommandLineOptions.parse(arguments) }
          } else {
            #expect(throws: CommandLineOptions.UsageError.self, "\(arguments)") {
              try CommandLineOptions.parse(arguments)
            }
          }
        }
      }
    }

    @Test(arguments: Completions.Shell.allCases)
    func everyScriptNamesEveryCommandAndOption(_ shell: Completions.Shell) {
      let script = Completions.script(for: shell)
      for command in CommandLineOptions.Command.allCases { #expect(script.contains(command.rawValue), "\(command)") }
      for spec in CommandLineOptions.optionSpecs {
        let long = shell == .fish ? "-l \(spec.long.dropFirst(2))" : spec.long
        #expect(script.contains(long), "\(shell): \(spec.long)")
        if let short = spec.short {
          let spelled = shell == .fish ? "-s \(short)" : "-\(short)"
          #expect(script.contains(spelled), "\(shell): -\(short)")
        }
      }
      for type in InterfaceType.allCases { #expect(script.contains(type.rawValue), "\(shell): \(type)") }
    }

    /// Runs `script` with `shell` and returns its standard output lines, or `nil` (with the reason recorded as
    /// skipped) when the shell is not installed.
    static func run(_ shell: String, _ arguments: [String]) async throws -> [String]? {
      guard let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first(where: FileManager.default.isExecutableFile)
      else { return nil }
      let child = try ChildProcess(executable: path, arguments)
      let exit = try await child.waitForExit(timeout: .seconds(20))
      #expect(exit == .exited(0), "\(shell) \(arguments): \(child.errorOutput)")
      return child.lines.values
    }

    static func writeScript(_ shell: Completions.Shell) throws -> String {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-completion-\(UUID())").path
      try Completions.script(for: shell).write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }

    @Test func bashCompletesCommandsOptionsAndValues() async throws {
      let path = try Self.writeScript(.bash)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let cases: [(words: [String], expected: String)] = [
        (["netstatus", "w"], "watch wait"),
        (["netstatus", "wait", "--int"], "--interface-type --interface --internet"),
        (["netstatus", "wait", "--interface-type", "w"], "wifi wiredEthernet"),
        (["netstatus", "watch", "--all"], "--all-netns"),
        (["netstatus", "show", "--all"], "--all --all-netns"),
        (["netstatus", "-j", "--netn"], "--netns --netns-dir"),
        (["netstatus", "wait", "--netn"], "--netns"),
        (["netstatus", "completions", "z"], "zsh"),
        (["netstatus", "wait", "-t", "2"], "2min"),
        // After global options, as the manual recommends them; after `help`, a command.
        (["netstatus", "--json", "wa"], "watch wait"),
        (["netstatus", "-n", "blue", "watch", "--s"], "--settle"),
        (["netstatus", "--netns=blue", "wait", "--vp"], "--vpn"),
        (["netstatus", "help", ""], "show watch wait completions"),
        (["netstatus", "help", "watch", ""], ""),
      ]
      for (words, expected) in cases {
        let array = words.map { "'\($0)'" }.joined(separator: " ")
        let command =
          "source '\(path)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _netstatus; echo \"${COMPREPLY[*]}\""
        guard let lines = try await Self.run("bash", ["-c", command]) else {
          Issue.record("bash is missing")
          return
        }
        #expect(lines == [expected], "\(words)")
      }
    }

    @Test func fishCompletesCommandsOptionsAndValues() async throws {
      let path = try Self.writeScript(.fish)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let cases: [(line: String, expected: [String])] = [
        ("netstatus w", ["wait", "watch"]),
        ("netstatus wait --ip", ["--ipv4", "--ipv6"]),
        ("netstatus wait --interface-type w", ["wifi", "wiredEthernet"]),
        ("netstatus watch --all", ["--all-netns"]),
        ("netstatus --json wa", ["wait", "watch"]),
        ("netstatus -n blue watch --s", ["--settle"]),
        ("netstatus help ", ["completions", "show", "wait", "watch"]),
      ]
      for (line, expected) in cases {
        guard let lines = try await Self.run("fish", ["-c", "source '\(path)'; complete -C '\(line)'"]) else {
          try #require(ProcessInfo.processInfo.environment["CI"] == nil, "fish is missing: .ci/run installs it")
          return
        }
        let words = lines.map { String($0.prefix(while: { $0 != "\t" })) }.sorted()
        #expect(words == expected, "\(line): \(lines)")
      }
    }

    @Test func zshRegistersTheScriptFromItsFpath() async throws {
      // As installed: a file named _netstatus in a folder of $fpath, found by compinit through its #compdef line.
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-zsh-\(UUID())").path
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      try Completions.script(for: .zsh).write(toFile: folder + "/_netstatus", atomically: true, encoding: .utf8)
      let command =
        "zsh -n '\(folder)/_netstatus' && fpath=('\(folder)' $fpath) && autoload -Uz compinit && compinit -u -D "
        + "&& print -r -- ${_comps[netstatus]}"
      guard let lines = try await Self.run("zsh", ["-f", "-c", command]) else {
        try #require(ProcessInfo.processInfo.environment["CI"] == nil, "zsh is missing: .ci/run installs it")
        return
      }
      #expect(lines == ["_netstatus"], "\(lines)")
    }
  }
#endif
