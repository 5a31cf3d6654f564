#if os(Linux)
  extension NetworkMonitor {
    /// Creates a monitor of a Linux network namespace, for container hosts and tests.
    ///
    /// ```swift
    /// let monitor = try NetworkMonitor(networkNamespace: "blue")   // as `ip netns` names it
    /// try monitor.start()
    /// ```
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
        source: try NetlinkPathSource(networkNamespace: networkNamespace),
        requiredInterfaceType: requiredInterfaceType,
        prohibitedInterfaceTypes: prohibitedInterfaceTypes
      )
    }
  }
#endif
