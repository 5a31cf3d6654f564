import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import NetlinkTestSupport
import Testing

/// The manual's exit codes hold at any moment of a run (man/netstatus.1, EXIT STATUS and SIGNALS): a stop signal ends
/// `show` and `wait` with 128 + its number, and `watch` with 0, whenever it comes, start-up included (with a D-Bus
/// bus that never answers, netstatus waits up to 750 ms there for NetworkManager); only a command that had already
/// finished on its own before the signal may end with its own code.
///
/// "Finished before the signal" is read from the kernel, not a clock: the command's standard output is a pipe this
/// test reads only after the exit, and right after sending the signal it asks how many bytes wait in it
/// (`FIONREAD`). None: nothing was printed before the signal, so the command had not finished, and its exit must be
/// the stop's. Some: its own code or the stop's, both honest.
@Suite(
  "stop signals at any moment", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct StopSignalPropertyTests {
  /// How many runs, in all: 200 by default (`NETSTATUS_SIGNAL_TRIALS` sets another number).
  static let trials = ProcessInfo.processInfo.environment["NETSTATUS_SIGNAL_TRIALS"].flatMap { Int($0) } ?? 200

  enum Command: String, CaseIterable {
    case show, watch, wait

    var arguments: [String] { self == .wait ? ["wait", "--timeout", "10"] : [rawValue] }

    /// What a stop signal ends it with, as the manual says.
    func stopped(by signal: Int32) -> Int32 { self == .watch ? 0 : 128 + signal }
  }

  /// What one run found.
  enum Outcome: Sendable {
    /// The signal was sent while netstatus ran; `failure` says what broke the promise, if anything did.
    case signalled(failure: String?)
    /// It had ended before the signal could be sent (a `show` is done in tens of milliseconds): nothing to judge.
    case endedFirst
  }

  /// One run: the command, in the namespace as its own (so that it asks NetworkManager, on `bus`), the signal sent
  /// `offset` after it has blocked its stop signals (netstatus's first step).
  static func trial(_ command: Command, bus: String, signal: Int32, offset: Duration, site: TestNamespace) async throws
    -> Outcome
  {
    let output = try ChildProcess.closeOnExecPipe()
    defer { close(output.read) }
    let run: NetstatusProcess
    do {
      defer { close(output.write) }
      run = try NetstatusProcess(
        executable: "/bin/sh",
        [
          "-c",
          "namespace=$1 bus=$2; shift 2; exec ip netns exec \"$namespace\" env DBUS_SYSTEM_BUS_ADDRESS=\"$bus\" \"$0\" \"$@\"",
          NetstatusProcess.binaryPath, site.name, bus,
        ] + command.arguments, standardOutput: output.write)
    }
    defer { run.terminate() }
    guard try await run.waitUntilBlockingOrExit([SIGINT, SIGTERM, SIGQUIT]) else { return .endedFirst }
    try await Task.sleep(for: offset)
    run.signal(signal)
    var waiting: Int32 = 0
    _ = ioctl(output.read, UInt(FIONREAD), &waiting)
    let exit = try await run.waitForExit(timeout: .seconds(30))
    let stopped = ChildProcess.Exit.exited(command.stopped(by: signal))
    let own: [ChildProcess.Exit] = command == .watch ? [] : [.exited(0)]
    let what = "\(command.rawValue) on \(bus.hasSuffix("silent") ? "a silent bus" : "no bus"), signal \(signal) "
    if run.errorOutput.contains("ackt") || run.errorOutput.contains("Fatal") {
      return .signalled(failure: what + "at \(offset): not quietly: \(run.errorOutput)")
    }
    if waiting == 0, exit != stopped {
      return .signalled(failure: what + "at \(offset), nothing printed yet: \(exit), not \(stopped)")
    }
    if waiting > 0, exit != stopped, !own.contains(exit) {
      return .signalled(failure: what + "at \(offset), after its output: \(exit), neither \(stopped) nor its own")
    }
    return .signalled(failure: nil)
  }

  @Test("show, watch and wait end as the manual says whenever a stop signal comes")
  func exitCodesAtAnyMoment() async throws {
    let site = try NetstatusEndToEndTests.Site("e2esigprop")
    defer { site.delete() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netstatus-sigprop-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let silent = folder.appendingPathComponent("silent").path
    let server = try ChildProcess(
      executable: ProbeServer.python,
      [
        URL(fileURLWithPath: ProbeServer.scriptPath).deletingLastPathComponent().appendingPathComponent(
          "silent_socket.py"
        ).path, silent,
      ])
    defer { server.terminate() }
    try await server.lines.waitFor(count: 1, timeout: .seconds(30), "the silent bus to listen")
    let buses = ["unix:path=\(folder.path)/none", "unix:path=\(silent)"]
    var generator = SplitMix64(seed: UInt64(Self.trials) &* 0x5EED)
    var plan: [(Command, String, Int32, Duration)] = []
    for index in 0..<Self.trials {
      let command = Command.allCases[index % Command.allCases.count]
      let bus = buses[(index / Command.allCases.count) % buses.count]
      let signal = [SIGINT, SIGTERM][Int(generator.next() % 2)]
      plan.append((command, bus, signal, .milliseconds(Int(generator.next() % 1001))))
    }
    // Four at a time: 200 runs of up to a second each.
    let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
      var outcomes: [Outcome] = []
      var next = 0
      for _ in 0..<4 where next < plan.count {
        let (command, bus, signal, offset) = plan[next]
        group.addTask { try await Self.trial(command, bus: bus, signal: signal, offset: offset, site: site.target) }
        next += 1
      }
      while let result = try await group.next() {
        outcomes.append(result)
        if next < plan.count {
          let (command, bus, signal, offset) = plan[next]
          group.addTask { try await Self.trial(command, bus: bus, signal: signal, offset: offset, site: site.target) }
          next += 1
        }
      }
      return outcomes
    }
    let failures = outcomes.compactMap { if case .signalled(let failure) = $0 { failure } else { nil } }
    let signalled = outcomes.count { if case .signalled = $0 { true } else { false } }
    #expect(
      failures.isEmpty, "\(failures.count) of \(signalled) signalled runs broke the promise: \(failures.prefix(10))")
    // Only a `show` that nothing slows may end before its signal: most runs must have been signalled.
    #expect(
      signalled * 4 >= Self.trials * 3, "only \(signalled) of \(Self.trials) runs were still going when signalled")
  }
}
