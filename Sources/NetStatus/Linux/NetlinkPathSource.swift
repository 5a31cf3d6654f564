#if os(Linux)
  /// Placeholder until the rtnetlink source lands (issue 3).
  public struct NetlinkPathSource: PathSource {
    /// Creates the source.
    public init() {}
    /// Fails: not implemented yet.
    public func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
      throw .unsupportedPlatform("Linux (rtnetlink source not built yet)")
    }
  }
#endif
