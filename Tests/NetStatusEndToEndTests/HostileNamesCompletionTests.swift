#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  @testable import NetStatusCLI

  /// Completion never runs what a name says: bash's `compgen -W "$(ip netns list)"` expanded `$(…)` in the names it
  /// was given, so pressing TAB after `netstatus --netns` with a namespace named `$(touch pwned)` created `./pwned`.
  /// Each shell completes names holding command substitutions, backticks, globs, spaces and quotes, in a mount
  /// namespace of the test's own (a tmpfs over /run/netns, so the machine's names are neither seen nor touched),
  /// from a folder of its own where nothing may appear; each candidate must read back, in the shell, as the name.
  @Suite(
    "completions of hostile names", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct HostileNamesCompletionTests {
    static let names = [
      "$(touch pwned)", "$(touch${IFS}pwned3)", "`touch pwned2`", "a*", "*", "with space", "quote'd", "dq\"x",
      "semi;colon", "nstest-plain",
    ]

    /// A folder for the run: the names (one a line), the script, and the working folder, which must stay empty.
    struct Scratch {
      let path: String
      init(_ shell: Completions.Shell) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-hostile-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path + "/cwd", withIntermediateDirectories: true)
        try (HostileNamesCompletionTests.names.joined(separator: "\n") + "\n").write(
          toFile: path + "/names", atomically: true, encoding: .utf8)
        try Completions.script(for: shell).write(toFile: path + "/script", atomically: true, encoding: .utf8)
      }
      var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path + "/cwd")) ?? ["?"] }
      func delete() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs `body` (a shell script) in a private mount namespace whose /run/netns holds one file per name, from the
    /// scratch folder's `cwd`; returns its output lines.
    static func run(_ shell: String, _ scratch: Scratch, _ body: String) async throws -> [String] {
      let setup =
        "mount -t tmpfs nstest /run/netns && while IFS= read -r n; do : > \"/run/netns/$n\"; done < '\(scratch.path)/names'"
        + " && cd '\(scratch.path)/cwd' && exec \(shell) -c \"$0\""
      let child = try ChildProcess(
        executable: "/usr/bin/unshare", ["--mount", "--propagation", "private", "sh", "-c", setup, body])
      let exit = try await child.waitForExit(timeout: .seconds(30))
      #expect(exit == .exited(0), "\(shell): \(child.errorOutput)")
      return child.lines.values
    }

    @Test func bashQuotesEveryNameAndRunsNone() async throws {
      let scratch = try Scratch(.bash)
      defer { scratch.delete() }
      // Each candidate, read back by the shell as a word is when inserted: it must be the name.
      let body =
        "source '\(scratch.path)/script'; COMP_WORDS=(netstatus --netns ''); COMP_CWORD=2; _netstatus; "
        + "for c in \"${COMPREPLY[@]}\"; do eval \"set -- $c\"; printf '%s\\n' \"$1\"; done"
      let lines = try await Self.run("bash", scratch, body)
      #expect(lines.sorted() == Self.names.sorted(), "\(lines)")
      #expect(scratch.leftovers.isEmpty, "nothing ran: \(scratch.leftovers)")
      // What is typed narrows them, as typed or already quoted.
      let narrowed = try await Self.run(
        "bash", scratch,
        "source '\(scratch.path)/script'; COMP_WORDS=(netstatus -n 'with\\ s'); COMP_CWORD=2; _netstatus; "
          + "printf '%s\\n' \"${COMPREPLY[@]}\"")
      #expect(narrowed == ["with\\ space"], "\(narrowed)")
    }

    @Test func zshListsEveryNameAsItIs() async throws {
      let scratch = try Scratch(.zsh)
      defer { scratch.delete() }
      // compadd (which quotes what it inserts) stubbed to print what it is given.
      let body =
        "source '\(scratch.path)/script' 2>/dev/null; compadd() { print -rl -- \"${(@P)2}\" }; _netstatus_namespaces"
      let lines = try await Self.run("zsh", scratch, "emulate zsh; " + body)
      #expect(lines.sorted() == Self.names.sorted(), "\(lines)")
      #expect(scratch.leftovers.isEmpty, "nothing ran: \(scratch.leftovers)")
    }

    @Test func fishOffersEveryNameAsItIs() async throws {
      let scratch = try Scratch(.fish)
      defer { scratch.delete() }
      let lines = try await Self.run(
        "fish", scratch, "source '\(scratch.path)/script'; complete -C 'netstatus --netns ' | string split -f1 \\t")
      #expect(lines.sorted() == Self.names.sorted(), "\(lines)")
      #expect(scratch.leftovers.isEmpty, "nothing ran: \(scratch.leftovers)")
    }

    @Test func bashQuotesInterfaceNamesAndRunsNone() async throws {
      let namespace = try TestNamespace("hostileif")
      defer { namespace.delete() }
      // 15 characters, the longest a name may be; `$`, `(`, `)`, `{` and `}` are allowed in interface names.
      try namespace.ip("link add $(touch${IFS}p) type veth peer name hostile-peer")
      let scratch = try Scratch(.bash)
      defer { scratch.delete() }
      let body =
        "source '\(scratch.path)/script'; COMP_WORDS=(netstatus wait -i ''); COMP_CWORD=3; _netstatus; "
        + "for c in \"${COMPREPLY[@]}\"; do eval \"set -- $c\"; printf '%s\\n' \"$1\"; done"
      // `ip netns exec` mounts the namespace's own sysfs, whose /sys/class/net lists its interfaces.
      let child = try ChildProcess(
        executable: KernelTestSupport.ipPath ?? "/usr/sbin/ip",
        ["netns", "exec", namespace.name, "sh", "-c", "cd '\(scratch.path)/cwd' && exec bash -c \"$0\"", body])
      #expect(try await child.waitForExit(timeout: .seconds(30)) == .exited(0), "\(child.errorOutput)")
      #expect(child.lines.values.sorted() == ["$(touch${IFS}p)", "hostile-peer", "lo"], "\(child.lines.values)")
      #expect(scratch.leftovers.isEmpty, "nothing ran: \(scratch.leftovers)")
    }
  }
#endif
