#if os(Linux)
  import NetStatusSystem
  import NetStatusNetlink
  import Glibc
  extension NetlinkPathSource {
    /// `rtnetlink`, always active: the kernel's own routing decision is the path's source on Linux. Then, where
    /// systemd-networkd's state applies (the process's own namespace, or a root configured for it),
    /// `systemd-networkd`: active while its per-link files are read, or why they are not (``networkd``).
    package var sourceDiagnostics: [SourceDiagnostic] {
      var sources = [SourceDiagnostic(name: "rtnetlink", provides: "paths", status: .active)]
      let networkd = self.networkd
      // A monitor of a namespace given by name says nothing of networkd; one of the process's own namespace says
      // why it does not apply networkd's state when that namespace is not PID 1's (SystemNamespace.swift).
      if networkd.use != .otherNamespace || namespace == nil {
        let status: SourceDiagnostic.Status
        switch networkd.use {
        case .inUse: status = .active
        case .otherNamespace:
          status = .unavailable(
            reason:
              "not applied: this process's network namespace is not the one systemd-networkd and NetworkManager "
              + "manage (PID 1's)")
        case .namespaceUnverified:
          status = .unavailable(
            reason:
              "not applied: this network namespace cannot be shown to be the one systemd-networkd and NetworkManager "
              + "manage (PID 1's: /proc/1/ns/net and /proc/1/net/netlink unreadable)")
        case .folderMissing:
          status = .unavailable(
            reason: "systemd-networkd is not running (no \(networkd.root ?? "/run/systemd/netif")/links)")
        case .notRunning:
          status = .unavailable(
            reason:
              "systemd-networkd is not running (what \(networkd.root ?? "/run/systemd/netif") holds is left from an "
              + "earlier run or from its package, and is not read)")
        case let other: status = .unavailable(reason: "\(other)")
        }
        sources.append(
          SourceDiagnostic(name: "systemd-networkd", provides: "link states, advertised captive portal", status: status)
        )
      }
      if let family = statistics.wirelessFamily { sources.append(Self.wirelessDiagnostic(family)) }
      return sources
    }

    /// `nl80211`, once a session followed a Wi-Fi link (NetlinkSessionWorker+Wireless.swift): active while its
    /// signal is read, or why it is not.
    static func wirelessDiagnostic(_ family: WirelessSignalTracker.Family) -> SourceDiagnostic {
      let status: SourceDiagnostic.Status
      switch family {
      case .resolved, .resolving: status = .active
      case .unknown: status = .unavailable(reason: "no Wi-Fi link to read")
      case .missing(let errno) where errno == ENOENT:
        status = .unavailable(reason: "not in this kernel (cfg80211 is not loaded): Wi-Fi links are rated unknown")
      case .missing(let errno):
        status = .unavailable(
          reason: "generic netlink failed (\(Errno(rawValue: errno))): Wi-Fi links are rated unknown")
      }
      return SourceDiagnostic(name: "nl80211", provides: "Wi-Fi signal", status: status)
    }

    /// The captive-portal API URL systemd-networkd recorded for the link (`CAPTIVE_PORTAL=`), if it did.
    package func advertisedCaptivePortal(interfaceIndex: Int) -> String? {
      guard let index = Int32(exactly: interfaceIndex) else { return nil }
      return networkd.links[index]?.captivePortal
    }
  }
#endif
