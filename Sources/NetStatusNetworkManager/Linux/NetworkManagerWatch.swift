#if os(Linux)
  import Dispatch
  import NetStatusLinuxSource
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  /// Follows NetworkManager over D-Bus (sd-bus, ``SDBusConnection``) for its subscribers: its `Connectivity`, each
  /// device's `Metered` and connectivity, and the signal strength of each Wi-Fi device's access point, as a
  /// ``NetworkManagerStatus``; and, on the same connection and thread, ModemManager's modems and their signal
  /// (``ModemManagerMirror``, as a ``ModemManagerStatus``) and iwd's stations and their signal level
  /// (``IwdMirror``, as an ``IwdStatus``).
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

    /// Where each subscriber's handlers go.
    private struct Handlers {
      var networkManager: @Sendable (NetworkManagerStatus) -> Void
      var modemManager: (@Sendable (ModemManagerStatus) -> Void)?
      var iwd: (@Sendable (IwdStatus) -> Void)?
    }

    /// Where the system bus listens unless `DBUS_SYSTEM_BUS_ADDRESS` says otherwise (the D-Bus specification's
    /// default, `unix:path=/run/dbus/system_bus_socket`).
    static let systemBusSocket = "/run/dbus/system_bus_socket"

    /// The signals followed.
    static let matchRules =
      [
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
      ] + modemManagerMatchRules + iwdMatchRules

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
      var subscribers: [UInt64: Handlers] = [:]
      var nextID: UInt64 = 1
      var status = NetworkManagerStatus.stopped
      var modemManager = ModemManagerStatus.stopped
      var iwd = IwdStatus.stopped
      /// While subscribers wait for the first status: what the runner knows already of each service.
      var firstNetworkManager: NetworkManagerStatus?
      var firstModemManager: ModemManagerStatus?
      var firstIwd: IwdStatus?
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

    /// ModemManager's current status.
    var modemManagerStatus: ModemManagerStatus { state.withLockedValue { $0.modemManager } }

    /// iwd's current status.
    var iwdStatus: IwdStatus { state.withLockedValue { $0.iwd } }

    /// Adds a subscriber, called with each new status (not with the current one, which this returns), and with each
    /// new status of ModemManager and iwd if `modemManager` and `iwd` are given (the current ones are
    /// ``modemManagerStatus`` and ``iwdStatus``). The first subscriber connects; every subscriber waits for the
    /// first status of all three, at most until ``startupBudget`` after the first one came.
    package func subscribe(
      _ handler: @escaping @Sendable (NetworkManagerStatus) -> Void,
      modemManager: (@Sendable (ModemManagerStatus) -> Void)? = nil, iwd: (@Sendable (IwdStatus) -> Void)? = nil
    ) -> (UInt64, NetworkManagerStatus) {
      let clock = ContinuousClock()
      let semaphore = DispatchSemaphore(value: 0)
      let (id, first) = state.withLockedValue { state -> (UInt64, Bool) in
        let id = state.nextID
        state.nextID += 1
        state.subscribers[id] = Handlers(networkManager: handler, modemManager: modemManager, iwd: iwd)
        let first = state.subscribers.count == 1 && state.runner == nil && state.deadline == nil
        if first {
          state.deadline = clock.now + startupBudget
          state.status = .unavailable("connecting to the system bus")
          state.modemManager = .unavailable("connecting to the system bus")
          state.iwd = .unavailable("connecting to the system bus")
          state.firstNetworkManager = nil
          state.firstModemManager = nil
          state.firstIwd = nil
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
            // The budget ran out: published with what answered; the other answers come as changes.
            state.waiters[id] = nil
            let status =
              state.firstNetworkManager
              ?? NetworkManagerStatus.noAnswer(
                within: startupBudget, busAnswered: state.busAnswered, waitingFor: state.unanswered)
            let modems =
              state.firstModemManager
              ?? ModemManagerStatus.noAnswer(within: startupBudget, busAnswered: state.busAnswered)
            let iwd = state.firstIwd ?? IwdStatus.noAnswer(within: startupBudget, busAnswered: state.busAnswered)
            return (status, nil, Self.decide(status, modems, iwd, in: &state))
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
        state.modemManager = .stopped
        state.iwd = .stopped
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
        return Self.decide(
          status, ModemManagerStatus.sharing(status) ?? .stopped, IwdStatus.sharing(status) ?? .stopped, in: &state)
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
        let reason = "not waited for: " + reason
        return Self.decide(
          state.firstNetworkManager ?? .unavailable(reason), state.firstModemManager ?? .unavailable(reason),
          state.firstIwd ?? .unavailable(reason), in: &state)
      }
      for waiter in woken { waiter.signal() }
    }

    /// Sets the first status of the three services and returns the waiters to wake (outside the lock).
    private static func decide(
      _ status: NetworkManagerStatus, _ modems: ModemManagerStatus, _ iwd: IwdStatus, in state: inout State
    ) -> [DispatchSemaphore] {
      state.status = status
      state.modemManager = modems
      state.iwd = iwd
      state.firstNetworkManager = nil
      state.firstModemManager = nil
      state.firstIwd = nil
      state.deadline = nil
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }

    /// Called by the runner when the connection fails: every service is unavailable for that reason.
    func publish(_ status: NetworkManagerStatus, from runner: Runner) {
      publish(status, ModemManagerStatus.sharing(status), IwdStatus.sharing(status), from: runner)
    }

    /// Called by the runner with each status it has (`nil`: not known yet): the first status of all three while
    /// subscribers wait for it, else a change for the subscribers.
    func publish(
      _ status: NetworkManagerStatus?, _ modems: ModemManagerStatus?, _ iwd: IwdStatus?, from runner: Runner
    ) {
      typealias Calls = (
        [@Sendable (NetworkManagerStatus) -> Void], [@Sendable (ModemManagerStatus) -> Void],
        [@Sendable (IwdStatus) -> Void]
      )
      let (calls, woken) = state.withLockedValue { state -> (Calls, [DispatchSemaphore]) in
        guard state.runner === runner else { return (([], [], []), []) }
        // The first status: the subscribers waiting for it take it from their subscribe, once all are known.
        if state.deadline != nil {
          if let status { state.firstNetworkManager = status }
          if let modems { state.firstModemManager = modems }
          if let iwd { state.firstIwd = iwd }
          guard let known = state.firstNetworkManager, let knownModems = state.firstModemManager,
            let knownIwd = state.firstIwd
          else { return (([], [], []), []) }
          return (([], [], []), Self.decide(known, knownModems, knownIwd, in: &state))
        }
        var calls: Calls = ([], [], [])
        if let status, state.status != status {
          state.status = status
          calls.0 = state.subscribers.values.map(\.networkManager)
        }
        if let modems, state.modemManager != modems {
          state.modemManager = modems
          calls.1 = state.subscribers.values.compactMap(\.modemManager)
        }
        if let iwd, state.iwd != iwd {
          state.iwd = iwd
          calls.2 = state.subscribers.values.compactMap(\.iwd)
        }
        return (calls, [])
      }
      for waiter in woken { waiter.signal() }
      if let status { for handler in calls.0 { handler(status) } }
      if let modems { for handler in calls.1 { handler(modems) } }
      if let iwd { for handler in calls.2 { handler(iwd) } }
    }

    /// Called by the runner while the first status is not known: what it waits for.
    func note(_ unanswered: String, busAnswered: Bool, from runner: Runner) {
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
  }
#endif
