import NetStatusCore

// `netstatus show`: the path once, with the connectivity state when asked, and with `--all` the links and sources.
extension NetStatusCommand {
  static func show(_ session: Session) async -> ExitCode {
    let (monitor, output) = (session.monitor, session.output)
    let found = await session.stop.race { () -> Result<(NetworkPath, ConnectivityReport?), NetworkMonitorError> in
      let path: NetworkPath
      do throws(NetworkMonitorError) {
        path = try await monitor.waitForPath(timeout: .seconds(10))
      } catch {
        return .failure(error)
      }
      var report: ConnectivityReport?
      if let connectivity = output.connectivity, connectivity.source == .networkManager {
        // NetworkManager was read when the monitor started; its answer applies once the path reaches it.
        if connectivity.networkManagerUnavailableReason == nil {
          _ = await firstState(of: connectivity, within: .seconds(1)) { $0 != .unknown }
        }
        report = ConnectivityReport(connectivity)
      } else if let connectivity = output.connectivity {
        // The first check starts with the first path; it ends within the probe's timeout.
        let limit = (connectivity.probe?.timeout ?? .seconds(10)) + .seconds(1)
        _ = await firstState(of: connectivity, within: limit) { $0 != .unknown }
        report = ConnectivityReport(connectivity)
      }
      return .success((path, report))
    }
    let path: NetworkPath
    let report: ConnectivityReport?
    // A stop that came while the path was found, or while the monitor started, wins over showing it.
    if let code = session.stop.code { return code }
    switch found {
    case .stopped(let code): return code
    case .finished(.failure(let error)):
      StandardOutput.error(CommandMessages.describe(error))
      return .failure
    case .finished(.success(let shown)): (path, report) = shown
    }
    var text =
      output.options.json
      ? PathFormatter.json(path, connectivity: report) : output.formatter.table(path, connectivity: report)
    if output.options.showAll {
      switch readInventory(output.options) {
      case .success(let inventory):
        text =
          output.options.json
          ? path.jsonRepresentation(
            with: NetworkPathJSONExtra(
              connectivity: report?.state, connectivityFamilies: report?.families, inventory: inventory,
              sources: monitor.sourceDiagnostics))
          : text + "\n\n" + LinkTable.text(inventory) + "\n" + SourceTable.text(monitor.sourceDiagnostics)
      case .failure(let error):
        StandardOutput.error(CommandMessages.describe(error))
        return .failure
      }
    }
    return emit(text, stop: session.stop) ?? .success
  }

  /// The links of the namespace watched, for `show --all` (Linux only).
  static func readInventory(_ options: CommandLineOptions) -> Result<LinkInventory, NetworkMonitorError> {
    #if os(Linux)
      do throws(NetworkMonitorError) {
        return .success(
          try LinkInventory.read(networkNamespace: options.networkNamespace, networkdRoot: options.networkdRoot))
      } catch {
        return .failure(error)
      }
    #else
      return .failure(.unsupportedPlatform("show --all (links are read from the Linux kernel)"))
    #endif
  }

  /// The first state of `connectivity` that satisfies `predicate`, or `nil` after `limit`.
  static func firstState(
    of connectivity: ConnectivityMonitor, within limit: Duration,
    where predicate: @escaping @Sendable (ConnectivityState) -> Bool
  ) async -> ConnectivityState? {
    let states = connectivity.states
    return await withDeadline(limit) {
      for await state in states where predicate(state) { return state }
      return nil
    }
  }
}
