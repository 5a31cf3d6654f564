#if os(Linux)
  import Dispatch
  import NetStatusLinuxSource
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  /// Follows NetworkManager over D-Bus (sd-bus, ``SDBusConnection``) for its subscribers: its `Connectivity`, each
  /// device's `Metered` and connectivity, and the signal strength of each Wi-Fi device's access point, as a
  /// ``NetworkManagerStatus``.
  ///
  /// The first subscriber loads libsystemd and connects to the system bus (neither waits for the bus), and starts
  /// a thread of its own, `netstatus-dbus`, which subscribes to NetworkManager's signals (its name's owner
  /// changes, `PropertiesChanged` of the manager, its devices and access points, `DeviceAdded`, `DeviceRemoved`) and
  /// reads the properties, every call asynchronous (``NetworkManagerMirror`` decides what to read, and keeps at most
  /// ``NetworkManagerMirror/maxReadsInFlight`` in flight, below the bus's limit of calls awaiting a reply). The thread
  /// sleeps in poll(2) on the connection and an eventfd, with sd-bus's timeout only while a call is pending: an idle
  /// process makes no system call.
  ///
  /// Subscribers wait for the first status at most ``startupBudget`` after the first one came, however the bus or
  /// NetworkManager behaves and however many devices there are: past it the status says NetworkManager did not
  /// answer, and its answer, when it comes, is published as a change. The last subscriber to leave closes the
  /// connection and ends the thread, which is never blocked in a call. Nothing here is ever an error for a
  /// monitor: when libsystemd, the bus or NetworkManager is missing, or the connection is lost, the status says why
  /// (``NetworkManagerStatus``).
  ///
  /// Decide inside the lock, act outside it: subscribers are called on the watch's thread with no lock held.
  package final class NetworkManagerWatch: Sendable {
    /// The watch of the system bus, shared by every monitor of the process's own namespace.
    package static let system = NetworkManagerWatch(address: nil)

    static let service = "org.freedesktop.NetworkManager"

    /// Where the system bus listens unless `DBUS_SYSTEM_BUS_ADDRESS` says otherwise (the D-Bus specification's
    /// default, `unix:path=/run/dbus/system_bus_socket`).
    static let systemBusSocket = "/run/dbus/system_bus_socket"

    /// The signals followed.
    static let matchRules = [
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='org.freedesktop.NetworkManager'",
      "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged',"
        + "path='/org/freedesktop/NetworkManager'",
      "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged',"
        + "path_namespace='/org/freedesktop/NetworkManager/Devices'",
      // The access points in use: NetworkManager signals a change of their `Strength` as it reads a new signal.
      "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged',"
        + "path_namespace='/org/freedesktop/NetworkManager/AccessPoint'",
      "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.NetworkManager',"
        + "member='DeviceAdded'",
      "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.NetworkManager',"
        + "member='DeviceRemoved'",
    ]

    /// The default ``startupBudget``: short enough that a stop signal that comes while a monitor starts is
    /// handled within a second (`netstatus` handles it once the start returns).
    static let defaultStartupBudget = Duration.milliseconds(750)

    /// The bus: `nil` for the system bus.
    let address: String?
    /// How long one property read may wait for its answer once the connection runs: 25 s by default, sd-bus's own
    /// default for a call. Nobody waits for it (start-up waits ``startupBudget`` at most, and a stop never waits
    /// for a read), so it only decides how late an answer may come and still be applied as a change; a read
    /// that times out counts as failed.
    let callTimeout: Duration
    /// How long subscribers wait for the first status, from the first subscriber's arrival: the bus's
    /// authentication, the match rules and every first read included.
    let startupBudget: Duration

    private struct State: ~Copyable {
      var subscribers: [UInt64: @Sendable (NetworkManagerStatus) -> Void] = [:]
      var nextID: UInt64 = 1
      var status = NetworkManagerStatus.stopped
      var runner: Runner?
      /// Until the first status is known: when subscribers stop waiting for it.
      var deadline: ContinuousClock.Instant?
      /// Subscribers waiting for the first status.
      var waiters: [UInt64: DispatchSemaphore] = [:]
      /// What the first status waits for, for the message when the budget runs out.
      var unanswered = "connecting to the system bus"
      var busAnswered = false
    }

    private let state = Mutex(State())

    init(address: String?, callTimeout: Duration = .seconds(25), startupBudget: Duration = defaultStartupBudget) {
      self.address = address
      self.callTimeout = callTimeout
      self.startupBudget = startupBudget
    }

    /// The current status.
    var status: NetworkManagerStatus { state.withLockedValue { $0.status } }

    /// Adds a subscriber, called with each new status (not with the current one, which this returns). The first
    /// subscriber connects; every subscriber waits for the first status, at most until ``startupBudget`` after
    /// the first one came.
    package func subscribe(_ handler: @escaping @Sendable (NetworkManagerStatus) -> Void) -> (
      UInt64, NetworkManagerStatus
    ) {
      let clock = ContinuousClock()
      let semaphore = DispatchSemaphore(value: 0)
      let (id, first) = state.withLockedValue { state -> (UInt64, Bool) in
        let id = state.nextID
        state.nextID += 1
        state.subscribers[id] = handler
        let first = state.subscribers.count == 1 && state.runner == nil && state.deadline == nil
        if first {
          state.deadline = clock.now + startupBudget
          state.status = .unavailable("connecting to the system bus")
          state.unanswered = "connecting to the system bus"
          state.busAnswered = false
        }
        if state.deadline != nil { state.waiters[id] = semaphore }
        return (id, first)
      }
      if first {
        switch connect() {
        case .failure(let failure):
          decide(failure.status, runner: nil)
        case .success(let runner):
          let kept = state.withLockedValue { state -> Bool in
            // Unsubscribed meanwhile: the connection is not kept.
            guard !state.subscribers.isEmpty, state.runner == nil else { return false }
            state.runner = runner
            return true
          }
          if kept { runner.start(self) } else { runner.stop() }
        }
      }
      while true {
        let now = clock.now
        let (decided, deadline, woken) = state.withLockedValue {
          state -> (NetworkManagerStatus?, ContinuousClock.Instant?, [DispatchSemaphore]) in
          guard let deadline = state.deadline else {
            state.waiters[id] = nil
            return (state.status, nil, [])
          }
          guard now < deadline else {
            // The budget ran out: published without NetworkManager's view; its answer comes as a change.
            state.waiters[id] = nil
            let status = NetworkManagerStatus.noAnswer(
              within: startupBudget, busAnswered: state.busAnswered, waitingFor: state.unanswered)
            return (status, nil, Self.decide(status, in: &state))
          }
          return (nil, deadline, [])
        }
        for waiter in woken { waiter.signal() }
        if let decided { return (id, decided) }
        guard let deadline else { continue }
        let remaining = now.duration(to: deadline)
        let nanoseconds =
          remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(max(nanoseconds, 1))))
      }
    }

    /// Removes a subscriber; the last one closes the connection (and ends the thread, or lets it end by itself when
    /// called on it).
    package func unsubscribe(_ id: UInt64) {
      let runner = state.withLockedValue { state -> Runner? in
        state.waiters[id] = nil
        guard state.subscribers.removeValue(forKey: id) != nil, state.subscribers.isEmpty else { return nil }
        state.status = .stopped
        state.deadline = nil
        return state.runner.take()
      }
      runner?.stop()
    }

    /// Connects: the runner to start, or the status that says why NetworkManager cannot be followed.
    private func connect() -> Result<Runner, StatusFailure> {
      // No system bus at all (a container, a minimal system): said without loading libsystemd, which costs about
      // 1.5 MB of memory with the libraries it brings.
      if address == nil, getenv("DBUS_SYSTEM_BUS_ADDRESS") == nil, access(Self.systemBusSocket, F_OK) != 0 {
        return .failure(StatusFailure(.unavailable("no system bus (\(Self.systemBusSocket) does not exist)")))
      }
      if let reason = SDBusConnection.loadLibrary() {
        return .failure(StatusFailure(.unavailable("libsystemd (sd-bus) cannot be loaded: \(reason)")))
      }
      do throws(SDBusConnection.Failure) {
        let connection = try SDBusConnection(address: address)
        do throws(NetworkMonitorError) {
          return .success(try Runner(connection: connection, callTimeout: callTimeout))
        } catch {
          return .failure(StatusFailure(.unavailable("\(error)")))
        }
      } catch {
        return .failure(StatusFailure(.unavailable(error.description)))
      }
    }

    /// A status that is not a runner, as an error for `Result`.
    private struct StatusFailure: Error {
      let status: NetworkManagerStatus
      init(_ status: NetworkManagerStatus) { self.status = status }
    }

    /// The first status is known: the waiting subscribers take it.
    private func decide(_ status: NetworkManagerStatus, runner: Runner?) {
      let woken = state.withLockedValue { state -> [DispatchSemaphore] in
        guard state.deadline != nil, runner == nil || state.runner === runner else { return [] }
        return Self.decide(status, in: &state)
      }
      for waiter in woken { waiter.signal() }
    }

    /// Ends the subscribers' wait for the first status now (the program stops, or its own deadline came first): they
    /// go on without NetworkManager's view, and its answer, if it comes before they stop, is published as a change.
    ///
    /// - Parameter reason: Why, as the status says it after "not waited for: ".
    func abandonStartUp(because reason: String = "the program is stopping") {
      let woken = state.withLockedValue { state -> [DispatchSemaphore] in
        guard state.deadline != nil else { return [] }
        return Self.decide(.unavailable("not waited for: " + reason), in: &state)
      }
      for waiter in woken { waiter.signal() }
    }

    /// Sets the first status and returns the waiters to wake (outside the lock).
    private static func decide(_ status: NetworkManagerStatus, in state: inout State) -> [DispatchSemaphore] {
      state.status = status
      state.deadline = nil
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }

    /// Called by the runner with each status it has: the first status while subscribers wait for it, else a
    /// change for the subscribers.
    fileprivate func publish(_ status: NetworkManagerStatus, from runner: Runner) {
      let (handlers, woken) = state.withLockedValue {
        state -> ([@Sendable (NetworkManagerStatus) -> Void], [DispatchSemaphore]) in
        guard state.runner === runner else { return ([], []) }
        // The first status: the subscribers waiting for it take it from their subscribe.
        if state.deadline != nil { return ([], Self.decide(status, in: &state)) }
        guard state.status != status else { return ([], []) }
        state.status = status
        return (Array(state.subscribers.values), [])
      }
      for waiter in woken { waiter.signal() }
      for handler in handlers { handler(status) }
    }

    /// Called by the runner while the first status is not known: what it waits for.
    fileprivate func note(_ unanswered: String, busAnswered: Bool, from runner: Runner) {
      state.withLockedValue { state in
        guard state.runner === runner, state.deadline != nil else { return }
        state.unanswered = unanswered
        state.busAnswered = state.busAnswered || busAnswered
      }
    }

    // MARK: The connection lost

    /// The errno values that mean the connection is gone.
    static let lostCodes: Set<Int32> = [ECONNRESET, ENOTCONN, EPIPE, ESHUTDOWN, EBADF]

    private static let lostPrefix = "the system bus connection was lost"

    static func isLost(_ status: NetworkManagerStatus) -> Bool {
      if case .unavailable(let reason) = status { return reason.hasPrefix(lostPrefix) }
      return false
    }

    static func lost(_ code: Int32) -> NetworkManagerStatus {
      .unavailable("\(lostPrefix) (\(Errno.describe(code))); it is retried when a monitor starts again")
    }

    // MARK: The thread

    /// The thread that serves one connection, from the first subscriber to the last.
    fileprivate final class Runner: Sendable {
      let connection: SDBusConnection
      let callTimeout: Duration
      /// Wakes the thread from poll(2). Closed with the runner, once neither the thread nor a stopper can reach it.
      let wake: EventFD
      let stopped = Atomic<Bool>(false)
      let thread = Mutex<pthread_t?>(nil)

      init(connection: SDBusConnection, callTimeout: Duration) throws(NetworkMonitorError) {
        self.connection = connection
        self.callTimeout = callTimeout
        wake = try EventFD.opened()
      }

      func start(_ watch: NetworkManagerWatch) {
        do throws(NetworkMonitorError) {
          let thread = try NetworkMonitorError.converting { () throws(SystemCallError) in
            try POSIXThread.start(name: "netstatus-dbus") { [self] in run(watch) }
          }
          self.thread.withLockedValue { $0 = thread }
        } catch {
          watch.publish(.unavailable("\(error)"), from: self)
        }
      }

      /// Ends the thread: joins it (it is never blocked in a call: it waits in poll(2), which the eventfd ends),
      /// or, on the thread itself (a subscriber that stopped its monitor), lets it end once the subscriber returns.
      func stop() {
        stopped.store(true, ordering: .releasing)
        try? wake.signal()
        guard let thread = thread.withLockedValue({ $0.take() }) else { return }
        if pthread_equal(pthread_self(), thread) != 0 {
          pthread_detach(thread)
        } else {
          pthread_join(thread, nil)
        }
      }

      /// Sends `reads`; one that cannot be sent is answered with its failure at once.
      private func send(_ reads: [NetworkManagerMirror.Read], into mirror: inout NetworkManagerMirror) {
        var queue = reads
        while !queue.isEmpty {
          let read = queue.removeFirst()
          do throws(SDBusConnection.Failure) {
            try connection.get(
              NetworkManagerWatch.service, read.path, read.property.interfaceName, read.property.rawValue,
              token: read.token, timeout: callTimeout)
          } catch {
            let failure = NetworkManagerMirror.ReadFailure(
              errorName: "", code: error.code, description: error.description)
            queue += mirror.answered(read.token, .failure(failure))
          }
        }
      }

      private func run(_ watch: NetworkManagerWatch) {
        var mirror = NetworkManagerMirror()
        for rule in NetworkManagerWatch.matchRules {
          do throws(SDBusConnection.Failure) {
            try connection.addMatch(rule)
          } catch {
            watch.publish(.unavailable(error.description), from: self)
            return
          }
        }
        send(mirror.start(), into: &mirror)
        while !stopped.load(ordering: .acquiring) {
          let events: [SDBusConnection.Event]
          do throws(SDBusConnection.Failure) {
            events = try connection.processAll()
          } catch {
            watch.publish(NetworkManagerWatch.lost(error.code), from: self)
            return
          }
          if !events.isEmpty {
            var busAnswered = false
            for event in events {
              let reads: [NetworkManagerMirror.Read]
              switch event {
              case .answer(let token, let result):
                if case .failure(let failure) = result, failure.errorName.isEmpty,
                  NetworkManagerWatch.lostCodes.contains(failure.code)
                {
                  watch.publish(NetworkManagerWatch.lost(failure.code), from: self)
                  return
                }
                busAnswered = true
                reads = mirror.answered(token, result)
              case .matchInstalled(let failure):
                if let failure {
                  // Refused (a bus policy): its signals would never come, so the view could not follow.
                  let name = failure.errorName.isEmpty ? "" : " (\(failure.errorName))"
                  watch.publish(.unavailable(failure.description + name), from: self)
                  return
                }
                busAnswered = true
                reads = []
              case .changed(let path, let interface, let property, let value):
                reads = mirror.changed(path: path, interface: interface, property: property, value: value)
              case .invalidated(let path, let interface, let property):
                reads = mirror.invalidated(path: path, interface: interface, property: property)
              case .deviceAdded(let path): reads = mirror.deviceAdded(path)
              case .deviceRemoved(let path): reads = mirror.deviceRemoved(path)
              case .ownerChanged(let owner): reads = mirror.ownerChanged(owner)
              }
              send(reads, into: &mirror)
            }
            if let status = mirror.status {
              watch.publish(status, from: self)
            } else {
              watch.note(mirror.unanswered ?? "reading NetworkManager", busAnswered: busAnswered, from: self)
            }
            continue  // sending may have queued messages: process again before sleeping
          }
          var descriptors = [
            pollfd(fd: connection.fd, events: connection.events, revents: 0),
            pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0),
          ]
          let ready = poll(&descriptors, 2, connection.timeoutMilliseconds)
          if ready < 0, errno != EINTR {
            watch.publish(.unavailable("poll failed: \(Errno.describe(errno))"), from: self)
            return
          }
        }
      }
    }
  }
#endif
