import Foundation
import Testing

@testable import NetStatusLinuxSource

@Suite("resolver configuration")
struct ResolverConfigurationTests {
  final class TempFolder {
    let path: String
    init() throws {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("nstest-dns-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func write(_ name: String, _ text: String) throws -> String {
      try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
      return path + "/" + name
    }
  }

  @Test("nameserver lines, comments, options and invalid entries")
  func parse() {
    let text = """
      # generated
      ; comment
      search example.com
      nameserver 192.0.2.53
      nameserver\t2001:db8::53
      nameserver fe80::1%eth0
      nameserver not-an-address
      #nameserver 192.0.2.99
      options edns0
      """
    #expect(ResolverConfiguration.nameservers(in: text) == ["192.0.2.53", "2001:db8::53", "fe80::1%eth0"])
    #expect(ResolverConfiguration.nameservers(in: "").isEmpty)
  }

  @Test("a missing file or one without nameservers means no DNS")
  func missing() throws {
    let folder = try TempFolder()
    #expect(!ResolverConfiguration.load(path: folder.path + "/absent").supportsDNS)
    let empty = try folder.write("resolv.conf", "search lan\n")
    #expect(!ResolverConfiguration.load(path: empty).supportsDNS)
  }

  @Test("systemd-resolved's stub is followed to the upstream list")
  func systemdStub() throws {
    let folder = try TempFolder()
    let stub = try folder.write("stub-resolv.conf", "nameserver 127.0.0.53\noptions edns0 trust-ad\n")
    let upstream = try folder.write("upstream.conf", "nameserver 192.0.2.53\nnameserver 2001:db8::53\n")
    #expect(
      ResolverConfiguration.load(path: stub, upstreamPath: upstream).nameservers == ["192.0.2.53", "2001:db8::53"])
    // resolved with no upstream server: no DNS.
    let none = try folder.write("none.conf", "# no servers\n")
    #expect(!ResolverConfiguration.load(path: stub, upstreamPath: none).supportsDNS)
    // Upstream list unreadable: the stub itself counts.
    #expect(ResolverConfiguration.load(path: stub, upstreamPath: folder.path + "/absent").nameservers == ["127.0.0.53"])
  }

  @Test("/proc/PID/ns/net, and only that exact form, names a process")
  func processNamespacePaths() {
    #expect(ProcessNamespacePath.processID(in: "/proc/1234/ns/net") == 1234)
    #expect(ProcessNamespacePath.processID(in: "/proc/1/ns/net") == 1)
    #expect(ProcessNamespacePath.root(of: 1234) == "/proc/1234/root")
    for other in [
      "/proc/self/ns/net", "/proc/thread-self/ns/net", "/proc/12a4/ns/net", "/proc//ns/net", "/proc/ns/net",
      "/proc/1234/ns/net/", "/proc/1234/ns/mnt", "proc/1234/ns/net", "//proc/1234/ns/net",
      "/proc/1234/task/1234/ns/net", "/proc/-1/ns/net", "/proc/+1/ns/net", "/proc/ 1/ns/net", "/proc/0/ns/net",
      "/proc/99999999999/ns/net", "/proc/１２/ns/net", "/run/netns/blue", "blue", "",
    ] {
      #expect(ProcessNamespacePath.processID(in: other) == nil, "\(other)")
    }
    // The error for its exit says so.
    let exited = NetworkMonitorError.namespaceDeleted(path: "/proc/1234/ns/net").description
    #expect(exited.contains("process 1234 exited"), "\(exited)")
    let deleted = NetworkMonitorError.namespaceDeleted(path: "/run/netns/blue").description
    #expect(deleted.contains("network namespace /run/netns/blue was deleted"), "\(deleted)")
  }

  #if os(Linux)
    @Test("a namespace's resolver configuration: a process's own for /proc/PID/ns/net, else /etc/netns or /etc")
    func namespaceResolverChoice() {
      #expect(
        ResolverConfiguration.configurationPath(forNamespace: "/proc/1234/ns/net") == "/proc/1234/root/etc/resolv.conf"
      )
      #expect(
        ResolverConfiguration.resolvedUpstreamPath(forNamespace: "/proc/1234/ns/net")
          == "/proc/1234/root/run/systemd/resolve/resolv.conf")
      for other in ["/proc/self/ns/net", "/proc/12a4/ns/net", "/proc/1234/task/1234/ns/net", "/run/netns/blue"] {
        #expect(ResolverConfiguration.configurationPath(forNamespace: other) == "/etc/resolv.conf", "\(other)")
        #expect(
          ResolverConfiguration.resolvedUpstreamPath(forNamespace: other)
            == ResolverConfiguration.systemdResolvedUpstreamPath)
      }
      // A name without /etc/netns/NAME/resolv.conf (the kernel tests cover one with it).
      #expect(ResolverConfiguration.configurationPath(forNamespace: "nstest-none-\(getpid())") == "/etc/resolv.conf")
    }
  #endif

  @Test("watch targets: the file's folder, its link's destination's folder and resolved's folder")
  func watchTargets() throws {
    let folder = try TempFolder()
    try FileManager.default.createDirectory(atPath: folder.path + "/run", withIntermediateDirectories: true)
    _ = try folder.write("run/stub-resolv.conf", "nameserver 127.0.0.53\n")
    try FileManager.default.createDirectory(atPath: folder.path + "/etc", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/etc/resolv.conf", withDestinationPath: "../run/stub-resolv.conf")
    let targets = ResolverConfiguration.watchTargets(
      path: folder.path + "/etc/resolv.conf", upstreamPath: folder.path + "/resolve/resolv.conf")
    #expect(targets.map(\.directory) == [folder.path + "/etc", folder.path + "/etc/../run", folder.path + "/resolve"])
    #expect(targets[0].names == ["resolv.conf"])
    #expect(targets[1].names == ["stub-resolv.conf"])
  }
}
