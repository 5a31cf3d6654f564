import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

/// What `netstatus` says when the path is unsatisfied: what broke, in words, from the kernel's own answers (no route,
/// no carrier on v0), and no flag that would read as "this works".
@Suite(
  "netstatus says why it is offline", .serialized,
  .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
struct OfflineWordsEndToEndTests {
  typealias Site = NetstatusEndToEndTests.Site

  @Test func watchAndShowSayWhatBroke() async throws {
    let site = try Site("e2ewhy")
    defer { site.delete() }
    let run = try NetstatusProcess(["watch", "--netns", site.target.name])
    defer { run.terminate() }
    try await run.lines.waitFor(count: 1, timeout: .seconds(30), "the first line")
    #expect(run.lines.values[0].hasSuffix("  online   v0 (other)  IPv4 DNS  via 198.51.100.1"), "\(run.lines.values)")

    try site.deleteDefaultRoute()
    try await run.lines.waitFor(count: 2, timeout: .seconds(30), "the line for the removed route")
    #expect(run.lines.values[1].hasSuffix("  offline  no route"), "\(run.lines.values)")

    try site.addDefaultRoute()
    try await run.lines.waitFor(count: 3, timeout: .seconds(30), "the line for the restored route")
    try site.peer.ip("link set v1 down")
    try await run.lines.waitFor(count: 4, timeout: .seconds(30), "the line for the lost carrier")
    #expect(run.lines.values[3].hasSuffix("  offline  no carrier on v0"), "\(run.lines.values)")

    let show = try NetstatusProcess(["--netns", site.target.name])
    #expect(try await show.waitForExit() == .exited(0), "stderr: \(show.errorOutput)")
    let table = show.lines.values
    #expect(table.first == "Connected    no (no carrier on v0)", "\(table)")
    #expect(!table.contains("DNS          yes"), "a resolver with no path to it is not 'yes': \(table)")
  }
}
