#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import CNetStatusShim
  import Dispatch
  import Synchronization
  import Glibc

  /// The session's folder watches: the resolver configuration, and the folder that names its namespace.
  extension NetlinkSessionWorker {
    /// Watches the folders of the resolver configuration (and of its upstream list). Fails only when a watch
    /// hits a limit: without it, a change of DNS servers would go unseen.
    func watchResolverConfiguration() throws(NetworkMonitorError) {
      for target in ResolverConfiguration.watchTargets(
        path: configuration.resolverConfigurationPath, upstreamPath: configuration.resolvedUpstreamPath)
      {
        if let watch = try NetlinkEventHub.shared.watch(folder: target.directory, .contents, for: reservation) {
          resolverWatches[watch, default: []].formUnion(target.names)
        }
      }
    }

    func resolverChanged(_ events: [InotifyWatcher.Event]) -> Bool {
      events.contains { event in
        if event.mask & InotifyWatcher.overflow != 0 { return true }
        guard let names = resolverWatches[event.watch] else { return false }
        return event.name.isEmpty || names.contains(event.name)
      }
    }

    func namespaceWasDeleted(_ events: [InotifyWatcher.Event]) -> Bool {
      guard let namespace = configuration.namespace, let handle = namespaceIdentity else { return false }
      let name = LocalFile.lastComponent(of: namespace.path)
      let relevant = events.contains { event in
        event.mask & InotifyWatcher.overflow != 0
          || (event.watch == namespaceWatch && (event.name.isEmpty || event.name == name))
      }
      return relevant && !namespace.stillNames(handle)
    }
  }
#endif
