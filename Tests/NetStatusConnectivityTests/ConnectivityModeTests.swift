import Testing

@testable import NetStatusConnectivity

/// A connectivity monitor has one mode for its life: its own checks with a probe, NetworkManager's state, or another
/// monitor's states settled; `source` and `probe` say which, and a settled monitor says what it follows.
@Suite("connectivity monitor modes")
struct ConnectivityModeTests {
  static let probe = try! ConnectivityProbe(url: "http://192.0.2.80/generate_204")

  @Test func aProbingMonitorHasItsProbe() {
    let connectivity = ConnectivityMonitor(monitor: NetworkMonitor(source: OfflineSource()), probe: Self.probe)
    #expect(connectivity.source == .probe(Self.probe))
    #expect(connectivity.probe == Self.probe)
  }

  @Test func aNetworkManagerMonitorHasNoProbe() {
    let connectivity = ConnectivityMonitor(monitor: NetworkMonitor(source: OfflineSource()), source: .networkManager)
    #expect(connectivity.source == .networkManager)
    #expect(connectivity.probe == nil, "no placeholder: it checks nothing of its own")
  }

  @Test func aSettledMonitorSaysWhatItFollows() {
    let monitor = NetworkMonitor(source: OfflineSource())
    let quiet = ConnectivityMonitor(monitor: monitor, source: .networkManager)
      .settled(offlineAfter: .seconds(5), onlineAfter: .seconds(2))
    #expect(quiet.source == .networkManager, "a settled NetworkManager monitor is one too")
    #expect(quiet.probe == nil)
    let probing = ConnectivityMonitor(monitor: monitor, probe: Self.probe)
      .settled(offlineAfter: .seconds(5), onlineAfter: .seconds(2))
    #expect(probing.source == .probe(Self.probe))
    #expect(probing.probe == Self.probe)
  }

  struct OfflineSource: PathSource {
    struct Session: PathSourceSession {
      func stop() {}
    }
    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      sink.send(.offline)
      return Session()
    }
  }
}
