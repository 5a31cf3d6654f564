// A connectivity monitor follows a path monitor (NetStatusMonitor), whose types are part of its API: this module
// re-exports it. CocoaPods compiles every source into one module, where there is no such module to import.
#if canImport(NetStatusMonitor)
  @_exported import NetStatusMonitor
#endif
