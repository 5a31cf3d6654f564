import Testing

@testable import NetStatusMonitor

/// A path source written outside the package is a first-class source: through the public API alone (no
/// `@testable`), it says whether it applies the interface filter itself, which namespace it watches, what its
/// diagnostics are and which portal a network advertised, and the monitor uses each.
@Suite("a third-party path source")
struct ThirdPartyPathSourceTests {
  struct Session: PathSourceSession {
    func stop() {}
  }

  /// Sends `path` at start, and tells what it is given.
  struct OwnSource: PathSource {
    var path: NetworkPath
    var judgesItself = false
    var namespace: String? = nil

    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      sink.send(path)
      return Session()
    }

    var appliesInterfaceFilter: Bool { judgesItself }
    var networkNamespacePath: String? { namespace }
    var sourceDiagnostics: [SourceDiagnostic] {
      [
        SourceDiagnostic(name: "own", provides: "paths", status: .active),
        SourceDiagnostic(name: "radio", provides: "signal", status: .unavailable(reason: "no radio here")),
      ]
    }
    func advertisedCaptivePortal(interfaceIndex: Int) -> String? {
      interfaceIndex == 7 ? "https://portal.example/api" : nil
    }
  }

  @Test func theMonitorFiltersItsPathsUnlessItSaysItDoes() throws {
    let wifi = NetworkPath.connected(via: .wifi)
    let filtered = NetworkMonitor(source: OwnSource(path: wifi), prohibitedInterfaceTypes: [.wifi])
    try filtered.start()
    defer { filtered.stop() }
    #expect(filtered.currentPath?.status == .unsatisfied, "Wi-Fi is prohibited: the monitor applied the filter")

    let judged = NetworkMonitor(
      source: OwnSource(path: wifi, judgesItself: true), prohibitedInterfaceTypes: [.wifi])
    try judged.start()
    defer { judged.stop() }
    #expect(judged.currentPath == wifi, "passed on as the source judged it")
  }

  @Test func whatItTellsReachesTheMonitor() {
    let source = OwnSource(path: .offline, namespace: "/run/netns/nstest-own")
    let monitor = NetworkMonitor(source: source)
    #expect(
      monitor.sourceDiagnostics.map(\.description) == [
        "own (paths): active", "radio (signal): unavailable: no radio here",
      ])
    #expect(source.networkNamespacePath == "/run/netns/nstest-own")
    #expect(source.advertisedCaptivePortal(interfaceIndex: 7) == "https://portal.example/api")
  }

  @Test func aSourceThatTellsNothingGetsTheDefaults() {
    struct Plain: PathSource {
      func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
        Session()
      }
    }
    let plain = Plain()
    #expect(!plain.appliesInterfaceFilter)
    #expect(plain.networkNamespacePath == nil)
    #expect(plain.followedSource == nil)
    #expect(plain.advertisedCaptivePortal(interfaceIndex: 1) == nil)
    #expect(plain.sourceDiagnostics.map(\.description) == ["Plain (paths): active"])
  }
}
