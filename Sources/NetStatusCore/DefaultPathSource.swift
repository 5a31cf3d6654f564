/// The path source a ``NetworkMonitor`` uses when none is given: the kernel (rtnetlink) on Linux,
/// `NWPathMonitor` on Apple platforms.
func makeDefaultPathSource() -> any PathSource {
  #if os(Linux)
    return NetlinkPathSource()
  #elseif canImport(Network)
    return NWPathMonitorSource()
  #else
    return UnsupportedPathSource()
  #endif
}

/// A source for platforms NetStatus does not support: starting it fails with a clear error.
struct UnsupportedPathSource: PathSource {
  func start(filter: InterfaceFilter, sink: PathSink) throws(NetworkMonitorError) -> any PathSourceSession {
    throw .unsupportedPlatform("this operating system")
  }
}
