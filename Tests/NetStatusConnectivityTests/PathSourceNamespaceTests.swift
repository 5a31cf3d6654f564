import NetStatusTesting
import Testing

@testable import NetStatusConnectivity

#if os(Linux)
  import NetStatusLinuxSource
#endif

/// ``PathSource/networkNamespacePath``: a source says which network namespace it watches,
/// and the connectivity monitor's transport takes it from there; any other source watches the process's own.
@Suite("A path source says which namespace it watches")
struct PathSourceNamespaceTests {
  /// A source that watches the namespace it is told, and never starts.
  struct NamespacedSource: PathSource {
    let networkNamespacePath: String?

    func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      throw .sourceFailed("not for starting")
    }
  }

  @Test func aSourceThatDoesNotSayWatchesTheProcesssOwnNamespace() {
    let source: any PathSource = ScriptedPathSource([.connected(via: .wifi)])
    #expect(source.networkNamespacePath == nil)
    #expect(source.sourceDiagnostics.map(\.name) == ["ScriptedPathSource"])
  }

  @Test func aSourceThatSaysIsHeardThroughTheProtocol() {
    let source: any PathSource = NamespacedSource(networkNamespacePath: "/run/netns/nstest-said")
    #expect(source.networkNamespacePath == "/run/netns/nstest-said")
  }

  #if os(Linux)
    @Test func theDefaultTransportProbesFromTheNamespaceTheSourceNames() throws {
      let named = makeDefaultProbeTransport(
        for: NetworkMonitor(source: NamespacedSource(networkNamespacePath: "/run/netns/nstest-said")))
      #expect(try #require(named as? SocketProbeTransport).namespace?.path == "/run/netns/nstest-said")

      let own = makeDefaultProbeTransport(for: NetworkMonitor(source: ScriptedPathSource([.connected(via: .wifi)])))
      #expect(try #require(own as? SocketProbeTransport).namespace == nil)
    }

    @Test func theKernelSourceOfTheProcesssOwnNamespaceSaysNil() {
      #expect(NetlinkPathSource().networkNamespacePath == nil)
    }

  #endif
}
