#if os(Linux)
  import NetStatusSystem
  import Glibc

  /// The loop's thread: wait for anything ready (at most until the earliest deadline of a session waiting for the
  /// kernel), carry out the commands, run the sessions it concerns, until the loop retires.
  extension NetlinkEventHub {
    /// The thread's body.
    func serve(_ loop: NetlinkEventLoop) {
      loop.enterThread()
      let epoll = loop.epollDescriptor
      var tags = [UInt64](repeating: 0, count: Epoll.maximumEvents)
      var joined = false
      turns: while true {
        let count = Epoll.wait(epoll, into: &tags, timeoutMilliseconds: loop.waitTimeoutMilliseconds())
        // By position here and below: a slice of `tags` would retain and release the array.
        if (0..<count).contains(where: { tags[$0] == NetlinkEventLoop.wakeTag }) {
          // Emptied before the commands are taken: a command that comes after this wakes the next wait.
          loop.drainWake()
          let commands = queue.withLock { state -> [HubCommand] in
            state.woken = false
            defer { state.commands.removeAll() }
            return state.commands
          }
          for command in commands { carryOut(command, on: loop) }
        }
        for position in 0..<count {
          let tag = tags[position]
          switch tag {
          case NetlinkEventLoop.wakeTag:
            break  // taken above
          case NetlinkEventLoop.inotifyTag:
            dispatchFolderEvents(loop)
          default:
            let work: NetlinkHubWork
            switch NetlinkHubDescriptor.Kind(rawValue: tag & 3) {
            case .processExit: work = .processExited
            case .mountTable: work = .mountTableChanged
            case .wireless: work = .wirelessReadable
            default: work = .netlinkReadable
            }
            runSession(tag >> 2, work, on: loop)
          }
        }
        // Sessions waiting for the kernel whose time is up (usually none: the common turn reads no clock).
        if let next = loop.machine.nextDeadline {
          let now = MonotonicTime.now()
          if next <= now {
            for id in loop.machine.expireDeadlines(at: now) { runSession(id, .deadlinePassed, on: loop) }
          }
        }
        if !loop.runQueue.isEmpty {
          let pending = loop.runQueue
          loop.runQueue.removeAll()
          for (id, work) in pending { runSession(id, work, on: loop) }
        }
        // Usually neither: the common turn takes no lock.
        if !loop.answers.isEmpty || loop.machine.isEmpty {
          switch deliver(loop) {
          case .serving: continue
          case .retired(let joiner): joined = joiner
          }
          break turns
        }
      }
      var inotify = loop.close()
      queue.withLock { state in
        if let kept = inotify.take() { Self.keep(kept, in: &state) }
      }
      // Joined by the stopper that retired it; otherwise, no one will.
      if !joined { pthread_detach(pthread_self()) }
    }

    /// What ``deliver(_:)`` decided.
    private enum Turn {
      case serving
      /// The loop retired; whether a waiter joins its thread.
      case retired(joined: Bool)
    }

    /// Gives the answers of this turn to their waiters and, when the loop has no session left and no command waits,
    /// retires it, in one hold of the queue's lock: a command that comes later starts a new loop. When it retires,
    /// the first waiter answered joins its thread.
    private func deliver(_ loop: NetlinkEventLoop) -> Turn {
      var answers = loop.answers
      loop.answers.removeAll()
      let idle = loop.machine.isEmpty && loop.runQueue.isEmpty
      let turn = queue.withLock { state -> Turn in
        guard idle, state.commands.isEmpty, state.loop === loop else {
          HubCommandQueue.answer(answers, in: &state)
          return .serving
        }
        state.loop = nil
        let thread = state.thread
        state.thread = nil
        let joiner = answers.indices.first { state.waiting.contains(answers[$0].ticket) }
        if let joiner { answers[joiner].completion.joinThread = thread }
        HubCommandQueue.answer(answers, in: &state)
        return .retired(joined: joiner != nil)
      }
      queue.wakeWaiters()
      return turn
    }

    /// Carries out a command from another thread.
    private func carryOut(_ command: HubCommand, on loop: NetlinkEventLoop) {
      switch command {
      case .reserve(let id):
        loop.machine.reserve(id)
      case .watch(let id, let folder, let interest, let ticket):
        let outcome: HubCompletion.Outcome
        do throws(NetworkMonitorError) {
          outcome = .watched(try loop.watch(folder: folder, interest, for: id))
        } catch {
          outcome = .failed(error)
        }
        loop.answers.append((ticket, HubCompletion(outcome: outcome)))
      case .register(let id, let client):
        loop.machine.register(id, client: client)
      case .activate(let id, let ticket):
        let failure = loop.activate(id)
        loop.answers.append((ticket, HubCompletion(outcome: failure.map { .failed($0) } ?? .done)))
      case .cancel(let id, let ticket):
        loop.cancel(id)
        loop.answers.append((ticket, HubCompletion(outcome: .done)))
      case .stop(let id, let ticket):
        // Not running now (commands are carried out between works): closed at once, or unknown.
        loop.stop(id)
        loop.answers.append((ticket, HubCompletion(outcome: .done)))
      case .awaitClose(let id, let ticket):
        if loop.machine.awaitClose(id, ticket: ticket) { loop.answers.append((ticket, HubCompletion(outcome: .done))) }
      }
    }

    /// Reads the shared inotify instance and hands each session the events of its watches (every session gets an
    /// overflow).
    private func dispatchFolderEvents(_ loop: NetlinkEventLoop) {
      let events = loop.readFolderEvents()
      guard !events.isEmpty else { return }
      let routed = loop.machine.route(
        events, watch: \.watch, isOverflow: { $0.mask & InotifyWatcher.overflow != 0 },
        isIgnored: { $0.mask & InotifyWatcher.ignored != 0 })
      for (id, sessionEvents) in routed { runSession(id, .folderEvents(sessionEvents), on: loop) }
    }

    /// Runs one session's work, unless it was stopped; closes it if it ended or was stopped meanwhile.
    private func runSession(_ id: UInt64, _ work: NetlinkHubWork, on loop: NetlinkEventLoop) {
      guard let client = loop.machine.beginWork(id) else { return }
      let outcome = client.handle(work)
      let deadline: UInt64?
      if case .waiting(let until) = outcome { deadline = until } else { deadline = nil }
      if let removal = loop.machine.endWork(ended: outcome == .ended, waitingUntil: deadline) {
        loop.carryOut(removal)
      } else if outcome == .unfinished {
        loop.runQueue.append((id, .resume))
      }
    }
  }
#endif
