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
//
//   netstatus-test-child sole-session --netns NAME --resolv FILE
//     NAME has veth0 up, with no address. Watches it with one source (resolver configuration FILE, which it
//     rewrites), then two, then one again, and checks, through /proc/self/task/TID/syscall, where the event thread
//     waits: in the session's recvmsg (and a netstatus-relay thread in epoll_wait) while it serves one session, in
//     epoll_wait with two; that every change reaches every session, a resolver change while the thread waits in
//     the receive included; and that no thread is left once the last session stops. Prints `ok`. Exit 0, or 1 with
//     the step that failed.

#if os(Linux)
  import Foundation
  import Glibc
  import NetStatus
  import ProcFileSupport
  import Synchronization

  /// Prints a line and exits.
  func finish(_ line: String, status: Int32) -> Never {
    print(line)
    exit(status)
  }

  /// The threads of this process named netstatus-rtnl (one per running session).
  func sessionThreads() -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.count { task in
      let name = readProcFile("/proc/self/task/\(task)/comm")
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
    let map = readProcFile("/proc/self/uid_map") ?? ""
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

  /// The paths a session sent, and a way to wait for one.
  final class PathLog: Sendable {
    private let paths = Mutex<[NetworkPath]>([])

    var sink: PathSink {
      PathSink { [self] event in
        if case .path(let path) = event { paths.withLock { $0.append(path) } }
      }
    }

    /// Waits (up to 10 s) for a path sent after the first `after` that satisfies `condition`; fails the run
    /// otherwise.
    func await(_ what: String, after: Int = 0, _ condition: (NetworkPath) -> Bool) {
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if paths.withLock({ $0.dropFirst(after).contains(where: condition) }) { return }
        usleep(2_000)
      }
      finish("error: no path with \(what) within 10 s: \(paths.withLock { $0 })", status: 1)
    }

    var count: Int { paths.withLock { $0.count } }
  }

  /// The system call each thread of this process named `name` is blocked in (`/proc/self/task/TID/syscall`'s first
  /// field), or -1 for one that runs.
  func blockedCalls(ofThreadsNamed name: String) -> [Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
      let comm = readProcFile("/proc/self/task/\(task)/comm")
      guard comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name else { return nil }
      let call = readProcFile("/proc/self/task/\(task)/syscall") ?? ""
      return Int(call.split(separator: " ").first ?? "") ?? -1
    }
  }

  /// Waits (up to 10 s) until the event thread is blocked in one of `calls`, and the relay thread in one of
  /// `relayCalls` (or there is none, for an empty list); fails the run otherwise.
  func awaitThreads(_ step: String, rtnl calls: Set<Int>, relay relayCalls: Set<Int>) {
    let deadline = ContinuousClock.now + .seconds(10)
    var seen: ([Int], [Int]) = ([], [])
    while ContinuousClock.now < deadline {
      seen = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
      let rtnlOK = seen.0.count == 1 && calls.contains(seen.0[0])
      let relayOK = relayCalls.isEmpty ? seen.1.isEmpty : seen.1.count == 1 && relayCalls.contains(seen.1[0])
      if rtnlOK && relayOK { return }
      usleep(2_000)
    }
    finish(
      "error: \(step): netstatus-rtnl in \(seen.0), netstatus-relay in \(seen.1) (system call numbers; wanted "
        + "\(calls.sorted()) and \(relayCalls.sorted()))", status: 1)
  }

  func ip(_ namespace: String, _ arguments: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
    process.arguments = ["-n", namespace] + arguments.split(separator: " ").map(String.init)
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      finish("error: ip \(arguments): \(error)", status: 1)
    }
    if process.terminationStatus != 0 { finish("error: ip \(arguments) failed", status: 1) }
  }

  func soleSession(_ arguments: [String]) -> Never {
    guard arguments.count == 4, arguments[0] == "--netns", arguments[2] == "--resolv" else {
      finish("usage: sole-session --netns NAME --resolv FILE", status: 2)
    }
    let (namespace, resolv) = (arguments[1], arguments[3])
    // The system call numbers (asm/unistd.h; Glibc does not export SYS_*).
    #if arch(x86_64)
      let (receive, epoll): (Set<Int>, Set<Int>) = ([47], [232, 281, 441])  // recvmsg; epoll_wait, _pwait, _pwait2
    #elseif arch(arm64)
      let (receive, epoll): (Set<Int>, Set<Int>) = ([212], [22, 441])  // recvmsg; epoll_pwait, _pwait2
    #else
      finish("skipped: no system call numbers for this architecture", status: 0)
    #endif
    func write(_ text: String) {
      do {
        try text.write(toFile: resolv, atomically: true, encoding: .utf8)  // renamed over, as resolvers do
      } catch {
        finish("error: cannot write \(resolv): \(error)", status: 1)
      }
    }
    write("search lan\n")
    do throws(NetworkMonitorError) {
      let first = PathLog()
      let source = try NetlinkPathSource(networkNamespace: namespace, resolverConfigurationPath: resolv)
      let session = try source.start(filter: .none, sink: first.sink)
      awaitThreads("one session", rtnl: receive, relay: epoll)
      ip(namespace, "addr add 192.0.2.10/24 dev veth0")
      ip(namespace, "route add default via 192.0.2.1 dev veth0")
      first.await("a default route") { $0.isConnected && !$0.supportsDNS }
      awaitThreads("one session, after a change", rtnl: receive, relay: epoll)
      write("nameserver 192.0.2.53\n")  // an inotify event, seen by the relay
      first.await("a name server") { $0.isConnected && $0.supportsDNS }
      awaitThreads("one session, after a resolver change", rtnl: receive, relay: epoll)

      let second = PathLog()
      let other = try NetlinkPathSource(networkNamespace: namespace, resolverConfigurationPath: resolv)
      let otherSession = try other.start(filter: .none, sink: second.sink)
      awaitThreads("two sessions", rtnl: epoll, relay: [])
      var (seenFirst, seenSecond) = (first.count, second.count)
      ip(namespace, "route del default")
      first.await("no default route (two sessions)", after: seenFirst) { !$0.isConnected }
      second.await("no default route (second session)", after: seenSecond) { !$0.isConnected }

      otherSession.stop()
      awaitThreads("one session again", rtnl: receive, relay: epoll)
      (seenFirst, seenSecond) = (first.count, second.count)
      ip(namespace, "route add default via 192.0.2.1 dev veth0")
      first.await("the default route back", after: seenFirst) { $0.isConnected }
      write("search lan\n")
      first.await("no name server", after: seenFirst) { !$0.supportsDNS }
      if second.count != seenSecond { finish("error: a stopped session got a path", status: 1) }

      session.stop()  // from this thread, while the event thread waits in the session's receive
      // The event thread is joined by then; the relay, detached, may take a moment more to be gone.
      let deadline = ContinuousClock.now + .seconds(10)
      var left = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
      while !(left.0.isEmpty && left.1.isEmpty) && ContinuousClock.now < deadline {
        usleep(2_000)
        left = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
      }
      if !left.0.isEmpty || !left.1.isEmpty {
        finish(
          "error: threads left after the last stop: \(left.0.count) netstatus-rtnl, \(left.1.count) relay", status: 1)
      }
    } catch {
      finish("error: \(error)", status: 1)
    }
    finish("ok", status: 0)
  }

  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "churn": churn(Array(arguments.dropFirst()))
  case "inotify-limit": inotifyLimit(Array(arguments.dropFirst()))
  case "sole-session": soleSession(Array(arguments.dropFirst()))
  default: finish("usage: netstatus-test-child churn ... | inotify-limit ... | sole-session ...", status: 2)
  }
#endif
