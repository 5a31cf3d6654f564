#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore

  /// `netstatus-test-child` (Tests/NetStatusTestChild/main.swift), built beside the test bundle.
  struct TestChild {
    static let path: String = {
      let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      return executable.deletingLastPathComponent().appendingPathComponent("netstatus-test-child").path
    }()

    /// Runs the child with `arguments` (under `launcher`, if given), waits for it, and returns its exit and its
    /// standard output's lines.
    static func run(_ arguments: [String], launcher: [String] = [], timeout: Duration = .seconds(120)) async throws
      -> (exit: ChildProcess.Exit, lines: [String], errors: String)
    {
      let command = launcher + [path] + arguments
      let child = try ChildProcess(executable: command[0], Array(command.dropFirst()))
      let exit = try await child.waitForExit(timeout: timeout)
      return (exit, child.lines.values, child.errorOutput)
    }

    /// `key=value` fields of a line.
    static func fields(_ line: String) -> [String: Int] {
      var fields: [String: Int] = [:]
      for field in line.split(separator: " ") {
        let parts = field.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
      }
      return fields
    }
  }

  /// Monitors in a process that never runs its main queue (servers, daemons, the CLI): a dropped monitor must
  /// go away with its thread and descriptors, whatever its published paths left on the main queue.
  @Suite(
    "dropped monitors without a main run loop", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct DroppedMonitorTests {
    /// 300 monitors: more than the default `fs.inotify.max_user_instances` (128), which leaked monitors
    /// exhausted. The child stops at the first monitor still alive after its drop, so a regression fails fast
    /// and never takes the machine's inotify instances from other processes.
    @Test(arguments: [true, false], [false, true])
    func droppedMonitorsAreFreed(notifications: Bool, stopping: Bool) async throws {
      let namespace = try TestNamespace("churn")
      defer { namespace.delete() }
      try namespace.ip("link add v0 type veth peer name v1")
      try namespace.ip("addr add 192.0.2.2/24 dev v0")
      try namespace.ip("link set v1 up")
      try namespace.ip("link set v0 up")
      try namespace.ip("route add default via 192.0.2.1 dev v0")
      let count = 300
      var arguments = ["churn", "--netns", namespace.name, "--count", "\(count)"]
      if !notifications { arguments.append("--no-notifications") }
      if stopping { arguments.append("--stop") }
      let run = try await TestChild.run(arguments)
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      let fields = TestChild.fields(run.lines.last ?? "")
      #expect(fields["monitors"] == count, "\(run.lines)")
      #expect(fields["alive"] == 0, "every dropped monitor is freed: \(run.lines)")
      #expect(fields["threads"] == 0, "no netstatus-rtnl thread is left: \(run.lines)")
      #expect(
        fields["descriptors"] != nil && fields["descriptors"] == fields["baselineDescriptors"],
        "descriptors come back down: \(run.lines)")
    }
  }
#endif
