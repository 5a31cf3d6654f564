// netstatus-test-child notifications --main dispatchMain|runloop|async --queue main|nil|own [--stuck-observer]
//
// A program as an app writes it: a monitor (a scripted source: five paths) with a `pathUpdateHandler` on the main
// queue, started with `try monitor.start()`, and one `.connectivityStatus` observer on the queue named, while the
// main thread runs the main queue the way named (`dispatchMain()`; `RunLoop.main.run()`; an `async` main, which on
// Linux is a main-actor task and `dispatchMain()`). A driver thread sends each next path once the observer has
// seen the one before. Checks that the observer and the handler each saw every path, in order, and that the main
// queue still runs a block after the last one. Prints `ok notified=N handled=N`. Exit 0, or 1 with what was missing
// after 30 s (waitBound).
//
// --stuck-observer: a second observer, on a queue of its own, blocks on the first notification until every path
// has reached an async-sequence subscriber: a delivery that is stuck must hold neither the source's thread nor
// the other ways of observing. (It holds the main queue, as NotificationCenter's post waits for an observer's
// queue on every platform.)
#if os(Linux)
  import Foundation
  import NetStatus
  import NetStatusTesting
  import Synchronization

  /// What the observers and the handler saw.
  private final class Deliveries: Sendable {
    // Locked, not a bare Mutex: ThreadSanitizer cannot see Synchronization's futex (CONTRIBUTING.md, "Locks").
    private let state = Locked<(notified: [NetworkPath], handled: [NetworkPath], streamed: [NetworkPath])>(
      ([], [], []))

    func notified(_ path: NetworkPath) { state.withLockedValue { $0.notified.append(path) } }
    func handled(_ path: NetworkPath) { state.withLockedValue { $0.handled.append(path) } }
    func streamed(_ path: NetworkPath) { state.withLockedValue { $0.streamed.append(path) } }
    var snapshot: (notified: [NetworkPath], handled: [NetworkPath], streamed: [NetworkPath]) {
      state.withLockedValue { $0 }
    }
  }

  /// Polls `condition` every millisecond on the calling (driver) thread until it holds or `waitBound` passes.
  private func waitUntil(_ what: String, _ condition: () -> Bool, or failure: () -> String) {
    let deadline = ContinuousClock.now + waitBound
    while !condition() {
      guard ContinuousClock.now < deadline else { finish("error: \(what): \(failure())", status: 1) }
      usleep(1000)
    }
  }

  /// What a run keeps until it exits. The run ends in `exit` from the driver thread while the main thread sits in
  /// `dispatchMain()`, which ends that thread: held only by its stack, these would be reported as leaks by
  /// LeakSanitizer (CI's AddressSanitizer pass), whose report at exit comes before standard output is flushed.
  private let keptForTheRun = Locked<[any AnyObject & Sendable]>([])

  /// `arguments`: a slice of the process's (a global's), so that no array of the main thread's own stays behind
  /// when `dispatchMain()` ends that thread (LeakSanitizer would report it).
  func notificationDelivery(_ arguments: ArraySlice<String>) {
    var rest = arguments
    var runner = ""
    var queueName = ""
    var stuckObserver = false
    while let argument = rest.popFirst() {
      switch argument {
      case "--main": runner = rest.popFirst() ?? ""
      case "--queue": queueName = rest.popFirst() ?? ""
      case "--stuck-observer": stuckObserver = true
      default: finish("usage: netstatus-test-child notifications --main RUNNER --queue QUEUE", status: 2)
      }
    }
    let withStuckObserver = stuckObserver
    let queue: OperationQueue?
    switch queueName {
    case "main": queue = .main
    case "nil": queue = nil
    case "own": queue = OperationQueue()
    default: finish("error: --queue main|nil|own, not '\(queueName)'", status: 2)
    }
    let paths: [NetworkPath] = [
      .connected(via: .wiredEthernet), .offline, .connected(via: .wifi), .connected(via: .cellular), .offline,
    ]
    let script = ScriptedPathSource(paths)
    let monitor = NetworkMonitor(source: script)
    let deliveries = Deliveries()
    // Set before anything can start the monitor: the stuck observer's async-sequence subscriber below starts it as
    // soon as its task runs, and a path published before the handler is set is not the handler's (it once missed the
    // first path that way, under AddressSanitizer).
    monitor.pathUpdateHandler = { path in
      dispatchPrecondition(condition: .onQueue(.main))
      deliveries.handled(path)
    }
    let name = Notification.Name.connectivityStatus
    _ = NotificationCenter.default.addObserver(forName: name, object: monitor, queue: queue) { note in
      if let path = note.userInfo?[NetworkMonitor.pathUserInfoKey] as? NetworkPath { deliveries.notified(path) }
    }
    let released = DispatchSemaphore(value: 0)
    if withStuckObserver {
      let stuck = OperationQueue()
      let blocked = Locked(false)
      _ = NotificationCenter.default.addObserver(forName: name, object: monitor, queue: stuck) { _ in
        guard
          blocked.withLockedValue({ held in
            defer { held = true }
            return !held
          })
        else { return }
        released.wait()
      }
      Task.detached {
        for await path in monitor.paths {
          deliveries.streamed(path)
          if deliveries.snapshot.streamed.count == paths.count { break }
        }
        released.signal()
      }
    }
    keptForTheRun.withLockedValue { $0 += [script, monitor, deliveries] }

    // A block on a queue of its own, not a Thread: its context stays reachable to LeakSanitizer while it runs.
    let driver: @Sendable () -> Void = {
      // Each next path once the one before was seen: by the observer, or with a stuck observer (which may hold the
      // other observer's notifications) by the async sequence.
      for count in 1..<paths.count {
        waitUntil(
          "path \(count) seen",
          {
            let seen = deliveries.snapshot
            return (withStuckObserver ? seen.streamed.count : seen.notified.count) >= count
          },
          or: { "\(deliveries.snapshot)" })
        script.advance()
      }
      waitUntil(
        "every path",
        {
          let seen = deliveries.snapshot
          return seen.notified.count == paths.count && seen.handled.count == paths.count
        },
        or: { "\(deliveries.snapshot)" })
      let seen = deliveries.snapshot
      guard seen.notified == paths, seen.handled == paths else {
        finish("error: out of order: \(seen)", status: 1)
      }
      let ran = Atomic(false)
      DispatchQueue.main.async { ran.store(true, ordering: .sequentiallyConsistent) }
      waitUntil("the main queue after the last path", { ran.load(ordering: .sequentiallyConsistent) }, or: { "" })
      finish("ok notified=\(seen.notified.count) handled=\(seen.handled.count)", status: 0)
    }

    keptForTheRun.withLockedValue { $0 += [released] + (queue.map { [$0] } ?? []) }
    switch runner {
    case "dispatchMain":
      startOrFail(monitor)
      DispatchQueue(label: "netstatus-test-child.driver").async(execute: driver)
      dispatchMain()
    case "runloop":
      startOrFail(monitor)
      DispatchQueue(label: "netstatus-test-child.driver").async(execute: driver)
      RunLoop.main.run()
      finish("error: the main run loop returned", status: 1)
    case "async":
      // What an `async` main is on Linux: a task on the main actor, and the main queue drained by dispatchMain.
      Task { @MainActor in
        startOrFail(monitor)
        DispatchQueue(label: "netstatus-test-child.driver").async(execute: driver)
      }
      dispatchMain()
    default:
      finish("error: --main dispatchMain|runloop|async, not '\(runner)'", status: 2)
    }
  }

  private func startOrFail(_ monitor: NetworkMonitor) {
    do { try monitor.start() } catch { finish("error: start: \(error)", status: 1) }
  }
#endif
