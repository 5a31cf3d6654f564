#if os(Linux)
  import Dispatch
  import Foundation
  import Glibc
  import NetStatusLinuxTestSupport
  import NetStatusTestSupport
  import Testing

  @testable import NetStatusCore
  @testable import NetStatusLinuxSource

  /// ``NamedNetworkNamespaces`` over a folder of the test's own, where namespace files are made the way
  /// `ip netns add` makes them: an empty file first, the namespace bind-mounted on it afterwards.
  @Suite(
    "named namespaces, followed", .serialized,
    .enabled(if: KernelTestSupport.namespacesAvailable, KernelTestSupport.skipReason))
  struct NamedNetworkNamespacesTests {
    /// A folder under /tmp whose entries the test mounts namespaces on; unmounted and removed by ``remove()``.
    final class Folder: Sendable {
      let path: String
      init(create: Bool) throws {
        path = "/tmp/nstest-folder-\(getpid())-\(UUID().uuidString.prefix(8))"
        if create { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
      }
      func makeFile(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/" + name, contents: nil))
      }
      func mount(_ namespace: TestNamespace, as name: String) throws {
        let result = Glibc.mount("/run/netns/\(namespace.name)", path + "/" + name, nil, UInt(MS_BIND), nil)
        #expect(result == 0, "mount --bind: errno \(errno)")
      }
      func remove(_ name: String) throws {
        #expect(umount2(path + "/" + name, 0) == 0, "umount: errno \(errno)")
        try FileManager.default.removeItem(atPath: path + "/" + name)
      }
      func removeAll() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
          _ = umount2(path + "/" + name, Int32(MNT_DETACH))
        }
        try? FileManager.default.removeItem(atPath: path)
      }
    }

    /// A name is judged by the namespace it names: another namespace mounted over it (no unmount in between, so
    /// the name is a namespace throughout) is the old one gone and a new one come.
    @Test func aNameThatNamesAnotherNamespaceDisappearsAndAppearsAgain() async throws {
      let first = try TestNamespace("namedfirst")
      defer { first.delete() }
      let second = try TestNamespace("namedsecond")
      defer { second.delete() }
      let folder = try Folder(create: true)
      defer { folder.removeAll() }
      try folder.makeFile("x")
      try folder.mount(first, as: "x")
      let changes = Recorder<NamedNetworkNamespaces.Change>()
      let watch = try NamedNetworkNamespaces(folder: folder.path) { changes.append($0) }
      defer { watch.stop() }
      try await changes.waitFor(count: 1, "the namespace present at start")
      try folder.mount(second, as: "x")
      try await changes.waitFor(count: 3, "the old one gone and the new one come")
      #expect(changes.values == [.appeared("x"), .disappeared("x"), .appeared("x")])
      // Unmounted again: the first one is named again, another change of namespace.
      #expect(umount2(folder.path + "/x", 0) == 0)
      try await changes.waitFor(count: 5, "the first one back")
      #expect(changes.values.suffix(2) == [.disappeared("x"), .appeared("x")])
    }

    @Test func reportsANamespaceOnceMountedAndWhenItGoes() async throws {
      let namespace = try TestNamespace("named")
      defer { namespace.delete() }
      let folder = try Folder(create: true)
      defer { folder.removeAll() }
      try folder.makeFile("present")
      try folder.mount(namespace, as: "present")
      try folder.makeFile("plain")  // never a namespace

      let changes = Recorder<NamedNetworkNamespaces.Change>()
      let watch = try NamedNetworkNamespaces(folder: folder.path) { changes.append($0) }
      defer { watch.stop() }
      try await changes.waitFor(count: 1, "the namespace present at start")
      #expect(changes.values == [.appeared("present")])
      #expect(NamedNetworkNamespaces.list(folder: folder.path) == ["present"])

      // As `ip netns add` does it: the file first (nothing to report), the mount afterwards.
      try folder.makeFile("late")
      try folder.makeFile("other")
      try folder.mount(namespace, as: "other")
      try await changes.waitFor(count: 2, "the mounted one")
      #expect(changes.values.last == .appeared("other"), "the empty file is not reported: \(changes.values)")
      try folder.mount(namespace, as: "late")
      try await changes.waitFor(count: 3, "the file mounted later")
      #expect(changes.values.last == .appeared("late"))

      // As `ip netns delete` does it: unmount, then remove.
      try folder.remove("present")
      try await changes.waitFor(count: 4, "the removed one")
      #expect(changes.values.last == .disappeared("present"))

      watch.stop()
      try folder.remove("other")
      try folder.makeFile("after")
      try folder.mount(namespace, as: "after")
      // Nothing after stop: another watch, started after these changes, sees the end state; the first saw nothing.
      let check = Recorder<NamedNetworkNamespaces.Change>()
      let second = try NamedNetworkNamespaces(folder: folder.path) { check.append($0) }
      defer { second.stop() }
      try await check.waitFor(count: 2, "the end state")
      #expect(Set(check.values) == [.appeared("late"), .appeared("after")])
      #expect(changes.count == 4, "no change after stop(): \(changes.values)")
    }

    @Test func aFolderMadeLaterIsFollowed() async throws {
      let namespace = try TestNamespace("namedlate")
      defer { namespace.delete() }
      let folder = try Folder(create: false)
      defer { folder.removeAll() }
      let changes = Recorder<NamedNetworkNamespaces.Change>()
      let watch = try NamedNetworkNamespaces(folder: folder.path) { changes.append($0) }
      defer { watch.stop() }
      try folder.makeFile("first")
      try folder.mount(namespace, as: "first")
      try await changes.waitFor(count: 1, "the namespace in the folder made after the start")
      #expect(changes.values == [.appeared("first")])
    }

    /// The folder is read and the handler called off the event loop's thread: while a change is stuck in the
    /// handler (as a slow start of a monitor would be), another namespace's monitor still reports each change, and a
    /// stop from another thread returns only once that change is done.
    @Test func aStuckHandlerHoldsNoMonitor() async throws {
      let named = try TestNamespace("namedstuck")
      defer { named.delete() }
      let lab = try VethLab("namedlive")
      defer { lab.delete() }
      try lab.watched.ip("addr add 192.0.2.10/24 dev veth0")
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      let folder = try Folder(create: true)
      defer { folder.removeAll() }
      try folder.makeFile("stuck")
      try folder.mount(named, as: "stuck")
      let (_, session, recorder) = try lab.start()
      defer { session.stop() }

      let gate = DispatchSemaphore(value: 0)
      let events = Recorder<String>()
      let watch = try NamedNetworkNamespaces(folder: folder.path) { change in
        events.append("handler entered: \(change)")
        // Bounded, so that a loop held by the handler (which would also hold this init) fails the order below.
        _ = gate.wait(timeout: .now() + .seconds(20))
        events.append("handler done")
      }
      var gateOpen = false
      defer {
        if !gateOpen { gate.signal() }
        watch.stop()
      }
      try await events.waitFor(count: 1, "the handler called with the namespace present, and stuck")

      // The loop serves the other namespace meanwhile: two changes, each reported.
      try lab.watched.ip("route del default")
      try #require(await recorder.awaitPath("offline, the handler stuck") { $0.status == .unsatisfied } != nil)
      try lab.watched.ip("route add default via 192.0.2.1 dev veth0")
      try #require(await recorder.awaitPath("online, the handler stuck") { $0.status == .satisfied } != nil)
      events.append("the other namespace's changes reported")

      // A stop from another thread waits for the change under way.
      Thread {
        watch.stop()
        events.append("stop returned")
      }.start()
      try lab.watched.ip("route del default")
      try #require(await recorder.awaitPath("offline again, a stop waiting") { $0.status == .unsatisfied } != nil)
      gate.signal()
      gateOpen = true
      try await events.waitFor(count: 4, "the change done, then the stop")
      #expect(
        events.values == [
          #"handler entered: appeared("stuck")"#, "the other namespace's changes reported", "handler done",
          "stop returned",
        ])
    }
  }
#endif
