extension NetworkMonitor {
  /// The sources this monitor draws on, and whether each is in use now or why not.
  ///
  /// On Linux a monitor of the process's own namespace (``NetworkMonitor/init()``, ``shared``) lists the kernel's
  /// rtnetlink source and NetworkManager (metered devices, connectivity, Wi-Fi signal), which it follows over D-Bus
  /// when libsystemd, the system bus and NetworkManager are there; a monitor of another namespace lists rtnetlink
  /// alone; any other source says what ``PathSource/sourceDiagnostics`` says. A source that is missing is never an
  /// error: its entry says why it is unavailable.
  ///
  /// ```swift
  /// NetworkMonitor.shared.startMonitoring()
  /// for source in NetworkMonitor.shared.sourceDiagnostics where !source.isActive {
  ///     // "NetworkManager (metered devices, connectivity, Wi-Fi signal): unavailable: NetworkManager is not running…"
  ///     print(source)
  /// }
  /// ```
  public var sourceDiagnostics: [SourceDiagnostic] { source.sourceDiagnostics }
}
