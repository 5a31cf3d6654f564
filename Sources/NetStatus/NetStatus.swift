// The NetStatus module: all of NetStatusCore (Sources/NetStatusCore), plus what needs Foundation, the
// NotificationCenter API (ConnectivityNotification.swift) and, on Apple platforms, the Combine publisher
// (NetworkMonitor+Combine.swift). `import NetStatus` gives the whole API; `import NetStatusCore` gives it without
// Foundation, as `netstatus` uses it.
//
// CocoaPods compiles this directory, NetStatusCore's and those of the modules NetStatusCore builds on into one module,
// NetStatus (NetStatus.podspec): there is nothing to import.
#if canImport(NetStatusCore)
  @_exported import NetStatusCore
#endif
