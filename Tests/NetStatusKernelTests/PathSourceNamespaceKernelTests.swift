import NetStatusLinuxTestSupport
import Testing

@testable import NetStatusConnectivity
@testable import NetStatusCore

/// ``PathSource/networkNamespacePath`` of the kernel source watching a namespace made for the test, and the
/// connectivity monitor's transport taking it from there (the other cases: PathSourceNamespaceTests.swift).
@Suite("A path source watching a named namespace says its file")
struct PathSourceNamespaceKernelTests {
  @Test(.enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  func theKernelSourceOfANamedNamespaceSaysItsFile() throws {
    let namespace = try TestNamespace("says")
    defer { namespace.delete() }
    let source = try NetlinkPathSource(networkNamespace: namespace.name)
    #expect(source.networkNamespacePath == "/run/netns/" + namespace.name)

    let monitor = try NetworkMonitor(networkNamespace: namespace.name)
    let transport = try #require(makeDefaultProbeTransport(for: monitor) as? SocketProbeTransport)
    #expect(transport.namespace?.path == "/run/netns/" + namespace.name)
  }
}
