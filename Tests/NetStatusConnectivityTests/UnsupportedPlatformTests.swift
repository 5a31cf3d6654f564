import NetStatusTestSupport
import Testing

@testable import NetStatusConnectivity
@testable import NetStatusMonitor

/// What the default source does where NetStatus has none that tells the truth (watchOS: Apple's TN3135, see
/// Sources/NetStatusMonitor/Monitor/DefaultPathSource.swift): the path stays not known, never offline.
@Suite("A platform without a path source")
struct UnsupportedPlatformTests {
  @Test("starting fails; the path stays not known, not offline, and the error says why")
  func notKnownNotOffline() async throws {
    let monitor = NetworkMonitor(source: UnsupportedPathSource(platform: UnsupportedPathSource.watchOS))
    #expect(throws: NetworkMonitorError.unsupportedPlatform(UnsupportedPathSource.watchOS)) { try monitor.start() }
    #expect(monitor.currentPath == nil)
    #expect(!monitor.isMonitoring)
    #expect(monitor.lastError?.description.contains("TN3135") == true)
    await #expect(throws: NetworkMonitorError.unsupportedPlatform(UnsupportedPathSource.watchOS)) {
      try await monitor.waitForPath(timeout: .seconds(5))
    }
  }

  @Test("a model of it never reports offline")
  @MainActor
  func modelNotOffline() async throws {
    let model = NetworkStatusModel(
      monitor: NetworkMonitor(source: UnsupportedPathSource(platform: UnsupportedPathSource.watchOS)))
    #expect(model.path == nil)
    // The start fails off the main actor; its error comes then.
    try await withTimeout(.seconds(30), "the model to take the start's error") { @MainActor in
      while model.lastError == nil {
        try await Task.sleep(for: .milliseconds(1))  // paced; throws when withTimeout cancels
      }
    }
    #expect(model.path == nil)
    #expect(!model.isKnown)
    #expect(model.lastError?.description.contains("TN3135") == true)
  }
}
