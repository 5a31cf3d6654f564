#if os(Linux)
  import NetStatusSystem
  extension NetlinkPathSource {
    /// `rtnetlink`, always active: the kernel's own routing decision is the path's source on Linux. Then, where
    /// systemd-networkd's state applies (the process's own namespace, or a root configured for it),
    /// `systemd-networkd`: active while its per-link files are read, or why they are not (``networkd``).
    public var sourceDiagnostics: [SourceDiagnostic] {
      var sources = [SourceDiagnostic(name: "rtnetlink", provides: "paths", status: .active)]
      let networkd = self.networkd
      if networkd.use != .otherNamespace {
        let status: SourceDiagnostic.Status
        switch networkd.use {
        case .inUse: status = .active
        case .folderMissing:
          status = .unavailable(
            reason: "systemd-networkd is not running (no \(networkd.root ?? "/run/systemd/netif")/links)")
        case let other: status = .unavailable(reason: "\(other)")
        }
        sources.append(
          SourceDiagnostic(name: "systemd-networkd", provides: "link states, advertised captive portal", status: status)
        )
      }
      return sources
    }

    /// The captive-portal API URL systemd-networkd recorded for the link (`CAPTIVE_PORTAL=`), if it did.
    public func advertisedCaptivePortal(interfaceIndex: Int) -> String? {
      guard let index = Int32(exactly: interfaceIndex) else { return nil }
      return networkd.links[index]?.captivePortal
    }
  }
#endif
