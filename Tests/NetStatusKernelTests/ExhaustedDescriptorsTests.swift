#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import Testing

  /// A monitor that fails while its process is out of descriptors, as `netstatus watch --all-netns` is by design
  /// when more namespaces exist than its limit holds: `netstatus-test-child exhausted-failure`
  /// (Tests/NetStatusTestChild/ExhaustedFailure.swift). The failed session used to be stopped from Dispatch's global
  /// queue, whose first work item opens an epoll descriptor: out of descriptors, libdispatch ended the process with
  /// SIGILL (and the Swift backtracer, out of them too, wrote "unable to fetch crash info" on standard output).
  @Suite(
    "a monitor failing in a process out of descriptors",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct ExhaustedDescriptorsTests {
    @Test("the namespace deleted while no descriptor is left: the monitor fails and stops, the process lives")
    func failureWithoutDescriptors() async throws {
      let namespace = try TestNamespace("exhf")
      var deleted = false
      defer { if !deleted { namespace.delete() } }
      let child = try ChildProcess(executable: TestChild.path, ["exhausted-failure", "--netns", namespace.name])
      let exhausted = try await child.lines.waitUntil(timeout: .seconds(30), "out of descriptors") { lines in
        lines.contains { $0.hasPrefix("exhausted ") }
      }
      #expect(exhausted.contains { $0.hasPrefix("exhausted ") })
      namespace.delete()
      deleted = true
      #expect(
        try await child.waitForExit(timeout: .seconds(120)) == .exited(0), "\(child.lines.values) \(child.errorOutput)")
      #expect(child.lines.values.last == "ok", "\(child.lines.values)")
    }
  }
#endif
