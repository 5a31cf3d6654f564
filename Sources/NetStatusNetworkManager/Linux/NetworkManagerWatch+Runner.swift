#if os(Linux)
  import NetStatusLinuxSource
  import NetStatusSystem
  import CNetStatusShim
  import Glibc
  import Synchronization

  extension NetworkManagerWatch {
    /// The thread that serves one connection, from the first subscriber to the last: the mirrors of NetworkManager,
    /// ModemManager and iwd on one connection, in one poll(2) loop.
    final class Runner: Sendable {
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

      /// The mirrors of one connection.
      private struct Mirrors {
        var networkManager = NetworkManagerMirror()
        var modemManager = ModemManagerMirror()
        var iwd = IwdMirror()
      }

      private func run(_ watch: NetworkManagerWatch) {
        var mirrors = Mirrors()
        for rule in NetworkManagerWatch.matchRules {
          do throws(SDBusConnection.Failure) {
            try connection.addMatch(rule)
          } catch {
            watch.publish(.unavailable(error.description), from: self)
            return
          }
        }
        send(mirrors.networkManager.start(), into: &mirrors.networkManager)
        list(mirrors.modemManager.start(), into: &mirrors.modemManager)
        startIwd(&mirrors.iwd)
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
              if case .failure(let end) = handle(event, &mirrors, busAnswered: &busAnswered) {
                watch.publish(end.status, from: self)
                return
              }
            }
            let status = mirrors.networkManager.status
            let modems = mirrors.modemManager.status
            let iwd = mirrors.iwd.status
            watch.publish(status, modems, iwd, from: self)
            if status == nil || modems == nil || iwd == nil {
              let unanswered =
                mirrors.networkManager.unanswered ?? (status == nil ? "reading NetworkManager" : "listing modems")
              watch.note(unanswered, busAnswered: busAnswered, from: self)
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

      /// Applies one event to the mirrors and sends what they decide: `.failure` with the status when the
      /// connection can no longer serve.
      private func handle(
        _ event: SDBusConnection.Event, _ mirrors: inout Mirrors, busAnswered: inout Bool
      ) -> Result<Void, StatusEnd> {
        let reads: [NetworkManagerMirror.Read]
        switch event {
        case .answer(let token, let sender, let result):
          if case .failure(let failure) = result, failure.errorName.isEmpty,
            NetworkManagerWatch.lostCodes.contains(failure.code)
          {
            return .failure(StatusEnd(NetworkManagerWatch.lost(failure.code)))
          }
          busAnswered = true
          if IwdMirror.owns(token) {
            mirrors.iwd.answered(token, from: sender, result)
            reads = []
          } else {
            reads = mirrors.networkManager.answered(token, result)
          }
        case .matchInstalled(let failure):
          if let failure {
            // Refused (a bus policy): its signals would never come, so the view could not follow.
            let name = failure.errorName.isEmpty ? "" : " (\(failure.errorName))"
            return .failure(StatusEnd(.unavailable(failure.description + name)))
          }
          busAnswered = true
          reads = []
        case .changed(let path, let interface, let property, let value):
          reads = mirrors.networkManager.changed(path: path, interface: interface, property: property, value: value)
          // `InterfacesAdded` carries its properties as changes too (the shim tags them as a signal's, token 0):
          // ModemManager's and iwd's objects that appear after the first listing get theirs here.
          list(
            mirrors.modemManager.property(token: 0, path: path, interface: interface, name: property, value: value),
            into: &mirrors.modemManager)
          mirrors.iwd.property(token: 0, path: path, interface: interface, name: property, value: value)
        case .invalidated(let path, let interface, let property):
          reads = mirrors.networkManager.invalidated(path: path, interface: interface, property: property)
        case .deviceAdded(let path): reads = mirrors.networkManager.deviceAdded(path)
        case .deviceRemoved(let path): reads = mirrors.networkManager.deviceRemoved(path)
        case .ownerChanged(let name, let owner):
          if name == ModemManagerMirror.service {
            list(mirrors.modemManager.ownerChanged(owner), into: &mirrors.modemManager)
            reads = []
          } else if name == IwdMirror.service {
            perform(mirrors.iwd.ownerChanged(owner), into: &mirrors.iwd)
            reads = []
          } else {
            reads = mirrors.networkManager.ownerChanged(owner)
          }
        case .object, .listedProperty, .objectRemoved, .listed, .methodCall:
          if case .listed(_, let failure) = event, let failure, failure.errorName.isEmpty,
            NetworkManagerWatch.lostCodes.contains(failure.code)
          {
            return .failure(StatusEnd(NetworkManagerWatch.lost(failure.code)))
          }
          if case .listed = event { busAnswered = true }
          handleObjects(event, &mirrors)
          reads = []
        }
        send(reads, into: &mirrors.networkManager)
        return .success(())
      }

      /// Applies an ObjectManager event (a listing's object, property or end, `InterfacesAdded`, `InterfacesRemoved`)
      /// or a call of iwd's agent to the mirrors: a listing's to the mirror whose token it has, a signal's to both
      /// (each takes only its own objects). `InterfacesAdded`'s properties come as ``SDBusConnection/Event/changed``.
      private func handleObjects(_ event: SDBusConnection.Event, _ mirrors: inout Mirrors) {
        switch event {
        case .object(let token, let path, let interfaces):
          if token == 0 || ModemManagerMirror.owns(token) {
            list(
              mirrors.modemManager.object(token: token, path: path, interfaces: interfaces), into: &mirrors.modemManager
            )
          }
          if token == 0 || IwdMirror.owns(token) {
            perform(mirrors.iwd.object(token: token, path: path, interfaces: interfaces), into: &mirrors.iwd)
          }
        case .listedProperty(let token, let path, let interface, let property, let value):
          if ModemManagerMirror.owns(token) {
            list(
              mirrors.modemManager.property(
                token: token, path: path, interface: interface, name: property, value: value),
              into: &mirrors.modemManager)
          }
          if IwdMirror.owns(token) {
            mirrors.iwd.property(token: token, path: path, interface: interface, name: property, value: value)
          }
        case .objectRemoved(let path, let interfaces):
          mirrors.modemManager.removed(path: path, interfaces: interfaces)
          mirrors.iwd.removed(path: path, interfaces: interfaces)
        case .listed(let token, let failure):
          if ModemManagerMirror.owns(token) { mirrors.modemManager.listed(token, failure) }
          if IwdMirror.owns(token) { mirrors.iwd.listed(token, failure) }
        case .methodCall(let sender, let path, let interface, let method, let object, let byte):
          guard path == IwdMirror.agentPath, interface == IwdMirror.agentInterface, let object else { return }
          mirrors.iwd.agentCalled(method, by: sender, device: object, level: byte)
        default: break
        }
      }

      /// A status that ends the runner, as an error for `Result`.
      private struct StatusEnd: Error {
        let status: NetworkManagerStatus
        init(_ status: NetworkManagerStatus) { self.status = status }
      }
    }
  }
#endif
