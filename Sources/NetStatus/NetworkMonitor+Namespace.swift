#if os(Linux)
  import Glibc

  extension NetworkMonitor {
    /// Creates a monitor of a Linux network namespace, for container hosts and tests.
    ///
    /// ```swift
    /// let monitor = try NetworkMonitor(networkNamespace: "blue")   // as `ip netns` names it
    /// try monitor.start()
    /// ```
    ///
    /// DNS support is read from `/etc/netns/NAME/resolv.conf` when the namespace is named and that file
    /// exists (the file `ip netns exec` would show the namespace), and from `/etc/resolv.conf` otherwise. A
    /// ``ConnectivityMonitor`` of this monitor resolves its probe's host name with the same file.
    ///
    /// If the namespace is deleted while it is watched, the path becomes unsatisfied, the monitor stops,
    /// and ``lastError`` and ``errorHandler`` report ``NetworkMonitorError/namespaceDeleted(path:)``.
    ///
    /// - Parameters:
    ///   - networkNamespace: A name from `ip netns list` (`/run/netns/NAME`), or a path to a namespace
    ///     file such as `/proc/PID/ns/net`.
    ///   - requiredInterfaceType: The only interface type paths may use, or `nil` for any.
    ///   - prohibitedInterfaceTypes: Interface types paths may not use.
    /// - Throws: ``NetworkMonitorError/namespaceNotFound(path:)`` when there is no such namespace.
    public convenience init(
      networkNamespace: String,
      requiredInterfaceType: InterfaceType? = nil,
      prohibitedInterfaceTypes: [InterfaceType] = []
    ) throws(NetworkMonitorError) {
      self.init(
        source: try NetlinkPathSource(
          networkNamespace: networkNamespace,
          resolverConfigurationPath: Self.resolverConfigurationPath(forNamespace: networkNamespace)),
        requiredInterfaceType: requiredInterfaceType,
        prohibitedInterfaceTypes: prohibitedInterfaceTypes
      )
    }

    /// `/etc/netns/NAME/resolv.conf` for a named namespace that has one, as `ip netns exec` would use.
    static func resolverConfigurationPath(forNamespace namespace: String) -> String {
      let standard = "/etc/resolv.conf"
      guard !namespace.contains("/"), !namespace.isEmpty, namespace != ".", namespace != ".." else { return standard }
      let specific = "/etc/netns/\(namespace)/resolv.conf"
      return access(specific, F_OK) == 0 ? specific : standard
    }
  }
#endif
