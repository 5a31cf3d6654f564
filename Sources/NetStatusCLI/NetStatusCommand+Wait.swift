import NetStatusCore

// `netstatus wait`: until the path, the links and the connectivity meet the condition (WaitCondition.swift), or
// the timeout.
extension NetStatusCommand {
  /// Says once, on standard error, which of the interfaces `wait` was given do not exist (yet): it waits for them
  /// all the same, since an interface may appear later (a USB modem, a VPN, a container's veth).
  static func reportUnknownInterfaces(_ options: CommandLineOptions) {
    // A glob pattern given to --ignore (`veth*`) names no one interface.
    let patterns = options.ignoredInterfaces.filter { !$0.contains(where: { "*?[".contains($0) }) }
    let names = options.interfaces + options.viaInterfaces + patterns
    guard !names.isEmpty else { return }
    #if os(Linux)
      guard let inventory = try? LinkInventory.read(networkNamespace: options.networkNamespace) else { return }
      for name in names where inventory.link(named: name) == nil {
        let role =
          options.ignoredInterfaces.contains(name) ? "ignored if it appears" : "waiting for it to appear"
        StandardOutput.error("no interface named \(name) yet; \(role)")
      }
    #endif
  }

  static func wait(_ session: Session) async -> ExitCode {
    let (monitor, output) = (session.monitor, session.output)
    let options = output.options
    let condition = options.waitCondition
    reportUnknownInterfaces(options)
    let connectivity = options.requireInternet ? output.connectivity : nil
    let links = session.links
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity, links: links)
    // The timeout covers everything since the command began: the monitor's start (NetworkManager's start-up
    // budget, NetworkManagerWatch.swift) included.
    let remaining = remainingTimeout(options.timeout, elapsed: session.began.duration(to: .now))
    // Met as the monitors start: a success, even when the start took the whole timeout (NetworkManager given up at
    // the timeout), rather than a race between the first check and a deadline already past.
    let metAtStart: NetworkPath? = {
      guard options.stable == nil, let path = monitor.currentPath,
        condition.isMet(by: path, links: links?.judged ?? []),
        connectivity.map({ condition.isInternetMet($0.state, families: $0.families) }) ?? true
      else { return nil }
      return path
    }()
    let waited: StopSignal.RaceOutcome<NetworkPath?>
    if let code = session.stop.code {
      // Stopped while the monitors started: the stop, not what the start found.
      waited = .stopped(code)
    } else if let metAtStart {
      waited = .finished(metAtStart)
    } else {
      waited = await session.stop.race {
        await withDeadline(remaining) { () -> NetworkPath? in
          // --stable: met once the condition has held that long (Settler.swift's rule, "met" as the up side; unmet
          // at once). Without it the hold is zero: met at once.
          var stable = Settler<Bool, ContinuousClock.Instant>(
            upHold: options.stable ?? .zero, downHold: .zero, published: false)
          var timer: (deadline: ContinuousClock.Instant, task: Task<Void, Never>)?
          defer { timer?.task.cancel() }
          for await _ in changes.stream {
            guard let path = monitor.currentPath else {
              if monitor.lastError != nil { return nil }
              _ = stable.receive(false, at: .now)
              continue
            }
            let internet =
              connectivity.map { condition.isInternetMet($0.state, families: $0.families) } ?? true
            let now = ContinuousClock.now
            _ = stable.receive(condition.isMet(by: path, links: links?.judged ?? []) && internet, at: now)
            _ = stable.timerFired(at: now)
            if stable.published == true { return path }
            if monitor.lastError != nil { return nil }
            if let deadline = stable.deadline, deadline != timer?.deadline {
              timer?.task.cancel()
              timer = (deadline, changes.signal(at: deadline))
            }
          }
          return nil
        }
      }
    }
    await changes.end()
    let met: NetworkPath?
    switch waited {
    case .stopped(let code): return code
    case .finished(let path): met = path
    }
    if let met {
      if !options.quiet, let code = emit(output.line(met, output.report), stop: session.stop) { return code }
      return .success
    }
    if let error = monitor.lastError {
      StandardOutput.error(CommandMessages.describe(error))
      return .failure
    }
    var last = monitor.currentPath.map { "last path: \($0)" } ?? "no path was reported"
    if let links, let rule = condition.links {
      // Where networkd's state is not read, say so: -i then judges the kernel's operational state alone.
      let source =
        links.networkdInUse
        ? "" : " (the kernel's operational state: systemd-networkd does not run here or does not manage this namespace)"
      last = "now " + rule.linksNow(links.judged) + source + "; " + last
    }
    if let report = output.report {
      last += "; internet: \(report.state)" + (report.check.map { " (\($0.detail))" } ?? "")
    }
    let limit = options.timeout.map { "\($0)" } ?? "forever"
    let goal =
      condition.description + (connectivity != nil ? " and " + condition.internetDescription : "")
      + (options.stable.map { ", held for \($0)" } ?? "")
    StandardOutput.error("timed out after \(limit) waiting for \(goal); \(last)")
    return .timedOut
  }

  /// What is left of `wait`'s `timeout` (`nil`: none) once `elapsed` has passed since the command began: never
  /// less than zero.
  static func remainingTimeout(_ timeout: Duration?, elapsed: Duration) -> Duration? {
    timeout.map { max(.zero, $0 - elapsed) }
  }
}
