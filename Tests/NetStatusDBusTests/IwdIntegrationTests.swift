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
    // Release: no level, the kernel's rating (none for a link of another namespace).
    try fixture.bus.iwd("Release")
    try await Self.awaitQuality(fixture, .unknown, "unknown once released")
    // The station goes and comes back: registered again, and its level follows.
    try fixture.bus.iwd("RemoveStation")
    try fixture.bus.iwd("AddStation")
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80", count: 2)
    try await Self.awaitQuality(fixture, .good, "good after the station came back")
    // A caller that expects an answer gets one; iwd's calls, which expect none, got none: the agent's answers go
    // out in order, so an answer to any of them would have reached the stand-in before this one.
    try fixture.bus.iwd("SetLevelExpectingReply", ["byte:1"])
    try await Self.awaitQuality(fixture, .moderate, "moderate at level 1, asked with a reply expected")
    try await Self.awaitLine(iwd, "changed 1")
    #expect(!iwd.lines.values.contains("unrequested reply"), "\(iwd.lines.values)")
  }

  @Test func aDeviceThatAppearsAfterTheListingIsRatedByItsLevel() async throws {
    let started = Recorder<ChildProcess>()
    let fixture = try await Fixture("iwdlate", metered: nil) {
      started.append(try await $0.startIwd(level: 1, late: true))
    }
    defer { fixture.stop() }
    let iwd = try #require(started.values.first)
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown, "no station yet")
    #expect(Self.iwd(fixture)?.isActive == true)
    // iwd finds the device (InterfacesAdded of its Device, with its Name, then of its Station): registered with,
    // and its level rates the path of the interface the Name gives.
    try fixture.bus.iwd("AddDevice")
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80")
    try await Self.awaitQuality(fixture, .moderate, "moderate at level 1 from the device that appeared")
    try fixture.bus.iwd("SetLevel", ["byte:0"])
    try await Self.awaitQuality(fixture, .good, "good at level 0")
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

  @Test func garbageFromIwdIsSaidAndRatesNothing() async throws {
    // A device whose Name is a number names no interface: its station's level rates nothing, and that is said.
    let named = try await Fixture("iwdname", metered: nil) { try await $0.startIwd(level: 0, garbageName: true) }
    defer { named.stop() }
    try named.monitor.start()
    let diagnostic = try #require(Self.iwd(named))
    #expect(diagnostic.isActive)
    #expect(
      diagnostic.note?.contains("Name of device /net/connman/iwd/0/4 has an unexpected type (`u`, not `s`)") == true,
      "\(diagnostic)")
    #expect(named.monitor.currentPath?.linkQuality == .unknown)

    // Agent calls whose level is of another type, or missing, keep the last level and are said.
    let calls = try await Fixture("iwdcalls", metered: nil) { try await $0.startIwd(level: 1) }
    defer { calls.stop() }
    try calls.monitor.start()
    try await Self.awaitQuality(calls, .moderate, "moderate at level 1")
    try calls.bus.iwd("SendGarbage")
    let said = try await poll(timeout: ModemManagerIntegrationTests.pathLimit, every: .milliseconds(10)) {
      Self.iwd(calls)?.note?.contains("without a level (not `oy`): ignored") == true ? true : nil
    }
    #expect(said == true, "\(String(describing: Self.iwd(calls)))")
    try calls.bus.iwd("SetLevel", ["byte:2"])
    try await Self.awaitQuality(calls, .minimal, "minimal at level 2, after the garbage")
    #expect(!calls.paths.values.contains { $0.linkQuality == .good || $0.linkQuality == .unknown }, "nothing else")
    #expect(Self.iwd(calls)?.note == nil, "a level clears the problem")
  }

  @Test func anIwdThatNeverAnswersHoldsTheStartForTheBudgetOnly() async throws {
    let started = Recorder<ChildProcess>()
    let fixture = try await Fixture("iwdhang", metered: nil) {
      started.append(try await $0.startIwd(level: 0, hang: true))
    }
    defer { fixture.stop() }
    let iwd = try #require(started.values.first)
    #expect(try fixture.timedStart() < NetworkManagerIntegrationTests.startUpLimit)
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let reason = Self.iwd(fixture)?.unavailableReason ?? ""
    #expect(
      reason == "iwd did not answer within 750 ms (listing its stations); its answer is applied when it comes",
      "\(reason)")
    #expect(Self.modemManagerReason(fixture).contains("ModemManager is not running"), "not held up by iwd")
    // The stand-in holds its answer until told: it comes late, and is applied as a change.
    try await Self.awaitLine(iwd, "list")
    try fixture.bus.iwd("AnswerHeld")
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
    try await Self.awaitLine(iwd, "register /net/connman/iwd/0/4 /org/netstatus/SignalLevelAgent -67,-80")
    // iwd says good, NetworkManager minimal: NetworkManager's stands, however often iwd speaks.
    try fixture.bus.iwd("SetLevel", ["byte:0"])
    // NetworkManager's next strength reaches this process after iwd's call (the stand-in sent that call before it
    // answered SetLevel): the path NetworkManager's change makes comes after iwd's level was applied.
    let ap1 = "/org/freedesktop/NetworkManager/AccessPoint/ap1"
    try NetworkManagerWiFiIntegrationTests.set(
      fixture.bus, ap1, NetworkManagerMirror.accessPointInterface, "Strength", "byte:40")
    try await fixture.paths.waitUntil(timeout: ModemManagerIntegrationTests.pathLimit, "NetworkManager's moderate") {
      $0.last?.linkQuality == .moderate
    }
    #expect(fixture.paths.values.allSatisfy { $0.linkQuality != .good }, "\(fixture.paths.values)")
    #expect(Self.iwd(fixture)?.isActive == true)
  }
}
