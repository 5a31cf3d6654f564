import Foundation
import Glibc

/// What `netstatus watch --all-netns --netns-dir DIR` costs while the host's mount table churns and DIR holds
/// thousands of files that are not namespaces (what a failed `ip netns add` leaves, or a folder shared with other
/// files): each mount event used to check every one of them with `statfs(2)`.
///
/// Everything happens in a mount namespace of the benchmark's own (a holder process keeps it): the folder is a tmpfs
/// there, with `files` empty files; netstatus runs there; a shell mounts and unmounts a tmpfs there `rate` times a
/// second. The host's mount table is never touched.
struct FolderChurnBenchmark {
  struct Result: Codable, Sendable {
    var files: Int
    /// Mount table changes a second (a mount and an unmount are two).
    var mountEventsPerSecond: Double
    var seconds: Double
    /// netstatus's CPU time over the window (utime + stime), in seconds.
    var cpuSeconds: Double
    /// The same, as a share of one core.
    var percentOfOneCore: Double
  }

  /// The target: under 5% of one core.
  static let targetPercent = 5.0

  static func run(netstatus: String, files: Int, mountsPerSecond: Int, seconds: Double) throws -> Result {
    let holder = try ChildProcess(
      ["/usr/bin/unshare", "--mount", "--propagation", "private", "sh", "-c", "echo ready; exec sleep 3600"])
    defer { holder.stop() }
    try holder.waitForFirstLine()
    let mountNamespace = "--mount=/proc/\(holder.pid)/ns/mnt"
    let folder = "/tmp/nsbench-folder-\(getpid())"
    let scratch = folder + "-churn"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer {
      try? FileManager.default.removeItem(atPath: folder)
      try? FileManager.default.removeItem(atPath: scratch)
    }
    _ = try Command.run(
      "/usr/bin/nsenter",
      [
        mountNamespace, "sh", "-c",
        "mount -t tmpfs nsbench \(folder) && cd \(folder) && seq 1 \(files) | sed 's/^/plain-/' | xargs touch",
      ])
    let watch = try ChildProcess(
      ["/usr/bin/nsenter", mountNamespace, netstatus, "watch", "--all-netns", "--netns-dir", folder, "--json"],
      keep: { _ in false })
    defer { watch.stop() }
    // Its folders read, its watches in place: let start-up's work pass.
    usleep(1_000_000)
    // A mount and an unmount, then a pause: about `mountsPerSecond` events a second with the commands' own time (the
    // rate is counted, and reported).
    let pause = String(format: "%.4f", 0.8 / Double(mountsPerSecond))
    let churn = try ChildProcess(
      [
        "/usr/bin/nsenter", mountNamespace, "sh", "-c",
        "while :; do mount -t tmpfs nsbench-churn \(scratch); umount \(scratch); sleep \(pause); done",
      ], keep: { _ in false })
    defer { churn.stop() }
    let counted = try Self.countMountEvents(holder: holder.pid, seconds: 1)
    let before = try ProcessSample(pid: "\(watch.pid)")
    let started = Monotonic.now()
    usleep(useconds_t(seconds * 1_000_000))
    let after = try ProcessSample(pid: "\(watch.pid)")
    let elapsed = (Double(Monotonic.now() - started) / 1e9)
    let cpu = Double(after.cpuTicks - before.cpuTicks) / Double(ProcessSample.ticksPerSecond)
    return Result(
      files: files, mountEventsPerSecond: counted, seconds: elapsed, cpuSeconds: cpu,
      percentOfOneCore: 100 * cpu / elapsed)
  }

  /// The mount table changes a second in the holder's mount namespace, counted over `seconds` (each change wakes
  /// a `poll` on its mountinfo with POLLPRI).
  static func countMountEvents(holder: Int32, seconds: Double) throws -> Double {
    let fd = open("/proc/\(holder)/mountinfo", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw BenchError("cannot open the holder's mountinfo") }
    defer { close(fd) }
    var entry = pollfd(fd: fd, events: Int16(POLLPRI), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 65536)
    _ = poll(&entry, 1, 0)
    var events = 0
    let started = Monotonic.now()
    while (Double(Monotonic.now() - started) / 1e9) < seconds {
      if poll(&entry, 1, 100) > 0, entry.revents & Int16(POLLPRI) != 0 {
        events += 1
        // Reading from the start takes the change note, so the next poll waits for the next change.
        _ = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
      }
    }
    return Double(events) / (Double(Monotonic.now() - started) / 1e9)
  }

  /// The target, judged.
  static func target(_ result: Result) -> Report.Target {
    Report.Target(
      target:
        "watch --all-netns with \(result.files) plain files in --netns-dir, mount table churning: under "
        + "\(Int(targetPercent))% of one core",
      measured: String(
        format: "%.2f%% of one core (%.2f s of CPU in %.1f s, %.0f mount events/s)", result.percentOfOneCore,
        result.cpuSeconds, result.seconds, result.mountEventsPerSecond),
      met: result.percentOfOneCore < targetPercent)
  }
}
