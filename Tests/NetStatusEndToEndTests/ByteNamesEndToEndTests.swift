#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  /// Names are bytes: namespaces and interfaces whose names are not UTF-8, given and shown as NetStatus holds names
  /// (`\xHH` for a byte that is not UTF-8, `\\` for a backslash; Sources/NetStatusNetlink/SystemName.swift). Before,
  /// names were read with repair: `x\xff` and `x\xfe` were both `x\u{FFFD}`, so one namespace of the two went
  /// unwatched and `--netns` to either said it did not exist; `wait --via $'nx\x80\x81'` passed on an interface named
  /// `nx\xc3`. The arguments go through bash's `$'…'`, as a user types them: a Swift string cannot hold such bytes.
  @Suite(
    "names that are not UTF-8", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct ByteNamesEndToEndTests {
    typealias Folder = AllNamespacesEndToEndTests.PrivateNetnsFolder

    /// `netstatus ARGUMENTS` run by bash in the private folder's mount namespace; ARGUMENTS is bash text.
    static func netstatus(_ folder: Folder, _ arguments: String) throws -> NetstatusProcess {
      try NetstatusProcess(
        executable: "/usr/bin/nsenter",
        [folder.mountNamespace, "--", "/bin/bash", "-c", "exec \(NetstatusProcess.binaryPath) \(arguments)"])
    }

    @Test("two namespaces whose names differ in a byte that is not UTF-8: listed, watched and opened, each its own")
    func namespaces() async throws {
      let folder = try await Folder()
      defer { folder.delete() }
      try folder.shell(#"ip netns add "$(printf 'nstest-nb-x\377')" && ip netns add "$(printf 'nstest-nb-x\376')""#)
      let names = [#"nstest-nb-x\xff"#, #"nstest-nb-x\xfe"#]

      let list = try Self.netstatus(folder, "show --all-netns --json")
      #expect(try await list.waitForExit() == .exited(0), "\(list.errorOutput)")
      let listed = list.lines.values.compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["netns"] as? String
      }
      #expect(Set(listed) == Set(names), "both, each its own: \(list.lines.values)")

      let watch = try Self.netstatus(folder, "watch --all-netns")
      defer { watch.terminate() }
      let lines = try await watch.lines.waitUntil(timeout: .seconds(20), "a line for each") { lines in
        names.allSatisfy { name in lines.contains { $0.contains(" \(name): ") } }
      }
      #expect(names.allSatisfy { name in lines.contains { $0.contains(" \(name): ") } }, "\(lines)")

      for (name, typed) in zip(names, [#"$'nstest-nb-x\xff'"#, #"$'nstest-nb-x\xfe'"#]) {
        let show = try Self.netstatus(folder, "--json --netns \(typed)")
        #expect(try await show.waitForExit() == .exited(0), "--netns \(name): \(show.errorOutput)")
        let gone = try Self.netstatus(folder, "--netns \(typed)x")
        #expect(try await gone.waitForExit() == .exited(2))
        #expect(gone.errorOutput.contains(name + "x"), "the name as given, escaped: \(gone.errorOutput)")
      }
    }

    @Test("an interface whose name is not UTF-8: --via and -i match its bytes, no other's; shown escaped")
    func interfaces() async throws {
      let namespace = try TestNamespace("nb")
      defer { namespace.delete() }
      let setup = try ChildProcess(
        executable: "/bin/bash",
        [
          "-c",
          "set -e; n=\(namespace.name); i=$'nx\\xc3'"
            + #"; ip -n $n link add "$i" type veth peer name p0; ip -n $n link set p0 up; ip -n $n link set "$i" up"#
            + #"; ip -n $n addr add 192.0.2.2/24 dev "$i"; ip -n $n route add default via 192.0.2.1 dev "$i""#,
        ])
      #expect(setup.waitUntilExit() == .exited(0), "\(setup.errorOutput)")
      func wait(_ condition: String) throws -> ChildProcess {
        try ChildProcess(
          executable: "/bin/bash",
          ["-c", "exec \(NetstatusProcess.binaryPath) wait --quiet --timeout 2 --netns \(namespace.name) \(condition)"])
      }
      let exact = try wait(#"--via $'nx\xc3'"#)
      #expect(try await exact.waitForExit(timeout: .seconds(20)) == .exited(0), "\(exact.errorOutput)")
      for other in [#"--via $'nx\x80\x81'"#, #"--via $'nx\xff\xfe'"#, #"-i $'nx\x80'"#] {
        let wrong = try wait(other)
        #expect(try await wrong.waitForExit(timeout: .seconds(20)) == .exited(1), "\(other): no such interface")
      }
      let show = try NetstatusProcess(["--json", "--netns", namespace.name])
      #expect(try await show.waitForExit() == .exited(0))
      #expect(show.lines.values.first?.contains(#""name":"nx\\xc3""#) == true, "\(show.lines.values)")
    }
  }
#endif
