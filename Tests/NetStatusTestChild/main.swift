// netstatus-test-child: what the kernel tests run in a process of their own, because the test process cannot
// stand in for it (its main queue runs; limits and leaks there would touch every other test). Linux only.
//
//   netstatus-test-child churn --netns NAME --count N [--no-notifications] [--stop] [--keep-going]
//     Creates, starts and drops N monitors of the namespace, one after the other, on the main thread of a
//     process that never runs its main queue (a daemon, a server, the CLI): started by a subscription that goes
//     with the monitor, or with --stop, started with start() and stopped before the drop. Checks after each drop that the
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
//     waits: in epoll_wait, with one session as with two, and no other thread of the hub (no netstatus-relay);
//     that every change reaches every session, a resolver change included; and that no thread is left once the
//     last session stops. Prints `ok`. Exit 0, or 1 with the step that failed.
//
//   netstatus-test-child setuid-stop --resolv FILE [--stop-first]
//     Run as root inside a namespace of the test's (`ip netns exec`), whose path is connected; FILE's folder is
//     writable by uid 65534. Starts a monitor of its own namespace (resolver configuration FILE), lets the event
//     thread settle, and drops to uid and gid 65534 with setuid (as daemons do: no capability left, on every
//     thread). Then starts a second monitor, rewrites FILE (a name server) and checks that both monitors see it,
//     stops the first, checks that the second sees FILE rewritten again, and stops it. With --stop-first, stops the
//     first monitor right after setuid (nothing happens in the namespace: a stop that waits for an event never
//     returns), then starts the second and checks it sees FILE rewritten. Each stop must return within 30 s
//     (waitBound); no thread may be left at the end. Prints `ok`. Exit 0, or 1 with the step that failed.
//
//   netstatus-test-child notifications ...: Tests/NetStatusTestChild/NotificationDelivery.swift.
//
//   netstatus-test-child exhausted-failure ...: Tests/NetStatusTestChild/ExhaustedFailure.swift.
//
//   netstatus-test-child stop-time --resolv FILE
//     Run inside a namespace of the test's (`ip netns exec`). 15 times, starts a monitor of its own namespace
//     (resolver configuration FILE) and stops it at once, timing the stop, and checks that the stop left the hub's
//     inotify instance open, the same one each time (kcmp): closing an instance that had watches waits for the
//     kernel, which a stop must not. Then 15 times opens an inotify instance, watches FILE's folder and closes the
//     instance, timing the close. Prints `stop=S close=C`, the medians in microseconds. Exit 0, or 1 with the
//     step that failed.
#if os(Linux)
  import CNetStatusShim
  import Foundation
  import Glibc
  import NetStatus
  import ProcFileSupport
  import Synchronization

  /// How long a wait of this child lasts before it fails the run: the property each wait checks is that the
  /// thing comes (or a stop returns), not how fast, and under a loaded two-core CI run a path has taken several
  /// seconds to come; 30 s, as the tests' own waits.
  let waitBound: Duration = .seconds(30)

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

  /// Creates and starts a monitor, then drops it: when this returns, nothing but a leak holds it. Started by a
  /// subscription, which goes with it, or (`stopping`) with `start()` and then stopped: a monitor started with
  /// `start()` runs until `stop()` (Tests/NetStatusTests/MonitorLifetimeTests.swift).
  func startAndDrop(namespace: String, notifications: Bool, stopping: Bool, into graveyard: Graveyard)
    throws(NetworkMonitorError)
  {
    let monitor = try NetworkMonitor(networkNamespace: namespace)
    monitor.postsNotifications = notifications
    if stopping {
      try monitor.start()
      monitor.stop()
    } else {
      _ = monitor.addSynchronousSubscriber { _ in }
      if let error = monitor.lastError { throw error }
    }
    graveyard.add(monitor)
  }

  func churn(_ arguments: [String]) -> Never {
    var namespace: String?
    var count = 0
    var notifications = true
    var stopping = false
    var keepGoing = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--netns": namespace = rest.popFirst()
      case "--count": count = rest.popFirst().flatMap { Int($0) } ?? 0
      case "--no-notifications": notifications = false
      case "--stop": stopping = true
      case "--keep-going": keepGoing = true
      default: finish("unknown argument \(argument)", status: 2)
      }
    }
    guard let namespace, count > 0 else { finish("usage: churn --netns NAME --count N", status: 2) }
    // Monitors post from the first use of the notification's name on
    // (Sources/NetStatus/ConnectivityNotification.swift), as in an app that observes it: their blocks then wait on the
    // main queue, which never runs here.
    if notifications { _ = Notification.Name.connectivityStatus }
    // One monitor first, so that what the process opens once (Dispatch's main-queue descriptor) is in the baseline.
    let warmUp = Graveyard()
    do throws(NetworkMonitorError) {
      try startAndDrop(namespace: namespace, notifications: notifications, stopping: stopping, into: warmUp)
    } catch {
      finish("error: the warm-up monitor did not start: \(error)", status: 1)
    }
    let baselineThreads = sessionThreads()
    let baselineDescriptors = descriptors()
    let graveyard = Graveyard()
    for index in 1...count {
      do throws(NetworkMonitorError) {
        try startAndDrop(namespace: namespace, notifications: notifications, stopping: stopping, into: graveyard)
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
    // Locked through withLockedValue (Sources/NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift), not withLock:
    // ThreadSanitizer does not see a Mutex's futex, and reported the sink's append and this thread's read as a race.
    private let paths = Mutex<[NetworkPath]>([])
    /// The failures the source reported, said when a wait fails: a session that failed sends no path after.
    private let failures = Mutex<[String]>([])

    var sink: PathSink {
      PathSink { [self] event in
        switch event {
        case .path(let path): paths.withLockedValue { $0.append(path) }
        case .failure(let error): failures.withLockedValue { $0.append("\(error)") }
        }
      }
    }

    /// Waits (up to ``waitBound``) for a path sent after the first `after` that satisfies `condition`; fails the run
    /// otherwise, with `context()` (the sources' statistics, say) in the message.
    func await(
      _ what: String, after: Int = 0, context: () -> String = { "" }, _ condition: (NetworkPath) -> Bool
    ) {
      let deadline = ContinuousClock.now + waitBound
      while ContinuousClock.now < deadline {
        if paths.withLockedValue({ $0.dropFirst(after).contains(where: condition) }) { return }
        usleep(2_000)
      }
      let failed = failures.withLockedValue { $0 }
      finish(
        "error: no path with \(what) within \(waitBound): \(paths.withLockedValue { $0 })"
          + (failed.isEmpty ? "" : "; the source failed: \(failed)") + context(), status: 1)
    }

    var count: Int { paths.withLockedValue { $0.count } }
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

  /// Waits (up to ``waitBound``) until the event thread is blocked in one of `calls`, with no netstatus-relay thread
  /// (the hub has none); fails the run otherwise.
  func awaitThreads(_ step: String, rtnl calls: Set<Int>) {
    let deadline = ContinuousClock.now + waitBound
    var seen: ([Int], [Int]) = ([], [])
    while ContinuousClock.now < deadline {
      seen = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
      if seen.0.count == 1 && calls.contains(seen.0[0]) && seen.1.isEmpty { return }
      usleep(2_000)
    }
    finish(
      "error: \(step): netstatus-rtnl in \(seen.0), netstatus-relay in \(seen.1) (system call numbers; wanted "
        + "\(calls.sorted()) and no relay)", status: 1)
  }

  /// Waits (up to ``waitBound``) until no thread of the hub is left; fails the run otherwise.
  func awaitNoThreadLeft(_ step: String) {
    let deadline = ContinuousClock.now + waitBound
    var left = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
    while !(left.0.isEmpty && left.1.isEmpty) && ContinuousClock.now < deadline {
      usleep(2_000)
      left = (blockedCalls(ofThreadsNamed: "netstatus-rtnl"), blockedCalls(ofThreadsNamed: "netstatus-relay"))
    }
    if !left.0.isEmpty || !left.1.isEmpty {
      finish("error: \(step): \(left.0.count) netstatus-rtnl, \(left.1.count) netstatus-relay left", status: 1)
    }
  }

  /// The system call numbers of `epoll_wait` and its variants (asm/unistd.h; Glibc does not export SYS_*).
  func epollWaitCalls() -> Set<Int> {
    #if arch(x86_64)
      [232, 281, 441]  // epoll_wait, epoll_pwait, epoll_pwait2
    #elseif arch(arm64)
      [22, 441]  // epoll_pwait, epoll_pwait2
    #else
      finish("skipped: no system call numbers for this architecture", status: 0)
    #endif
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
    let epoll = epollWaitCalls()
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
      let session = try source.start(filter: .unrestricted, sink: first.sink)
      awaitThreads("one session", rtnl: epoll)
      ip(namespace, "addr add 192.0.2.10/24 dev veth0")
      ip(namespace, "route add default via 192.0.2.1 dev veth0")
      first.await("a default route") { $0.isConnected && !$0.supportsDNS }
      awaitThreads("one session, after a change", rtnl: epoll)
      write("nameserver 192.0.2.53\n")  // an inotify event
      first.await("a name server") { $0.isConnected && $0.supportsDNS }
      awaitThreads("one session, after a resolver change", rtnl: epoll)

      let second = PathLog()
      let other = try NetlinkPathSource(networkNamespace: namespace, resolverConfigurationPath: resolv)
      let otherSession = try other.start(filter: .unrestricted, sink: second.sink)
      awaitThreads("two sessions", rtnl: epoll)
      var (seenFirst, seenSecond) = (first.count, second.count)
      // What each source did, and where the event thread is, for a wait that fails.
      let context = {
        "; first source: \(source.statistics); second source: \(other.statistics); netstatus-rtnl in "
          + "\(blockedCalls(ofThreadsNamed: "netstatus-rtnl")); second's paths: \(second.count), seen \(seenSecond)"
      }
      ip(namespace, "route del default")
      first.await("no default route (two sessions)", after: seenFirst, context: context) { !$0.isConnected }
      second.await("no default route (second session)", after: seenSecond, context: context) { !$0.isConnected }

      otherSession.stop()
      awaitThreads("one session again", rtnl: epoll)
      (seenFirst, seenSecond) = (first.count, second.count)
      ip(namespace, "route add default via 192.0.2.1 dev veth0")
      first.await("the default route back", after: seenFirst) { $0.isConnected }
      write("search lan\n")
      first.await("no name server", after: seenFirst) { !$0.supportsDNS }
      if second.count != seenSecond { finish("error: a stopped session got a path", status: 1) }

      session.stop()  // from this thread, while the event thread waits in epoll_wait
      awaitNoThreadLeft("after the last stop")
    } catch {
      finish("error: \(error)", status: 1)
    }
    finish("ok", status: 0)
  }

  /// Runs `stop` on a thread of its own and waits up to ``waitBound`` for it to return; fails the run loudly otherwise.
  func stopWithinBound(_ what: String, _ stop: @escaping @Sendable () -> Void) {
    let returned = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      stop()
      returned.signal()
    }
    if returned.wait(timeout: .now() + .seconds(Int(waitBound.components.seconds))) == .timedOut {
      finish("error: \(what) did not return within \(waitBound) (it waits for an event that may never come)", status: 1)
    }
  }

  func setuidStop(_ arguments: [String]) -> Never {
    guard arguments.count == 2 || arguments.count == 3 && arguments[2] == "--stop-first", arguments[0] == "--resolv"
    else { finish("usage: setuid-stop --resolv FILE [--stop-first]", status: 2) }
    let (resolv, stopFirst) = (arguments[1], arguments.count == 3)
    guard getuid() == 0 else { finish("refused: must start as root", status: 2) }
    func write(_ text: String) {
      do {
        try text.write(toFile: resolv, atomically: true, encoding: .utf8)  // renamed over, as resolvers do
      } catch {
        finish("error: cannot write \(resolv): \(error)", status: 1)
      }
    }
    func awaitPath(_ what: String, _ monitor: NetworkMonitor, _ condition: (NetworkPath) -> Bool) {
      let deadline = ContinuousClock.now + waitBound
      while ContinuousClock.now < deadline {
        if let path = monitor.currentPath, condition(path) { return }
        usleep(2_000)
      }
      finish("error: \(what) within \(waitBound): \(String(describing: monitor.currentPath))", status: 1)
    }
    func started() throws(NetworkMonitorError) -> NetworkMonitor {
      let monitor = NetworkMonitor(source: try NetlinkPathSource(resolverConfigurationPath: resolv))
      monitor.postsNotifications = false
      try monitor.start()
      return monitor
    }
    write("search lan\n")
    do throws(NetworkMonitorError) {
      let first = try started()
      awaitPath("the first monitor has no connected path", first) { $0.isConnected && !$0.supportsDNS }
      // Settled: the event thread waits for the next event (where it waits is the sole-session run's business).
      let deadline = ContinuousClock.now + waitBound
      while blockedCalls(ofThreadsNamed: "netstatus-rtnl").first ?? -1 < 0 && ContinuousClock.now < deadline {
        usleep(2_000)
      }
      // What a daemon does once it has opened what needs root: every thread of the process drops to 65534 (glibc's
      // setuid sets all of them), and no capability is left.
      guard setgroups(0, nil) == 0, setgid(65534) == 0, setuid(65534) == 0 else {
        finish("error: cannot drop to 65534: errno \(errno)", status: 1)
      }
      guard geteuid() == 65534, setuid(0) != 0 else { finish("error: privileges were not dropped", status: 1) }

      if stopFirst {
        stopWithinBound("the first monitor's stop, right after setuid") { first.stopMonitoring() }
        let second = try started()
        awaitPath("the second monitor has no connected path", second) { $0.isConnected && !$0.supportsDNS }
        write("nameserver 192.0.2.53\n")
        awaitPath("the second monitor (started after setuid) did not see the name server", second) { $0.supportsDNS }
        stopWithinBound("the second monitor's stop, after setuid") { second.stopMonitoring() }
      } else {
        let second = try started()
        awaitPath("the second monitor has no connected path", second) { $0.isConnected && !$0.supportsDNS }
        write("nameserver 192.0.2.53\n")  // an inotify event: the event thread must be in epoll_wait to see it
        awaitPath("the first monitor did not see the name server", first) { $0.supportsDNS }
        awaitPath("the second monitor (started after setuid) did not see the name server", second) { $0.supportsDNS }
        stopWithinBound("the first monitor's stop, after setuid") { first.stopMonitoring() }
        write("search lan\n")
        awaitPath("the second monitor did not see the name server go", second) { !$0.supportsDNS }
        stopWithinBound("the last monitor's stop, after setuid") { second.stopMonitoring() }
      }
      awaitNoThreadLeft("after the last stop")
    } catch {
      finish("error: \(error)", status: 1)
    }
    finish("ok", status: 0)
  }

  /// The median of `durations`, in microseconds.
  func medianMicroseconds(_ durations: [Duration]) -> Int {
    let sorted = durations.sorted()
    return Int(sorted[sorted.count / 2] / .microseconds(1))
  }

  func stopTime(_ arguments: [String]) -> Never {
    guard arguments.count == 2, arguments[0] == "--resolv" else { finish("usage: stop-time --resolv FILE", status: 2) }
    let resolv = arguments[1]
    do {
      try "nameserver 192.0.2.53\n".write(toFile: resolv, atomically: true, encoding: .utf8)
    } catch {
      finish("error: cannot write \(resolv): \(error)", status: 1)
    }
    /// The inotify instances open in this process (descriptor numbers).
    func inotifyInstances() -> [Int32] {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return entries.compactMap { entry in
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)
        return target == "anon_inode:inotify" ? Int32(entry) : nil
      }
    }
    let clock = ContinuousClock()
    var stops: [Duration] = []
    var witness: Int32?  // a duplicate of the instance the first stop left open
    for index in 0..<15 {
      do throws(NetworkMonitorError) {
        let monitor = NetworkMonitor(source: try NetlinkPathSource(resolverConfigurationPath: resolv))
        monitor.postsNotifications = false
        try monitor.start()
        let began = clock.now
        monitor.stopMonitoring()
        stops.append(clock.now - began)
      } catch {
        finish("error: \(error)", status: 1)
      }
      let open = inotifyInstances().filter { $0 != witness }
      guard open.count == 1 else {
        finish("error: stop \(index + 1) left \(open.count) inotify instances open, not the hub's one", status: 1)
      }
      if let witness {
        guard cns_same_open_file(witness, open[0]) == 0 else {
          finish("error: stop \(index + 1) left another inotify instance than the first stop", status: 1)
        }
      } else {
        witness = dup(open[0])
      }
    }
    if let witness { close(witness) }
    awaitNoThreadLeft("after the stops")
    let folder = URL(fileURLWithPath: resolv).deletingLastPathComponent().path
    var closes: [Duration] = []
    for _ in 0..<15 {
      let instance = inotify_init1(Int32(IN_CLOEXEC))
      guard instance >= 0, inotify_add_watch(instance, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
        finish("error: inotify: errno \(errno)", status: 1)
      }
      let began = clock.now
      close(instance)
      closes.append(clock.now - began)
    }
    finish("stop=\(medianMicroseconds(stops)) close=\(medianMicroseconds(closes))", status: 0)
  }

  let arguments = Array(CommandLine.arguments.dropFirst())
  switch arguments.first {
  case "churn": churn(Array(arguments.dropFirst()))
  case "inotify-limit": inotifyLimit(Array(arguments.dropFirst()))
  case "sole-session": soleSession(Array(arguments.dropFirst()))
  case "setuid-stop": setuidStop(Array(arguments.dropFirst()))
  case "stop-time": stopTime(Array(arguments.dropFirst()))
  case "notifications": notificationDelivery(arguments.dropFirst())
  case "exhausted-failure": exhaustedFailure(Array(arguments.dropFirst()))
  default:
    finish(
      "usage: netstatus-test-child churn ... | inotify-limit ... | sole-session ... | setuid-stop ... | stop-time ..."
        + " | notifications ... | exhausted-failure ...",
      status: 2)
  }
#endif
