import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore
@testable import NetStatusNetworkManager

/// A Wi-Fi link's quality from iwd's signal level agent, in process, against iwd stand-ins on a private bus
/// (`Tests/Fixtures/iwd.py`): the path of a test namespace's `v0`, which the stand-in's station names as its device.
@Suite(
  "iwd's signal level agent (in process)", .serialized,
  .enabled(if: PrivateBus.testsEnabled, PrivateBus.skipReason))
struct IwdIntegrationTests {
  typealias Fixture = NetworkManagerIntegrationTests.Fixture

  static func iwd(_ fixture: Fixture) -> SourceDiagnostic? {
    fixture.monitor.sourceDiagnostics.first { $0.name == "iwd" }
  }

  static func awaitQuality(_ fixture: Fixture, _ quality: NetworkPath.LinkQuality, _ what: String) async throws {
    try await fixture.paths.waitUntil(timeout: ModemManagerIntegrationTests.pathLimit, what) {
      $0.last?.linkQuality == quality
    }
  }

  /// Waits for the stand-in's output line `line` to have come `count` times.
  static func awaitLine(_ iwd: ChildProcess, _ line: String, count: Int = 1) async throws {
    try await iwd.lines.waitUntil(timeout: ModemManagerIntegrationTests.pathLimit, "\(line) × \(count)") {
      $0.filter { $0 == line }.count >= count
    }
  }

  @Test func theAgentIsRegisteredWithTheBoundariesAndItsLevelsRateThePath() async throws {
    let started = Recorder<ChildProcess>()
    let fixture = try await Fixture("iwdsig", metered: nil) { started.append(try await $0.startIwd(level: 0)) }
    defer { fixture.stop() }
    let iwd = try #require(started.values.first)
    try fixture.monitor.start()
    // Registered once, with the two boundaries (dBm, strongest first), at the agent path the watch exports.
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80")
    // iwd calls Changed at once: level 0, at or above -67 dBm.
    try await Self.awaitQuality(fixture, .good, "good at level 0")
    #expect(Self.iwd(fixture)?.isActive == true, "\(fixture.monitor.sourceDiagnostics)")
    try fixture.bus.iwd("SetLevel", ["byte:1"])
    try await Self.awaitQuality(fixture, .moderate, "moderate at level 1")
    try fixture.bus.iwd("SetLevel", ["byte:2"])
    try await Self.awaitQuality(fixture, .minimal, "minimal at level 2")
    try await Self.awaitLine(iwd, "changed 2")  // the agent answered each call
    // Release: no level, the kernel's rating (none for a link of another namespace).
    try fixture.bus.iwd("Release")
    try await Self.awaitQuality(fixture, .unknown, "unknown once released")
    try await Self.awaitLine(iwd, "released")
    // The station goes and comes back: registered again, and its level follows.
    try fixture.bus.iwd("RemoveStation")
    try fixture.bus.iwd("AddStation")
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80", count: 2)
    try await Self.awaitQuality(fixture, .good, "good after the station came back")
  }

  @Test func iwdRestartingIsRegisteredWithAgain() async throws {
    let fixture = try await Fixture("iwdrestart", metered: nil) { try await $0.startIwd(level: 1) }
    defer { fixture.stop() }
    try fixture.monitor.start()
    try await Self.awaitQuality(fixture, .moderate, "moderate at level 1")
    fixture.bus.killHelpers()
    try await Self.awaitQuality(fixture, .unknown, "unknown once iwd left")
    try await fixture.awaitReason("iwd's absence") { _ in
      Self.iwd(fixture)?.unavailableReason == "iwd is not running (not on the system bus)"
    }
    // A new iwd (NameOwnerChanged): listed and registered with from scratch.
    let iwd = try await fixture.bus.startIwd(level: 2)
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80")
    try await Self.awaitQuality(fixture, .minimal, "minimal from the new iwd")
    #expect(Self.iwd(fixture)?.isActive == true)
  }

  @Test func aRefusedRegistrationLeavesTheQualityUnknownAndSaysSo() async throws {
    let fixture = try await Fixture("iwdrefuse", metered: nil) { try await $0.startIwd(refuse: true) }
    defer { fixture.stop() }
    try fixture.monitor.start()
    // The first status waits for the registration's answer.
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let diagnostic = try #require(Self.iwd(fixture))
    #expect(diagnostic.isActive)
    #expect(
      diagnostic.note?.contains(
        "iwd refused the signal level agent for station /net/connman/iwd/0/4 (net.connman.iwd.Failed: ") == true,
      "\(diagnostic)")
  }

  @Test func anIwdThatNeverAnswersHoldsTheStartForTheBudgetOnly() async throws {
    let fixture = try await Fixture("iwdhang", metered: nil) { try await $0.startIwd(level: 0, hang: true, delay: 2) }
    defer { fixture.stop() }
    #expect(try fixture.timedStart() < NetworkManagerIntegrationTests.startUpLimit)
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let reason = Self.iwd(fixture)?.unavailableReason ?? ""
    #expect(
      reason == "iwd did not answer within 750 ms (listing its stations); its answer is applied when it comes",
      "\(reason)")
    #expect(Self.modemManagerReason(fixture).contains("ModemManager is not running"), "not held up by iwd")
    try await Self.awaitQuality(fixture, .good, "good once iwd answered")
  }

  @Test func withoutIwdTheDiagnosticSaysSo() async throws {
    let fixture = try await Fixture("iwdabsent", metered: nil) { _ in }
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(Self.iwd(fixture)?.unavailableReason == "iwd is not running (not on the system bus)")
  }

  static func modemManagerReason(_ fixture: Fixture) -> String {
    ModemManagerIntegrationTests.modemManager(fixture)?.unavailableReason ?? ""
  }
}

extension IwdIntegrationTests {
  @Test func networkManagersSignalComesFirstWhereItManagesTheDevice() async throws {
    let fixture = try await NetworkManagerWiFiIntegrationTests.wifiFixture("iwdnm", strength: 20)
    defer { fixture.stop() }
    let iwd = try await fixture.bus.startIwd(level: 0)
    try fixture.monitor.start()
    try await Self.awaitLine(iwd, "changed 0")
    // iwd says good, NetworkManager minimal: NetworkManager's stands, however often iwd speaks.
    try fixture.bus.iwd("SetLevel", ["byte:0"])
    try await Self.awaitLine(iwd, "changed 0", count: 2)
    try await fixture.awaitPath("NetworkManager's minimal") { $0.linkQuality == .minimal }
    #expect(fixture.paths.values.allSatisfy { $0.linkQuality != .good }, "\(fixture.paths.values)")
    #expect(Self.iwd(fixture)?.isActive == true)
  }
}
