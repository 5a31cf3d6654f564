#if os(Linux)
  import Glibc
  import NetStatusNetlink

  // Where a namespace's users find their resolvers: what a Linux source of that namespace reads
  // (Sources/NetStatusMonitor/Monitor/NetworkMonitor+Namespace.swift) and what `show --all` lists
  // (LinkInventory+Linux.swift).
  extension ResolverConfiguration {
    /// The resolver configuration of a namespace: `/proc/PID/root/etc/resolv.conf` for `/proc/PID/ns/net`;
    /// `/etc/netns/NAME/resolv.conf` for a named namespace that has one, as `ip netns exec` would use; otherwise
    /// `/etc/resolv.conf`.
    package static func configurationPath(forNamespace namespace: String) -> String {
      let standard = "/etc/resolv.conf"
      if let pid = ProcessNamespacePath.processID(in: namespace) {
        return ProcessNamespacePath.root(of: pid) + standard
      }
      guard !namespace.contains("/"), !namespace.isEmpty, namespace != ".", namespace != ".." else { return standard }
      let specific = "/etc/netns/\(namespace)/resolv.conf"
      return SystemName.withCString(specific) { access($0, F_OK) } == 0 ? specific : standard
    }

    /// systemd-resolved's upstream list as the namespace's users see it: the process's own
    /// (`/proc/PID/root/run/systemd/resolve/resolv.conf`) for `/proc/PID/ns/net`, the host's otherwise (the
    /// list `ip netns exec` would show).
    package static func resolvedUpstreamPath(forNamespace namespace: String) -> String {
      let host = systemdResolvedUpstreamPath
      guard let pid = ProcessNamespacePath.processID(in: namespace) else { return host }
      return ProcessNamespacePath.root(of: pid) + host
    }
  }
#endif
