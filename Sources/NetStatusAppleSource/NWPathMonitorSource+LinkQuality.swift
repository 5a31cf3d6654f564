#if canImport(Network)
  import Network

  // On Linux this same file is compiled outside the NetStatus module, against a stand-in of Network, for the tests
  // (see Package.swift and Tests/NetworkStandIn).
  #if NETSTATUS_NETWORK_STAND_IN
    import NetStatusCore
  #endif

  // NWPath's newest properties (26 on every platform), read only where this system's Network has them.
  extension NWPathMonitorSource {
    /// Whether this system's Network has `NWPath.linkQuality` and `isUltraConstrained` (26 on every platform).
    static var networkHasLinkQuality: Bool {
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return true }
      return false
    }

    /// `NWPath.linkQuality` where Network has it (`reads`: ``networkHasLinkQuality``, which tests set),
    /// ``NetworkPath/LinkQuality/unknown`` before.
    static func linkQuality(of path: NWPath, reads: Bool = networkHasLinkQuality) -> NetworkPath.LinkQuality {
      guard reads, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
        return .unknown
      }
      return linkQuality(path.linkQuality)
    }

    /// NetStatus's link quality for Network's. A quality added to Network later is one NetStatus does not know:
    /// `unknown`.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    static func linkQuality(_ quality: NWPath.LinkQuality) -> NetworkPath.LinkQuality {
      switch quality {
      case .unknown: return .unknown
      case .minimal: return .minimal
      case .moderate: return .moderate
      case .good: return .good
      @unknown default: return .unknown
      }
    }

    /// `NWPath.isUltraConstrained` where Network has it (`reads`: ``networkHasLinkQuality``), `false` before.
    static func isUltraConstrained(_ path: NWPath, reads: Bool = networkHasLinkQuality) -> Bool {
      guard reads, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else { return false }
      return path.isUltraConstrained
    }
  }
#endif
