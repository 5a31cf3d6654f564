#if os(Linux)
  import NetStatusSystem

  /// The loop's thread: wait for anything ready, run the sessions it concerns, until the loop retires.
  extension NetlinkEventHub {
    /// The thread's body.
    func serve(_ loop: NetlinkEventLoop) {
      defer { close(loop) }
      // Only this thread closes the epoll set, as it ends: the number holds for the wait, without the lock.
      let epoll = loop.epollForThread
      var tags = [UInt64](repeating: 0, count: Epoll.maximumEvents)
      var unfinished: [UInt64] = []
      while true {
        let count = Epoll.wait(epoll, into: &tags, timeoutMilliseconds: unfinished.isEmpty ? -1 : 0)
        // Emptied before the registry is read: a wake that comes after this is seen at the next wait, and one that
        // came before was for something the read below finds.
        // By position here and below: a slice of `tags` would retain and release the array.
        if (0..<count).contains(where: { tags[$0] == NetlinkEventLoop.wakeTag }) { loop.drainWake() }
        let (serves, requested, rescans) = registry.withLockedValue {
          ($0.serves(loop), $0.takeResumeRequests(), $0.takeRescanRequests())
        }
        guard serves else { return }
        // Sessions that missed folder events while they started read their folders again.
        for id in rescans {
          runSession(id, .folderEvents([.overflow]), &unfinished)
        }
        if !unfinished.isEmpty || !requested.isEmpty {  // usually neither: no array is made for nothing
          let pending = unfinished + requested
          unfinished.removeAll(keepingCapacity: true)
          for id in pending { runSession(id, .resume, &unfinished) }
        }
        for position in 0..<count {
          let tag = tags[position]
          switch tag {
          case NetlinkEventLoop.wakeTag:
            break  // emptied above
          case NetlinkEventLoop.inotifyTag:
            dispatchFolderEvents(loop, &unfinished)
          default:
            let work: NetlinkHubWork
            switch NetlinkHubDescriptor.Kind(rawValue: tag & 3) {
            case .processExit: work = .processExited
            case .mountTable: work = .mountTableChanged
            default: work = .netlinkReadable
            }
            runSession(tag >> 2, work, &unfinished)
          }
        }
      }
    }

    /// Reads the shared inotify instance and hands each session the events of its watches (every session gets
    /// an overflow).
    private func dispatchFolderEvents(_ loop: NetlinkEventLoop, _ unfinished: inout [UInt64]) {
      let events: [InotifyWatcher.Event]
      do throws(SystemCallError) {
        events = try loop.readFolderEvents()
      } catch {
        return  // read(2) on an inotify descriptor fails only for a bad buffer; nothing to retry
      }
      guard !events.isEmpty else { return }
      let routed = registry.withLockedValue { registry in
        registry.route(
          events, watch: \.watch, isOverflow: { $0.mask & InotifyWatcher.overflow != 0 },
          isIgnored: { $0.mask & InotifyWatcher.ignored != 0 })
      }
      for (id, sessionEvents) in routed { runSession(id, .folderEvents(sessionEvents), &unfinished) }
    }

    /// Runs one session's work on the loop's thread, unless it was stopped; closes it if it ended or was stopped
    /// meanwhile.
    private func runSession(_ id: UInt64, _ work: NetlinkHubWork, _ unfinished: inout [UInt64]) {
      guard let client = registry.withLockedValue({ $0.beginWork(id) }) else { return }
      let outcome = client.handle(work)
      if let removal = registry.withLockedValue({
        $0.endWork(ended: outcome == .ended) { $0.removeWatch($1) }
      }) {
        carryOut(removal)
      } else if outcome == .unfinished {
        unfinished.append(id)
      }
    }
  }
#endif
