import Foundation
import NetStatusTestSupport
import Testing

@testable import NetStatusLinuxSource

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
    let perProcess = NetworkMonitorError.systemCall(
      call: "socket(AF_NETLINK, NETLINK_ROUTE)", errno: Errno(rawValue: 24))
    #expect(perProcess.description.contains("EMFILE"))
    #expect(perProcess.description.contains("ulimit -n"), "\(perProcess)")
    let systemWide = NetworkMonitorError.systemCall(call: "eventfd", errno: Errno(rawValue: 23))
    #expect(systemWide.description.contains("fs.file-max"), "\(systemWide)")
    #expect(!systemWide.description.contains("ulimit"), "ENFILE is not the process's limit: \(systemWide)")
  }

  @Test func inotifyLimitsNameTheirSysctl() {
    let instances = NetworkMonitorError.limitReached(
      call: "inotify_init1", errno: Errno(rawValue: 24), limit: .inotifyInstances)
    #expect(instances.description.contains("inotify_init1 failed: EMFILE"), "\(instances)")
    #expect(instances.description.contains("fs.inotify.max_user_instances"), "\(instances)")
    #expect(!instances.description.contains("ulimit"), "not the descriptor limit: \(instances)")
    let watches = NetworkMonitorError.limitReached(
      call: "inotify_add_watch(/etc)", errno: Errno(rawValue: 28), limit: .inotifyWatches)
    #expect(watches.description.contains("ENOSPC"), "\(watches)")
    #expect(watches.description.contains("fs.inotify.max_user_watches"), "\(watches)")
    #expect(!watches.description.contains("ulimit"), "\(watches)")
  }

  #if os(Linux)
    @Test func inotifyInitEMFILEIsTheInstanceLimitWhenDescriptorsRemain() {
      #expect(
        NetworkMonitorError(inotifyInit: .tooManyOpenFiles, descriptorAvailable: { true })
          == .limitReached(call: "inotify_init1", errno: Errno(rawValue: EMFILE), limit: .inotifyInstances))
      #expect(
        NetworkMonitorError(inotifyInit: .tooManyOpenFiles, descriptorAvailable: { false })
          == .systemCall(call: "inotify_init1", errno: Errno(rawValue: EMFILE)),
        "no descriptor left: it is the process's limit (ulimit -n)")
      #expect(
        NetworkMonitorError(inotifyInit: Errno(rawValue: ENFILE), descriptorAvailable: { true })
          == .systemCall(call: "inotify_init1", errno: Errno(rawValue: ENFILE)))
      #expect(
        NetworkMonitorError(inotifyInit: .outOfMemory, descriptorAvailable: { true })
          == .systemCall(call: "inotify_init1", errno: Errno(rawValue: ENOMEM)))
      #expect(InotifyWatcher.canOpenDescriptor(), "this test process is far from its descriptor limit")
    }

    @Test func inotifyWatchENOSPCIsTheWatchLimit() throws {
      let noSpace = SystemCallError(call: "inotify_add_watch(/etc)", errno: .noSpace)
      #expect(
        NetworkMonitorError(inotifyWatch: noSpace)
          == .limitReached(call: "inotify_add_watch(/etc)", errno: Errno(rawValue: ENOSPC), limit: .inotifyWatches))
      let memory = SystemCallError(call: "inotify_add_watch(/etc)", errno: .outOfMemory)
      #expect(
        NetworkMonitorError(inotifyWatch: memory)
          == .systemCall(call: "inotify_add_watch(/etc)", errno: Errno(rawValue: ENOMEM)))
      // A folder that is not there (ENOENT) or not a folder (ENOTDIR) is simply not watched.
      let watcher = try InotifyWatcher.open()  // closed when it goes out of scope
      #expect(try watcher.watch(folder: "/nonexistent-nstest-folder", for: .names) == nil)
      #expect(try watcher.watch(folder: "/proc/self/status", for: .names) == nil)
    }
  #endif
}
