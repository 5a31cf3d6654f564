// netstatus-test-child: what the kernel tests run in a process of their own, because the test process cannot
// stand in for it (its main queue runs; limits and leaks there would touch every other test). Linux only.
//
//   netstatus-test-child churn --netns NAME --count N [--no-notifications] [--keep-going]
//     Creates, starts and drops N monitors of the namespace, one after the other, on the main thread of a
//     process that never runs its main queue (a daemon, a server, the CLI). Checks after each drop that the
//     monitor is gone (unless --keep-going), then prints
//     `monitors=N alive=A threads=T descriptors=D baselineThreads=T0 baselineDescriptors=D0`
//     (threads: those named netstatus-rtnl; descriptors: every open one). Exit 0, or 1 with the reason.
//
//   netstatus-test-child inotify-limit instances|watches|shared
//     Inside a user namespace of its own (`unshare --user --map-root-user --net`), lowers that namespace's
//     inotify limit (user.max_inotify_instances to 0, or user.max_inotify_watches to 0; it refuses to run in
//     the initial user namespace, where that would be the machine's fs.inotify limit), starts monitors until
//     one fails, and prints `error: DESCRIPTION`. Exit 0 when a start failed, 1 otherwise.
//     `shared`: user.max_inotify_instances to 1, then 200 monitors running at once must all start (they share
//     one inotify instance); prints `started=N threads=T descriptors=D` (D: descriptors opened meanwhile). Exit 0 when all started, 1 otherwise.

