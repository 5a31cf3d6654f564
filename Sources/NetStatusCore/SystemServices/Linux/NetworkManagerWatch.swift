#if os(Linux)
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  /// Follows NetworkManager over D-Bus (sd-bus, ``SDBusConnection``) for its subscribers: its `Connectivity` and
  /// each device's `Metered`, as a ``NetworkManagerStatus``.
  ///
  /// The first subscriber connects, on its own thread: it loads libsystemd, connects to the system bus, subscribes
  /// to NetworkManager's signals (its name's owner changes, `PropertiesChanged` of the manager and its devices,
  /// `DeviceAdded`, `DeviceRemoved`) and reads the properties, so that its first path already carries NetworkManager's
  /// view. A thread of its own, `netstatus-dbus`, then sleeps in poll(2) on the connection and an eventfd (no
  /// timeout unless sd-bus has a call pending): an idle process makes no system call. After each batch of signals it
  /// reads the properties again and tells the subscribers if the status changed. The last subscriber to leave
  /// closes the connection and ends the thread. Nothing here is ever an error for a monitor: when libsystemd, the
  /// bus or NetworkManager is missing, or the connection is lost, the status says why (``NetworkManagerStatus``).
  ///
  /// Decide inside the lock, act outside it: subscribers are called on the watch's thread (or the first
  /// subscriber's) with no lock held.
  final class NetworkManagerWatch: Sendable {
    /// The watch of the system bus, shared by every monitor of the process's own namespace.
    static let system = NetworkManagerWatch(address: nil)

    static let service = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    static let managerInterface = "org.freedesktop.NetworkManager"
    static let deviceInterface = "org.freedesktop.NetworkManager.Device"

    /// Where the system bus listens unless `DBUS_SYSTEM_BUS_ADDRESS` says otherwise (the D-Bus specification's
    /// default, `unix:path=/run/dbus/system_bus_socket`).
    static let systemBusSocket = "/run/dbus/system_bus_socket"

    /// The signals after which the properties are read again.
    static let matchRules = [
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='org.freedesktop.NetworkManager'",
      "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged',"
        + "path='/org/freedesktop/NetworkManager'",
      "type='signal',sender='org.freedesktop.NetworkManager',member='PropertiesChanged',"
        + "path_namespace='/org/freedesktop/NetworkManager/Devices'",
      "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.NetworkManager',"
        + "member='DeviceAdded'",
      "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.NetworkManager',"
        + "member='DeviceRemoved'",
    ]

    /// The bus: `nil` for the system bus.
    let address: String?
    /// How long one property read may take.
    let callTimeout: Duration

    private struct State: ~Copyable {
      var subscribers: [UInt64: @Sendable (NetworkManagerStatus) -> Void] = [:]
      var nextID: UInt64 = 1
      var status = NetworkManagerStatus.stopped
      var runner: Runner?
    }

    private let state = Mutex(State())

    init(address: String?, callTimeout: Duration = .seconds(2)) {
      self.address = address
      self.callTimeout = callTimeout
    }

    /// The current status.
    var status: NetworkManagerStatus { state.withLock { $0.status } }

    /// Adds a subscriber, called with each new status (not with the current one, which this returns). The first
    /// subscriber connects, on the calling thread.
    func subscribe(_ handler: @escaping @Sendable (NetworkManagerStatus) -> Void) -> (UInt64, NetworkManagerStatus) {
      let (id, first) = state.withLock { state -> (UInt64, Bool) in
        let id = state.nextID
        state.nextID += 1
        state.subscribers[id] = handler
        return (id, state.subscribers.count == 1)
      }
      guard first else { return (id, status) }
      let (status, runner) = connect()
      let (stale, others) = state.withLock { state -> (Runner?, [@Sendable (NetworkManagerStatus) -> Void]) in
        // Unsubscribed meanwhile: the connection is not kept.
        guard state.subscribers[id] != nil, state.runner == nil else { return (runner, []) }
        state.status = status
        state.runner = runner
        // Subscribers that came while this one connected were told `stopped`.
        return (nil, state.subscribers.filter { $0.key != id }.map(\.value))
      }
      if let stale {
        stale.stop()
      } else {
        runner?.start(self)
        for handler in others { handler(status) }
      }
      return (id, status)
    }

    /// Removes a subscriber; the last one closes the connection (and ends the thread, or lets it end by itself when
    /// called on it).
    func unsubscribe(_ id: UInt64) {
      let runner = state.withLock { state -> Runner? in
        guard state.subscribers.removeValue(forKey: id) != nil, state.subscribers.isEmpty else { return nil }
        state.status = .stopped
        return state.runner.take()
      }
      runner?.stop()
    }

    /// Connects and reads: the first status, and the runner to start when NetworkManager can be followed.
    private func connect() -> (NetworkManagerStatus, Runner?) {
      // No system bus at all (a container, a minimal system): said without loading libsystemd, which costs about
      // 1.5 MB of memory with the libraries it brings.
      if address == nil, getenv("DBUS_SYSTEM_BUS_ADDRESS") == nil, access(Self.systemBusSocket, F_OK) != 0 {
        return (.unavailable("no system bus (\(Self.systemBusSocket) does not exist)"), nil)
      }
      if let reason = SDBusConnection.loadLibrary() {
        return (.unavailable("libsystemd (sd-bus) cannot be loaded: \(reason)"), nil)
      }
      let connection: SDBusConnection
      do throws(SDBusConnection.Failure) {
        connection = try SDBusConnection(address: address, callTimeout: callTimeout)
        for rule in Self.matchRules { try connection.addMatch(rule) }
      } catch {
        return (.unavailable(error.description), nil)
      }
      let runner: Runner
      do throws(NetworkMonitorError) {
        runner = try Runner(connection: connection)
      } catch {
        return (.unavailable("\(error)"), nil)
      }
      let status = Self.read(connection)
      if case .unavailable = status, Self.isLost(status) { return (status, nil) }
      return (status, runner)
    }

    /// Called by the runner with each status it read.
    fileprivate func publish(_ status: NetworkManagerStatus, from runner: Runner) {
      let handlers = state.withLock { state -> [@Sendable (NetworkManagerStatus) -> Void] in
        guard state.runner === runner, state.status != status else { return [] }
        state.status = status
        return Array(state.subscribers.values)
      }
      for handler in handlers { handler(status) }
    }

    // MARK: Reading

    /// The errno values that mean the connection is gone.
    private static let lostCodes: Set<Int32> = [ECONNRESET, ENOTCONN, EPIPE, ESHUTDOWN, EBADF]

    private static let lostPrefix = "the system bus connection was lost"

    private static func isLost(_ status: NetworkManagerStatus) -> Bool {
      if case .unavailable(let reason) = status { return reason.hasPrefix(lostPrefix) }
      return false
    }

    static func lost(_ failure: SDBusConnection.Failure) -> NetworkManagerStatus {
      .unavailable("\(lostPrefix) (\(SystemErrno.describe(failure.code))); it is retried when a monitor starts again")
    }

    /// Reads NetworkManager's properties: `Connectivity`, `Devices`, and each device's `Interface`, `IpInterface` and
    /// `Metered` (a device without `Metered`, or gone meanwhile, counts as unknown or is left out).
    static func read(_ connection: SDBusConnection) -> NetworkManagerStatus {
      let connectivity: UInt32
      let paths: [String]
      do throws(SDBusConnection.Failure) {
        connectivity = try connection.uint32(service, managerPath, managerInterface, "Connectivity")
        paths = try connection.strings(service, managerPath, managerInterface, "Devices")
      } catch {
        if error.errorName.isEmpty, lostCodes.contains(error.code) { return lost(error) }
        return .afterFailedRead(errorName: error.errorName, code: error.code, description: error.description)
      }
      var devices: [NetworkManagerView.Device] = []
      for path in paths {
        guard let interface = try? connection.string(service, path, deviceInterface, "Interface") else { continue }
        let ipInterface = (try? connection.string(service, path, deviceInterface, "IpInterface")) ?? ""
        let metered =
          (try? connection.uint32(service, path, deviceInterface, "Metered")).map(
            NetworkManagerView.metered) ?? .unknown
        devices.append(NetworkManagerView.Device(interface: interface, ipInterface: ipInterface, metered: metered))
      }
      return .running(
        NetworkManagerView(connectivity: NetworkManagerView.connectivity(connectivity), devices: devices))
    }

    // MARK: The thread

    /// The thread that serves one connection, from the first subscriber to the last.
    fileprivate final class Runner: Sendable {
      let connection: SDBusConnection
      /// Wakes the thread from poll(2). Closed with the runner, once neither the thread nor a stopper can reach it.
      let wake: EventFD
      let stopped = Atomic<Bool>(false)
      let thread = Mutex<pthread_t?>(nil)

      init(connection: SDBusConnection) throws(NetworkMonitorError) {
        self.connection = connection
        wake = try EventFD.opened()
      }

      func start(_ watch: NetworkManagerWatch) {
        do throws(NetworkMonitorError) {
          let thread = try NetworkMonitorError.converting { () throws(SystemCallError) in
            try POSIXThread.start(name: "netstatus-dbus") { [self] in run(watch) }
          }
          self.thread.withLock { $0 = thread }
        } catch {
          watch.publish(.unavailable("\(error)"), from: self)
        }
      }

      /// Ends the thread: joins it, or, on the thread itself (a subscriber that stopped its monitor), lets it end
      /// once the subscriber returns.
      func stop() {
        stopped.store(true, ordering: .releasing)
        try? wake.signal()
        guard let thread = thread.withLock({ $0.take() }) else { return }
        if pthread_equal(pthread_self(), thread) != 0 {
          pthread_detach(thread)
        } else {
          pthread_join(thread, nil)
        }
      }

      private func run(_ watch: NetworkManagerWatch) {
        while !stopped.load(ordering: .acquiring) {
          do throws(SDBusConnection.Failure) {
            try connection.processAll()
          } catch {
            watch.publish(NetworkManagerWatch.lost(error), from: self)
            return
          }
          if connection.takeSignals() > 0 {
            let status = NetworkManagerWatch.read(connection)
            watch.publish(status, from: self)
            if NetworkManagerWatch.isLost(status) { return }
            continue  // signals that came during the read are pending in sd-bus's queue, not on the socket
          }
          var descriptors = [
            pollfd(fd: connection.fd, events: connection.events, revents: 0),
            pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0),
          ]
          let timeout = connection.timeoutMilliseconds
          let ready = poll(&descriptors, 2, timeout)
          if ready < 0, errno != EINTR {
            watch.publish(.unavailable("poll failed: \(SystemErrno.describe(errno))"), from: self)
            return
          }
        }
      }
    }
  }
#endif
