import Foundation
import NetStatusCore
import NetStatusTestSupport
import ProcFileSupport
import Testing

/// The threads of this process, seen through `/proc/self/task`: to find the probe's threads in a test
/// namespace and what CPU time they use.
package enum ProcessThreads {
  /// A thread: its id, name (`comm`), network namespace (`net:[INODE]`) and CPU time so far.
  package struct Thread {
    package var id: String
    package var name: String
    package var networkNamespace: String?
    package var cpuTime: Duration
  }

  /// The threads alive now.
  package static func all() -> [Thread] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
      let folder = "/proc/self/task/\(task)"
      guard let name = readProcFile("\(folder)/comm") else { return nil }
      return Thread(
        id: task, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
        networkNamespace: try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/ns/net"),
        cpuTime: cpuTime(of: folder))
    }
  }

  /// The threads that have entered `namespace` (the probe's threads, a monitor's rtnetlink thread).
  package static func inside(_ namespace: TestNamespace) -> [Thread] {
    guard let identity = identity(of: namespace) else { return [] }
    return all().filter { $0.networkNamespace == identity }
  }

  /// `net:[INODE]`, as `/proc/.../ns/net` names the namespace.
  package static func identity(of namespace: TestNamespace) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: "/run/netns/\(namespace.name)"),
      let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
    else { return nil }
    return "net:[\(inode)]"
  }

  /// The CPU time of a task folder (`/proc/self/task/TID` or `/proc/PID`): the scheduler's nanoseconds on
  /// a CPU from `schedstat` (`.zero` if unreadable).
  package static func cpuTime(of folder: String) -> Duration {
    guard let text = readProcFile("\(folder)/schedstat"),
      let first = text.split(separator: " ").first, let nanoseconds = Int64(first)
    else { return .zero }
    return .nanoseconds(nanoseconds)
  }

  /// A CPU-time bound for a test: `bound` as measured on a plain debug build, ten times that under a
  /// sanitizer (TSan and ASan make the parsing and the system calls several times slower).
  package static func cpuBound(_ bound: Duration) -> Duration {
    ProcessResources.underSanitizer ? bound * 10 : bound
  }

  /// The CPU time (user + system) a process has used, its ended threads included, from `/proc/PID/stat`.
  package static func processCPUTime(_ pid: Int32) -> Duration? {
    guard let text = readProcFile("/proc/\(pid)/stat"),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15, in clock ticks.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
    let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
    return .milliseconds((user + system) * 1000 / max(ticks, 1))
  }

  /// Waits until the thread `id` has ended (its `/proc/self/task` entry is gone: the kernel removes a
  /// thread other than the main one as it exits); throws ``TimedOut`` after `timeout`. Returns when it saw
  /// the end, polling one path only, so that the instant is close to the end itself.
  package static func waitForEnd(of id: String, _ what: String, timeout: Duration = .seconds(5)) async throws
    -> ContinuousClock.Instant
  {
    try await withTimeout(timeout, what) {
      while access("/proc/self/task/\(id)", F_OK) == 0 {
        try Task.checkCancellation()
        await Task.yield()
      }
      return ContinuousClock.now
    }
  }

  /// Waits until `condition` holds for the threads alive; throws ``TimedOut`` (naming the threads) after
  /// `timeout`. Returns when it held.
  @discardableResult
  package static func waitUntil(
    _ what: String, timeout: Duration = .seconds(5), _ condition: @escaping @Sendable ([Thread]) -> Bool
  ) async throws -> ContinuousClock.Instant {
    do {
      return try await withTimeout(timeout, what) {
        while !condition(all()) {
          try Task.checkCancellation()
          await Task.yield()
        }
        return ContinuousClock.now
      }
    } catch let error as TimedOut {
      let threads = all().map { "\($0.name) \($0.networkNamespace ?? "?")" }
      throw TimedOut(what: "\(error.what); threads: \(threads)", timeout: timeout)
    }
  }
}
