import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore
@testable import NetStatusNetworkManager

/// A cellular link's quality from ModemManager, in process, against ModemManager stand-ins on a private bus
/// (`Tests/Fixtures/modem_manager.py`, well-behaved and hostile): the path of a test namespace's `v0`, which the
/// stand-in's modem names as its `NET` port. No NetworkManager on the bus: ModemManager is followed without it.
@Suite(
  "ModemManager's cellular signal (in process)", .serialized,
  .enabled(if: PrivateBus.testsEnabled, PrivateBus.skipReason))
struct ModemManagerIntegrationTests {
  typealias Fixture = NetworkManagerIntegrationTests.Fixture

  /// Fails only after this: a path that must come, under load (ThreadSanitizer on 2 cores).
  static let pathLimit = Duration.seconds(120)

  static func modemManager(_ fixture: Fixture) -> SourceDiagnostic? {
    fixture.monitor.sourceDiagnostics.first { $0.name == "ModemManager" }
  }

  static func awaitQuality(_ fixture: Fixture, _ quality: NetworkPath.LinkQuality, _ what: String) async throws {
    try await fixture.paths.waitUntil(timeout: pathLimit, what) { $0.last?.linkQuality == quality }
  }

  @Test func theModemsSignalRatesThePathAndEveryChangeOfItFollows() async throws {
    let fixture = try await Fixture("mmsig", metered: nil) { try await $0.startModemManager(quality: 80) }
    defer { fixture.stop() }
    try fixture.monitor.start()
    // The first status waits for ModemManager's modems: the first path has the modem's rating.
    let first = try #require(fixture.monitor.currentPath)
    #expect(first.linkQuality == .good, "\(first)")
    #expect(Self.modemManager(fixture)?.isActive == true, "\(fixture.monitor.sourceDiagnostics)")
    #expect(fixture.diagnostic()?.unavailableReason?.contains("NetworkManager is not running") == true)
    try fixture.bus.modemManager("SetQuality", ["uint32:30"])
    try await Self.awaitQuality(fixture, .moderate, "moderate at 30 %")
    try fixture.bus.modemManager("SetQuality", ["uint32:10"])
    try await Self.awaitQuality(fixture, .minimal, "minimal at 10 %")
    // The modem goes (InterfacesRemoved): the kernel's rating, which has no speed for a link of another namespace.
    try fixture.bus.modemManager("RemoveModem")
    try await Self.awaitQuality(fixture, .unknown, "unknown once the modem is gone")
    // Another modem on the same interface (InterfacesAdded, with its properties).
    try fixture.bus.modemManager("AddModem", ["string:v0", "uint32:55"])
    try await Self.awaitQuality(fixture, .good, "good from the new modem")
    // ModemManager leaves the bus (NameOwnerChanged): unknown, and the diagnostic says so.
    fixture.bus.killHelpers()
    try await Self.awaitQuality(fixture, .unknown, "unknown once ModemManager left")
    try await fixture.awaitReason("ModemManager's absence") { _ in
      Self.modemManager(fixture)?.unavailableReason?.contains("ModemManager is not running") == true
    }
    #expect(fixture.paths.values.allSatisfy { $0.isConnected && !$0.isUltraConstrained })
  }

  @Test func aModemOnAnotherInterfaceLeavesThePathAlone() async throws {
    let fixture = try await Fixture("mmother", metered: nil) {
      try await $0.startModemManager(interface: "wwan0", quality: 90)
    }
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    #expect(Self.modemManager(fixture)?.isActive == true)
  }

  @Test func withoutModemManagerTheDiagnosticSaysSoQuietly() async throws {
    let fixture = try await Fixture("mmabsent", metered: nil) { _ in }
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let reason = Self.modemManager(fixture)?.unavailableReason ?? ""
    #expect(reason == "ModemManager is not running (not on the system bus)", "\(reason)")
    // It comes later: followed from its name's owner, without a monitor restart.
    try await fixture.bus.startModemManager(quality: 40)
    try await Self.awaitQuality(fixture, .moderate, "moderate once ModemManager came")
    #expect(Self.modemManager(fixture)?.isActive == true)
  }

  @Test func aModemManagerThatNeverAnswersHoldsTheStartForTheBudgetOnly() async throws {
    let started = Recorder<ChildProcess>()
    let fixture = try await Fixture("mmhang", metered: nil) {
      started.append(try await $0.startModemManager(hang: true))
    }
    defer { fixture.stop() }
    let modemManager = try #require(started.values.first)
    #expect(try fixture.timedStart() < NetworkManagerIntegrationTests.startUpLimit)
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let reason = Self.modemManager(fixture)?.unavailableReason ?? ""
    #expect(
      reason == "ModemManager did not answer within 750 ms (listing its modems); its answer is applied when it comes",
      "\(reason)")
    // NetworkManager's own status is not held up by ModemManager's.
    #expect(fixture.diagnostic()?.unavailableReason?.contains("NetworkManager is not running") == true)
    // Its answer, when it comes (the stand-in holds it until told), is a change like any other.
    try await modemManager.lines.waitUntil(timeout: Self.pathLimit, "the listing to arrive") { $0.contains("list") }
    try fixture.bus.modemManager("AnswerHeld")
    try await Self.awaitQuality(fixture, .good, "good once ModemManager answered")
    #expect(Self.modemManager(fixture)?.isActive == true)
  }

  @Test func propertiesOfAnotherTypeLeaveTheQualityUnknownAndSaySo() async throws {
    let fixture = try await Fixture("mmbad", metered: nil) { try await $0.startModemManager(garbage: true) }
    defer { fixture.stop() }
    try fixture.monitor.start()
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let diagnostic = try #require(Self.modemManager(fixture))
    #expect(diagnostic.isActive, "a modem's garbage does not stop the integration")
    let note = diagnostic.note ?? ""
    #expect(
      note.contains(
        "ModemManager's SignalQuality of modem /org/freedesktop/ModemManager1/Modem/0 has an unexpected type (`u`, "
          + "not `(ub)`): its link quality is unknown"), "\(note)")
    #expect(note.contains("ModemManager's Ports of modem /org/freedesktop/ModemManager1/Modem/0"), "\(note)")
  }

  @Test func aListingOfAnotherTypeSaysWhyAndTheMonitorStarts() async throws {
    let fixture = try await Fixture("mmbadlist", metered: nil) {
      try await $0.startModemManager(garbageListing: true)
    }
    defer { fixture.stop() }
    #expect(try fixture.timedStart() < NetworkManagerIntegrationTests.startUpLimit)
    #expect(fixture.monitor.currentPath?.linkQuality == .unknown)
    let reason = Self.modemManager(fixture)?.unavailableReason ?? ""
    #expect(
      reason == "ModemManager did not answer: GetManagedObjects answered `s`, not `a{oa{sa{sv}}}`", "\(reason)")
    #expect(fixture.monitor.lastError == nil, "never an error")
  }
}