#if os(Linux)
  import Foundation
  import Glibc
  import NetStatus

  /// Prints a line and exits.
  func finish(_ line: String, status: Int32) -> Never {
    print(line)
    exit(status)
  }

  /// The threads of this process named netstatus-rtnl (one per running session).
  func sessionThreads() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.count { task in
      let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
      return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "netstatus-rtnl"
    }
  }

  /// The descriptors open in this process.
  func descriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
  }

  /// Weak references to the monitors made so far.
  final class Graveyard {
    private var monitors: [() -> NetworkMonitor?] = []
    func add(_ monitor: NetworkMonitor) {
      monitors.append { [weak monitor] in monitor }
    }
    var alive: Int { monitors.count { $0() != nil } }
  }

  /// Creates and starts a monitor, then drops it: when this returns, nothing but a leak holds it.
  func startAndDrop(namespace: String, notifications: Bool, into graveyard: Graveyard) throws(NetworkMonitorError) {
    let monitor = try NetworkMonitor(networkNamespace: namespace)
    monitor.postsNotifications = notifications
    try monitor.start()
    graveyard.add(monitor)
  }

  func churn(_ arguments: [String]) -> Never {
    var namespace: String?
    var count = 0
    var notifications = true
    var keepGoing = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--netns": namespace = rest.popFirst()
      case "--count": count = rest.popFirst().flatMap { Int($0) } ?? 0
      case "--no-notifications": notifications = false
      case "--keep-going": keepGoing = true
      default: finish("unknown argument \(argument)", status: 2)
      }
    }
    guard let namespace, count > 0 else { finish("usage: churn --netns NAME --count N", status: 2) }
    // Monitors post from the first use of the notification's name on (Sources/NetStatus/ConnectivityNotification.swift),
    // as in an app that observes it: their blocks then wait on the main queue, which never runs here.
    if notifications { _ = Notification.Name.connectivityStatus }
    // One monitor first, so that what the process opens once (Dispatch's main-queue descriptor) is in the baseline.
    let warmUp = Graveyard()
    do throws(NetworkMonitorError) {
      try startAndDrop(namespace: namespace, notifications: notifications, into: warmUp)
    } catch {
      finish("error: the warm-up monitor did not start: \(error)", status: 1)
    }
    let baselineThreads = sessionThreads()
    let baselineDescriptors = descriptors()
    let graveyard = Graveyard()
    for index in 1...count {
      do throws(NetworkMonitorError) {
        try startAndDrop(namespace: namespace, notifications: notifications, into: graveyard)
      } catch {
        finish(
          "error: monitor \(index) did not start (\(graveyard.alive) dropped monitors still alive, "
            + "\(sessionThreads()) netstatus-rtnl threads, \(descriptors()) descriptors): \(error)", status: 1)
      }
      if !keepGoing, graveyard.alive > 0 {
        finish(
          "error: monitor \(index) is still alive after it was dropped (\(sessionThreads()) netstatus-rtnl "
            + "threads, \(descriptors()) descriptors, \(baselineDescriptors) before)", status: 1)
      }
    }
    finish(
      "monitors=\(count) alive=\(graveyard.alive) threads=\(sessionThreads()) descriptors=\(descriptors()) "
        + "baselineThreads=\(baselineThreads) baselineDescriptors=\(baselineDescriptors)", status: 0)
  }

  func inotifyLimit(_ arguments: [String]) -> Never {
    let setting: (file: String, value: String)
    switch arguments.first {
    case "instances": setting = ("/proc/sys/user/max_inotify_instances", "0")
    case "shared": setting = ("/proc/sys/user/max_inotify_instances", "1")
    case "watches": setting = ("/proc/sys/user/max_inotify_watches", "0")
    default: finish("usage: inotify-limit instances|watches|shared", status: 2)
    }
    // The initial user namespace maps every id; a namespace of our own (unshare --map-root-user) maps one.
    let map = (try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8)) ?? ""
    let ranges = map.split(separator: " ", omittingEmptySubsequences: true)
    guard ranges.count == 3, ranges[2].trimmingCharacters(in: .whitespacesAndNewlines) != "4294967295" else {
      finish("refused: not in a user namespace of its own (run under unshare --user --map-root-user)", status: 2)
    }
    do {
      try setting.value.write(toFile: setting.file, atomically: false, encoding: .utf8)
    } catch {
      finish("cannot write \(setting.file): \(error)", status: 2)
    }
    // The monitors are released before the process exits (LeakSanitizer, in the ASan run, would report the
    // weak-reference side tables of objects still alive at exit).
    let (line, status) = arguments.first == "shared" ? startManyMonitors(200) : startMonitorsUntilOneFails()
    finish(line, status: status)
  }

  /// Starts `count` monitors of this namespace, all running at once; stops and releases them all.
  func startManyMonitors(_ count: Int) -> (line: String, status: Int32) {
    var running: [NetworkMonitor] = []
    defer {
      for started in running { started.stopMonitoring() }
    }
    let baseline = descriptors()
    for _ in 0..<count {
      let monitor = NetworkMonitor()
      monitor.postsNotifications = false
      do throws(NetworkMonitorError) {
        try monitor.start()
      } catch {
        return ("error after \(running.count) monitors: \(error)", 1)
      }
      running.append(monitor)
    }
    return ("started=\(running.count) threads=\(sessionThreads()) descriptors=\(descriptors() - baseline)", 0)
  }

  /// Starts up to four monitors of this namespace until one fails; stops and releases them all.
  func startMonitorsUntilOneFails() -> (line: String, status: Int32) {
    var running: [NetworkMonitor] = []
    defer {
      for started in running { started.stopMonitoring() }
    }
    for _ in 0..<4 {
      let monitor = NetworkMonitor()
      monitor.postsNotifications = false
      do throws(NetworkMonitorError) {
        try monitor.start()
      } catch {
        return ("error: \(error)", 0)
      }
      running.append(monitor)
    }
    return ("\(running.count) monitors started under the lowered limit", 1)
  }

  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "churn": churn(Array(arguments.dropFirst()))
  case "inotify-limit": inotifyLimit(Array(arguments.dropFirst()))
  default: finish("usage: netstatus-test-child churn ... | inotify-limit ...", status: 2)
  }
#endif
