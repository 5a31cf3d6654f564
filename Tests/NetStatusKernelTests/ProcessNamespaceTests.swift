#if os(Linux)
  import Foundation
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import ProcFileSupport
  import Testing

  @testable import NetStatusCore

  @testable import NetStatusLinuxSource
  import NetStatusSystem

  /// A namespace given as `/proc/PID/ns/net`: named by a process, watched until that process exits.
  @Suite(
    "a process's network namespace (/proc/PID/ns/net)",
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct ProcessNamespaceTests {
    /// This process's pidfds for process `pid` (`anon_inode:[pidfd]` descriptors whose fdinfo names it).
    static func pidfds(for pid: Int32) -> Int {
      let files = FileManager.default
      let descriptors = (try? files.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return descriptors.count { descriptor in
        guard (try? files.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == "anon_inode:[pidfd]",
          let info = readProcFile("/proc/self/fdinfo/\(descriptor)")
        else { return false }
        return info.split(separator: "\n").contains("Pid:\t\(pid)")
      }
    }

    @Test("the source holds a pidfd for the process while it runs, and ends like a deleted namespace when it exits")
    func sourceEndsWhenTheProcessExits() async throws {
      let lab = try VethLab("pidfd")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let process = try await lab.watched.startProcess()
      defer { process.terminate() }
      let pid = process.processIdentifier
      let path = "/proc/\(pid)/ns/net"
      let source = try NetlinkPathSource(networkNamespace: path)
      let baseline = Self.pidfds(for: pid)

      // Stopped normally: the pidfd is closed with the session.
      let first = PathRecorder()
      let stopped = try source.start(filter: .unrestricted, sink: first.sink)
      #expect(first.latest?.gateways == ["192.0.2.1"], "the namespace of process \(pid) is watched")
      #expect(Self.pidfds(for: pid) == baseline + 1, "one pidfd while the session runs")
      stopped.stop()
      #expect(Self.pidfds(for: pid) == baseline, "stop closes the pidfd")

      // The process exits: the session fails with namespaceDeleted, though the namespace itself lives on.
      let recorder = PathRecorder()
      let session = try source.start(filter: .unrestricted, sink: recorder.sink)
      defer { session.stop() }
      process.signal(SIGKILL)
      let failure = await recorder.awaitFailure(timeout: .seconds(10))
      #expect(failure == .namespaceDeleted(path: path))
      #expect(failure?.description.contains("process \(pid) exited") == true, "\(String(describing: failure))")
      let netlinkSession = try #require(session as? NetlinkPathSession, "a NetlinkPathSource session")
      let closed = await Task.detached { netlinkSession.waitUntilClosed(timeout: .seconds(10)) }.value
      #expect(closed, "the session whose process exited was closed")
      #expect(Self.pidfds(for: pid) == baseline, "the ended session closed its pidfd")
      #expect(try KernelTestSupport.run(["netns", "list"]).contains(lab.watched.name), "only the process went")

      // Once the process is gone, the path names nothing.
      _ = try await process.waitForExit()
      #expect(throws: NetworkMonitorError.namespaceNotFound(path: path)) {
        _ = try source.start(filter: .unrestricted, sink: PathRecorder().sink)
      }
    }

    @Test("PID reuse: a pidfd is kept only if /proc/PID/ns/net still names the namespace opened")
    func pidReuseGuard() throws {
      let other = try TestNamespace("reuse")
      defer { other.delete() }
      let otherHandle = try NetworkNamespace(other.name).open()
      defer { SystemCall.close(otherHandle.fd) }

      // This process's namespace path, with the handle of another namespace: as if PID had been reused by a
      // process elsewhere between opening the namespace and opening the pidfd.
      let own = try NetworkNamespace("/proc/\(getpid())/ns/net")
      #expect(own.processID == getpid())
      #expect(throws: NetworkMonitorError.namespaceNotFound(path: own.path)) {
        _ = try own.openProcessDescriptor(matching: otherHandle)
      }
      #expect(Self.pidfds(for: getpid()) == 0, "the rejected pidfd was closed")

      // With its own handle: a pidfd.
      let ownHandle = try own.open()
      defer { SystemCall.close(ownHandle.fd) }
      let fd = try #require(try own.openProcessDescriptor(matching: ownHandle))
      #expect(Self.pidfds(for: getpid()) == 1)
      SystemCall.close(fd)

      // A named namespace has no process.
      #expect(try NetworkNamespace(other.name).openProcessDescriptor(matching: otherHandle) == nil)
    }
  }
#endif
