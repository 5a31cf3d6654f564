import NetStatusCore

// `netstatus watch` with a probe or NetworkManager's connectivity: a line per change of the path or of the
// connectivity state (PlainWatch.swift watches the path alone).
extension NetStatusCommand {
  static func watch(_ session: Session) async -> ExitCode {
    let (monitor, output, stop) = (session.monitor, session.output, session.stop)
    guard output.connectivity != nil else {
      let watch = PlainWatch(session)
      return watch.finish(await watch.wait())
    }
    // With a probe, a line is due on a change of the path or of the connectivity state.
    StandardOutput.watchForClose { stop.fire(.success) }
    _ = StopOnError(monitor: monitor, stop: stop)
    let changes = StatusChanges(monitor: monitor, connectivity: output.connectivity)
    let textfile = output.options.textfile.map { TextfileExporter(path: $0, netns: output.options.networkNamespace) }
    textfile?.start(stoppingOnFailure: stop)
    // The task that reads the changes never waits for the reader (WatchOutput.swift): the file stays current.
    let lines = WatchOutput { _ = PlainWatch.handle($0, stop: stop) }
    let printer = Task {
      var last: (NetworkPath, ConnectivityReport?)?
      for await _ in changes.stream {
        // The path a failure publishes is no change of the network (PlainWatch.swift).
        guard monitor.lastError == nil, let path = monitor.currentPath else { continue }
        let report = output.report
        textfile?.update(path: path, connectivity: report?.state, families: report?.families ?? FamilyConnectivity())
        // One line per change of the path, of the connectivity state or of a family's (not of the check's details).
        if let last, last.0 == path, last.1?.state == report?.state, last.1?.families == report?.families { continue }
        last = (path, report)
        if !PlainWatch.handle(lines.line(output.line(path, report, stamped: true)), stop: stop) { return }
      }
    }
    let code: ExitCode
    if let textfile { code = await textfile.keep(until: stop) } else { code = await stop.wait() }
    printer.cancel()
    await printer.value
    await changes.end()
    if let message = stop.message { StandardOutput.error(message) }
    return code
  }
}
