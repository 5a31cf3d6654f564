// NWPath's newest property (iOS 26, macOS 26): the expected capabilities of the link in use, and NetStatus's own
// reading of it where Network does not run.

extension NetworkPath {
  /// The expected capabilities of the link-layer attachment of the interface in use (for a VPN, of the interface it
  /// rides on), as `NWPath.LinkQuality` says them: ``NetworkPath/linkQuality``.
  ///
  /// Use it to tune the initial values of algorithms that scale with the network (a first video bitrate, how many
  /// downloads to start at once). Do not use it to decide whether to connect, nor to override what a connection
  /// measures once it runs: a link of minimal quality may still carry what you need, and one reported good may not.
  ///
  /// On Apple platforms it is `NWPath.linkQuality` (iOS, macOS, tvOS, watchOS and visionOS 26; ``unknown``
  /// before). On Linux NetStatus reads it from what the system already follows, without changing anything: a wired
  /// Ethernet link's negotiated speed, a Wi-Fi link's signal as NetworkManager, iwd or the kernel (nl80211) report
  /// it, a cellular link's as ModemManager does (<doc:Limits> lists the thresholds and what each reading can miss).
  public enum LinkQuality: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// No measurement is available: the platform, the interface type or the driver says nothing.
    case unknown
    /// The link's quality is minimal.
    case minimal
    /// The link's quality is moderate.
    case moderate
    /// The link's quality is good.
    case good

    /// The JSON spelling: `unknown`, `minimal`, `moderate` or `good`.
    public var description: String { rawValue }
  }
}

extension NetworkPath.LinkQuality {
  /// The quality of a ``NetworkPath/Packing`` code (`0` is ``unknown``).
  @inlinable init(code: UInt32) {
    switch code {
    case 1: self = .minimal
    case 2: self = .moderate
    case 3: self = .good
    default: self = .unknown
    }
  }

  /// The quality's ``NetworkPath/Packing`` code: two bits.
  @inlinable var code: UInt32 {
    switch self {
    case .unknown: 0
    case .minimal: 1
    case .moderate: 2
    case .good: 3
    }
  }
}
