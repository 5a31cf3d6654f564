import Foundation
import NetStatusLinuxTestSupport
import Testing

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
