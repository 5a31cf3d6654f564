// netstatus-soak: start/stop cycles of a monitor on a network namespace, in a process of their own, for
// NetlinkSoakTests (Tests/NetStatusKernelTests/NetlinkSoakTests.swift), which runs it and checks what it reports.
//
// Why a process of its own: the test used to measure the RSS of the whole test process, where other suites run
// in parallel and allocate as they please (it once grew by 4,300 KiB with no leak). Here only the cycles run.
// Why this small package executable rather than `netstatus`: `netstatus` has no start/stop loop, and giving it one
// would add a command or flag users could see; this target is built only on Linux, is not a product, and, like
// `netstatus`, does not link the NetStatus module, so no notification is ever kept for the main queue it never runs.
//
// Usage: netstatus-soak NAMESPACE GATEWAY CYCLES WARM_UP
//   Runs WARM_UP cycles, measures, runs CYCLES cycles (sampling RSS every tenth of them), measures again, and
//   prints one JSON object (the keys NetlinkSoakTests.Report decodes). Each cycle starts the monitor, checks that
//   its first path has GATEWAY as its only gateway, and stops it. Exit 0 after printing; 1 with a message on
//   stderr if a cycle fails; 2 on bad arguments.
import Foundation
import NetStatusCore
import ProcFileSupport

/// Writes `message` to standard error and exits with `code`.
func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("netstatus-soak: \(message)\n".utf8))
  exit(code)
}

/// What this process holds now.
struct Measurement {
  /// VmRSS from /proc/self/status, in KiB.
  var residentKilobytes: Int
  /// Every thread of the process.
  var threads: Int
  /// The rtnetlink session threads (named `netstatus-rtnl`).
  var sessionThreads: Int
  /// Open descriptors by kind: `socket`, `pipe`, the anonymous inode's name (`anon_inode:[eventfd]`,
  /// `anon_inode:inotify`, `anon_inode:[pidfd]`…), or `file` for anything else.
  var descriptors: [String: Int]

  /// Measures this process, from /proc/self.
  static func now() -> Measurement {
    let files = FileManager.default
    var descriptors: [String: Int] = [:]
    for entry in (try? files.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
      // The directory's own descriptor, open while it is listed, is gone by now: its link no longer resolves.
      guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry) else { continue }
      let kind =
        target.hasPrefix("socket:")
        ? "socket"
        : target.hasPrefix("pipe:")
          ? "pipe"
          : target.hasPrefix("anon_inode:") ? target : "file"
      descriptors[kind, default: 0] += 1
    }
    let tasks = (try? files.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let sessionThreads = tasks.count { task in
      let name = readProcFile("/proc/self/task/\(task)/comm")
      return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "netstatus-rtnl"
    }
    return Measurement(
      residentKilobytes: residentKilobytes(), threads: tasks.count, sessionThreads: sessionThreads,
      descriptors: descriptors)
  }

  /// VmRSS from /proc/self/status, in KiB.
  static func residentKilobytes() -> Int {
    guard let status = readProcFile("/proc/self/status") else {
      fail("cannot read /proc/self/status", code: 1)
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      if let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
      {
        return value
      }
    }
    fail("no VmRSS in /proc/self/status", code: 1)
  }

  /// The measurement as JSON-ready values.
  var dictionary: [String: Any] {
    [
      "residentKilobytes": residentKilobytes, "threads": threads, "sessionThreads": sessionThreads,
      "descriptors": descriptors,
    ]
  }
}

extension Measurement {
  /// Measures this process once the rtnetlink loop's thread is gone from /proc/self/task, or after 10 s. The last
  /// stop has joined that thread, but the kernel lists a thread until it has finished exiting, which comes after its
  /// joiner is woken (the thread's ID is cleared, and the joiner woken, early in its exit): on a loaded machine, for
  /// a while. A leaked thread never leaves; an exiting one leaves within moments.
  static func onceTheLoopLeft() -> Measurement {
    let clock = ContinuousClock()
    let began = clock.now
    var measurement = Measurement.now()
    while measurement.sessionThreads > 0, clock.now - began < .seconds(10) {
      usleep(1_000)
      measurement = Measurement.now()
    }
    return measurement
  }
}

/// Runs the warm-up and the measured cycles and returns the report. The monitor is local, so that it is released
/// before the process exits: LeakSanitizer (in the ASan run) would take a live monitor's weak-reference side table,
/// which the object's reference count points to in a form it does not recognise, for a leak.
func soak(namespace: String, gateway: String, cycles: Int, warmUp: Int) -> [String: Any] {
  let monitor: NetworkMonitor
  do {
    monitor = try NetworkMonitor(networkNamespace: namespace)
  } catch {
    fail("\(error)", code: 1)
  }

  /// One start/stop cycle, checking the first path.
  func cycle() {
    do {
      try monitor.start()
    } catch {
      fail("start failed: \(error)", code: 1)
    }
    guard monitor.currentPath?.gateways == [gateway] else {
      fail("wrong first path: \(String(describing: monitor.currentPath))", code: 1)
    }
    monitor.stopMonitoring()
  }

  // Warm up: caches, the allocator's arenas, lazily made runtime threads.
  for _ in 0..<warmUp { cycle() }
  let before = Measurement.onceTheLoopLeft()
  let clock = ContinuousClock()
  let started = clock.now
  var samples: [Int] = []
  let sampleEvery = max(cycles / 10, 1)
  for index in 1...cycles {
    cycle()
    if index % sampleEvery == 0 { samples.append(Measurement.residentKilobytes()) }
  }
  let elapsed = clock.now - started
  let leaving = clock.now
  let after = Measurement.onceTheLoopLeft()
  return [
    "cycles": cycles, "warmUp": warmUp, "elapsedMilliseconds": Int(elapsed / .milliseconds(1)),
    "before": before.dictionary, "after": after.dictionary, "residentSamples": samples,
    "exitWaitMilliseconds": Int((clock.now - leaving) / .milliseconds(1)),
  ]
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 4, let cycles = Int(arguments[3]), let warmUp = Int(arguments[4]), cycles > 0, warmUp >= 0
else {
  fail("usage: netstatus-soak NAMESPACE GATEWAY CYCLES WARM_UP", code: 2)
}
let report = soak(namespace: arguments[1], gateway: arguments[2], cycles: cycles, warmUp: warmUp)
do {
  let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
  FileHandle.standardOutput.write(json + Data("\n".utf8))
} catch {
  fail("cannot encode the report: \(error)", code: 1)
}
