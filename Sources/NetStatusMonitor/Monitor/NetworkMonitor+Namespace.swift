#if os(Linux)
  import Glibc
  import NetStatusNetlink
  import NetStatusLinuxSource
  import NetStatusNetworkManager

  extension NetworkMonitor {
    /// Creates a monitor of a Linux network namespace, for container hosts and tests.
    ///
    /// ```swift
    /// let monitor = try NetworkMonitor(networkNamespace: "blue")   // as `ip netns` names it
    /// let container = try NetworkMonitor(networkNamespace: "/proc/\(pid)/ns/net")   // a container's main process
    /// try monitor.start()
    /// ```
    ///
    /// DNS support is read from the namespace's own resolver configuration:
    /// - for a path of exactly the form `/proc/PID/ns/net`, from that process's: `/proc/PID/root/etc/resolv.conf`
    ///   (its `/etc/resolv.conf`, in its mount namespace, under its root), following systemd-resolved's stub to
    ///   the process's `/run/systemd/resolve/resolv.conf`;
    /// - for a name, from `/etc/netns/NAME/resolv.conf` when that file exists (the file `ip netns exec` would
    ///   show the namespace);
    /// - otherwise from `/etc/resolv.conf`.
    /// A ``ConnectivityMonitor`` of this monitor resolves its probe's host name with the named namespace's file
    /// when there is one.
    ///
    /// If the namespace is deleted while it is watched, the path becomes unsatisfied, the monitor stops,
    /// and ``lastError`` and ``errorHandler`` report ``NetworkMonitorError/namespaceDeleted(path:)``. For
    /// `/proc/PID/ns/net`, the same happens when process PID exits (on Linux 5.3 and later: `pidfd_open`).
    ///
    /// - Parameters:
    ///   - networkNamespace: A name from `ip netns list` (`/run/netns/NAME`), or a path to a namespace
    ///     file such as `/proc/PID/ns/net`. A name that is not UTF-8 is given as NetStatus prints names (a byte that
    ///     is not UTF-8 as `\xHH`, a backslash as `\\`; see ``NetworkInterface/name``).
    ///   - requiredInterfaceType: The only interface type paths may use, or `nil` for any.
    ///   - prohibitedInterfaceTypes: Interface types paths may not use.
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` when there is no such namespace,
    ///   ``NetworkMonitorError/namespaceNotEnterable(path:errno:)`` when the file is not a network namespace or
    ///   cannot be opened.
    public convenience init(
      networkNamespace: String,
      requiredInterfaceType: InterfaceType? = nil,
      prohibitedInterfaceTypes: [InterfaceType] = []
    ) throws(NetworkMonitorError) {
      self.init(
        source: try Self.linuxSource(networkNamespace: networkNamespace),
        requiredInterfaceType: requiredInterfaceType,
        prohibitedInterfaceTypes: prohibitedInterfaceTypes
      )
    }

    /// A monitor of `networkNamespace` (`nil`: the process's own) made as the public initializers make it
    /// (``linuxSource(networkNamespace:networkdRoot:linkObserver:networkdObserver:)``), with what only this package
    /// sets:
    ///
    /// - Parameters:
    ///   - networkdRoot: Where systemd-networkd keeps its state, instead of the default (`/run/systemd/netif` for the
    ///     process's own namespace, none for another): for tests, and `netstatus --networkd-root`.
    ///   - linkObserver: Told of the links and their addresses, once at start and whenever they change, on the thread
    ///     that read the change (keep it short: it holds up every monitor of the process). For `netstatus wait
    ///     --interface`, which judges links the path does not go through.
    ///   - networkdObserver: Told of systemd-networkd's state of the links each time it changes (where it is read:
    ///     ``NetlinkPathSource/networkd``), before the links are first told at start.
    package convenience init(
      networkNamespace: String?, networkdRoot: String? = nil,
      linkObserver: (@Sendable ([LinkInventory.Link]) -> Void)? = nil,
      networkdObserver: (@Sendable (NetworkdStatus) -> Void)? = nil
    ) throws(NetworkMonitorError) {
      self.init(
        source: try Self.linuxSource(
          networkNamespace: networkNamespace, networkdRoot: networkdRoot, linkObserver: linkObserver,
          networkdObserver: networkdObserver))
    }

    /// The one way this package makes a Linux source, so that a monitor gives one answer however it is made: the
    /// namespace's own resolver configuration (`ResolverConfiguration.configurationPath(forNamespace:)`) and
    /// systemd-resolved list, and for the process's own namespace NetworkManager's metered view where NetworkManager
    /// manages it (as ``init()``'s default source, DefaultPathSource.swift).
    static func linuxSource(
      networkNamespace: String?, networkdRoot: String? = nil,
      linkObserver: (@Sendable ([LinkInventory.Link]) -> Void)? = nil,
      networkdObserver: (@Sendable (NetworkdStatus) -> Void)? = nil
    ) throws(NetworkMonitorError) -> any PathSource {
      var options = NetlinkPathSource.Options()
      options.linkObserver = linkObserver
      options.networkdObserver = networkdObserver
      var resolver = "/etc/resolv.conf"
      if let networkNamespace {
        options.resolvedUpstreamPath = ResolverConfiguration.resolvedUpstreamPath(forNamespace: networkNamespace)
        resolver = ResolverConfiguration.configurationPath(forNamespace: networkNamespace)
      }
      let netlink = try NetlinkPathSource(
        networkNamespace: networkNamespace, resolverConfigurationPath: resolver, networkdRoot: networkdRoot,
        options: options)
      let wrapped = networkNamespace == nil && SystemNamespace.followsSystemNetworkManager
      return wrapped ? NetworkManagerPathSource(wrapping: netlink) : netlink
    }
  }
#endif
