import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

/// Under a limit on open files too low to work with, netstatus says so in one line and exits 2: never a crash
/// (libdispatch's epoll set failing to open, whose backtrace went to standard output) nor a wrong answer (a sysfs
/// file that cannot be opened read as "not Ethernet").
@Suite(
  "too few descriptors", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct DescriptorLimitEndToEndTests {
  @Test(arguments: [4, 6, 16, 63])
  func aLimitTooLowIsOneLineAndExitTwo(limit: Int) async throws {
    let site = try NetstatusEndToEndTests.Site("e2enofile")
    defer { site.delete() }
    let run = try NetstatusProcess(
      executable: "/usr/bin/prlimit",
      ["--nofile=\(limit)", NetstatusProcess.binaryPath, "show", "--json", "--netns", site.target.name])
    #expect(try await run.waitForExit(timeout: .seconds(30)) == .exited(2))
    #expect(run.lines.values.isEmpty, "nothing but JSON on standard output, and here none: \(run.lines.values)")
    #expect(
      run.errorOutput == "netstatus: the limit on open files is \(limit), and netstatus needs at least 64: raise it "
        + "(ulimit -n, LimitNOFILE= in a systemd unit, prlimit --nofile)\n", "\(run.errorOutput)")
  }

  @Test func theLowestLimitTakenGivesTheSameAnswer() async throws {
    let site = try NetstatusEndToEndTests.Site("e2enofile")
    defer { site.delete() }
    let low = try NetstatusProcess(
      executable: "/usr/bin/prlimit",
      ["--nofile=64", NetstatusProcess.binaryPath, "show", "--json", "--netns", site.target.name])
    #expect(try await low.waitForExit(timeout: .seconds(30)) == .exited(0), "\(low.errorOutput)")
    let usual = try NetstatusProcess(["show", "--json", "--netns", site.target.name])
    #expect(try await usual.waitForExit(timeout: .seconds(30)) == .exited(0))
    #expect(low.lines.values == usual.lines.values)
  }
}
