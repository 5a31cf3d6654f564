// netstatus-test-child exhausted-failure --netns NAME
//   Starts a monitor of namespace NAME, then opens /dev/null until the process is out of descriptors (EMFILE) and
//   prints `exhausted N`. The test then deletes NAME: the monitor fails, its session is stopped from another thread
//   (Sources/NetStatusPathSource/Support/DetachedWork.swift), and the child, still out of descriptors, stops the
//   monitor, closes what it opened and prints `ok`. Exit 0, or 1 with the step that failed; a crash (libdispatch's
//   SIGILL when its first work item cannot open its epoll descriptor) is the failure this finds.
#if os(Linux)
  import Dispatch
  import Glibc
  import NetStatus

  /// What the monitor's subscriber saw: whether the monitor failed.
  let exhaustedFailureSeen = DispatchSemaphore(value: 0)
  let exhaustedFirstPath = DispatchSemaphore(value: 0)

  /// Prints `line` at once: standard output is a pipe, which `print` buffers.
  func printNow(_ line: String) {
    print(line)
    fflush(nil)
  }

  func exhaustedFailure(_ arguments: [String]) {
    guard arguments.count == 2, arguments[0] == "--netns" else {
      finish("usage: netstatus-test-child exhausted-failure --netns NAME", status: 2)
    }
    let monitor: NetworkMonitor
    do {
      monitor = try NetworkMonitor(networkNamespace: arguments[1])
      monitor.postsNotifications = false
      try monitor.start()
    } catch {
      finish("error: start: \(error)", status: 1)
    }
    let subscriber = monitor.addSynchronousSubscriber { [weak monitor] _ in
      if monitor?.lastError != nil { exhaustedFailureSeen.signal() } else { exhaustedFirstPath.signal() }
    }
    guard exhaustedFirstPath.wait(timeout: .now() + .seconds(30)) == .success else {
      finish("error: no first path", status: 1)
    }
    var held: [Int32] = []
    while true {
      let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        guard errno == EMFILE else { finish("error: open: errno \(errno)", status: 1) }
        break
      }
      held.append(descriptor)
    }
    printNow("exhausted \(held.count)")
    // The test deletes the namespace once it has read the line above: the wait covers a test process that stalls
    // (a loaded sanitizer run stalls one for tens of seconds) before it does.
    guard exhaustedFailureSeen.wait(timeout: .now() + .seconds(240)) == .success else {
      finish("error: the monitor did not fail", status: 1)
    }
    // Returns once the failed session is stopped, on the thread the failure started.
    monitor.removeSynchronousSubscriber(subscriber)
    monitor.stopMonitoring()
    for descriptor in held { close(descriptor) }
    finish("ok", status: 0)
  }
#endif
