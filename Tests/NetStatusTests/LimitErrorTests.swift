import Foundation
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

#if canImport(Glibc)
  import Glibc
#endif
#if os(Linux)
  import NetStatusSystem
#endif

/// Errors name the limit that was actually reached, and how to raise that one.
@Suite("errors name the limit that was reached")
struct LimitErrorTests {
  @Test func descriptorLimitsNameRlimitAndFileMax() {
    let perProcess = NetworkMonitorError.systemCall(call: "socket(AF_NETLINK, NETLINK_ROUTE)", errno: 24)
    #expect(perProcess.description.contains("EMFILE"))
    #expect(perProcess.description.contains("ulimit -n"), "\(perProcess)")
    let systemWide = NetworkMonitorError.systemCall(call: "eventfd", errno: 23)
    #expect(systemWide.description.contains("fs.file-max"), "\(systemWide)")
    #expect(!systemWide.description.contains("ulimit"), "ENFILE is not the process's limit: \(systemWide)")
  }

  @Test func inotifyLimitsNameTheirSysctl() {
    let instances = NetworkMonitorError.limitReached(call: "inotify_init1", errno: 24, limit: .inotifyInstances)
    #expect(instances.description.contains("inotify_init1 failed: EMFILE"), "\(instances)")
    #expect(instances.description.contains("fs.inotify.max_user_instances"), "\(instances)")
    #expect(!instances.description.contains("ulimit"), "not the descriptor limit: \(instances)")
    let watches = NetworkMonitorError.limitReached(
      call: "inotify_add_watch(/etc)", errno: 28, limit: .inotifyWatches)
    #expect(watches.description.contains("ENOSPC"), "\(watches)")
    #expect(watches.description.contains("fs.inotify.max_user_watches"), "\(watches)")
    #expect(!watches.description.contains("ulimit"), "\(watches)")
  }

  #if os(Linux)
    @Test func inotifyInitEMFILEIsTheInstanceLimitWhenDescriptorsRemain() {
      #expect(
        NetworkMonitorError(inotifyInit: .tooManyOpenFiles, descriptorAvailable: { true })
          == .limitReached(call: "inotify_init1", errno: EMFILE, limit: .inotifyInstances))
      #expect(
        NetworkMonitorError(inotifyInit: .tooManyOpenFiles, descriptorAvailable: { false })
          == .systemCall(call: "inotify_init1", errno: EMFILE),
        "no descriptor left: it is the process's limit (ulimit -n)")
      #expect(
        NetworkMonitorError(inotifyInit: Errno(rawValue: ENFILE), descriptorAvailable: { true })
          == .systemCall(call: "inotify_init1", errno: ENFILE))
      #expect(
        NetworkMonitorError(inotifyInit: .outOfMemory, descriptorAvailable: { true })
          == .systemCall(call: "inotify_init1", errno: ENOMEM))
      #expect(InotifyWatcher.canOpenDescriptor(), "this test process is far from its descriptor limit")
    }

    @Test func inotifyWatchENOSPCIsTheWatchLimit() throws {
      let noSpace = SystemCallError(call: "inotify_add_watch(/etc)", errno: .noSpace)
      #expect(
        NetworkMonitorError(inotifyWatch: noSpace)
          == .limitReached(call: "inotify_add_watch(/etc)", errno: ENOSPC, limit: .inotifyWatches))
      let memory = SystemCallError(call: "inotify_add_watch(/etc)", errno: .outOfMemory)
      #expect(NetworkMonitorError(inotifyWatch: memory) == .systemCall(call: "inotify_add_watch(/etc)", errno: ENOMEM))
      // A folder that is not there (ENOENT) or not a folder (ENOTDIR) is simply not watched.
      let watcher = try InotifyWatcher.open()  // closed when it goes out of scope
      #expect(try watcher.watch(folder: "/nonexistent-nstest-folder", for: .names) == nil)
      #expect(try watcher.watch(folder: "/proc/self/status", for: .names) == nil)
    }
  #endif
}

#if os(Linux)
  /// A monitor started over an inotify limit fails with the error that names it. The limit is lowered only
  /// inside a user namespace made for the test (`unshare --user --map-root-user --net`), whose
  /// `user.max_inotify_*` counts the test child alone: the machine's fs.inotify sysctls are never touched.
  @Suite(
    "inotify limits, lowered in a user namespace of the test's own",
    .enabled(if: UserNamespaces.available, "needs root and unshare(1) able to make a user namespace"))
  struct InotifyLimitKernelTests {
    @Test(arguments: ["instances", "watches"])
    func aMonitorOverTheLimitNamesIt(limit: String) async throws {
      let sysctl = limit == "instances" ? "fs.inotify.max_user_instances" : "fs.inotify.max_user_watches"
      let run = try await TestChild.run(["inotify-limit", limit], launcher: UserNamespaces.launcher)
      #expect(run.exit == .exited(0), "a start must fail under the lowered limit: \(run.lines) \(run.errors)")
      let error = run.lines.last ?? ""
      #expect(error.hasPrefix("error: "), "\(run.lines)")
      #expect(error.contains(sysctl), "\(error)")
      #expect(!error.contains("ulimit"), "\(error)")
    }

    @Test("200 monitors running at once share one inotify instance and one thread")
    func monitorsShareOneInstance() async throws {
      let run = try await TestChild.run(["inotify-limit", "shared"], launcher: UserNamespaces.launcher)
      #expect(run.exit == .exited(0), "\(run.lines) \(run.errors)")
      // One netlink socket per monitor; the rtnetlink thread's epoll set, eventfd and inotify instance are shared
      // (the first monitor's start opens them).
      let fields = Dictionary(
        uniqueKeysWithValues: (run.lines.last ?? "").split(separator: " ").compactMap { field in
          let parts = field.split(separator: "=")
          return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
        })
      #expect(fields["started"] == 200, "\(run.lines)")
      #expect(fields["threads"] == 1, "one rtnetlink thread for all: \(run.lines)")
      let descriptors = try #require(fields["descriptors"])
      #expect((200...203).contains(descriptors), "one descriptor per monitor, plus the thread's: \(run.lines)")
    }
  }

  /// Whether `unshare` can put a child in a user namespace (and a network namespace) of its own.
  enum UserNamespaces {
    static let unshare = ["/usr/bin/unshare", "/bin/unshare"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }

    static var launcher: [String] { [unshare ?? "unshare", "--user", "--map-root-user", "--net"] }

    static let available: Bool = {
      guard getuid() == 0, unshare != nil,
        let child = try? ChildProcess(executable: launcher[0], Array(launcher.dropFirst()) + ["/bin/true"])
      else { return false }
      return child.waitUntilExit() == .exited(0)
    }()
  }
#endif
