// NetStatusCore is the library without NotificationCenter and Combine, made of modules by concept
// (ARCHITECTURE.md, "Modules"): the path's values (NetStatusPathModel), the system's error numbers
// (NetStatusSystem), what a source is (NetStatusPathSource), the monitor (NetStatusMonitor), connectivity
// (NetStatusConnectivity), NetworkManager (NetStatusNetworkManager) and the platform's source (NetStatusLinuxSource,
// NetStatusAppleSource). It re-exports them: `import NetStatusCore` (and `import NetStatus`) give all their public
// API, and the documentation lists it under NetStatus. CocoaPods compiles every source into one module, where there
// is no such module to import.
#if canImport(NetStatusPathModel)
  @_exported import NetStatusPathModel
#endif
#if canImport(NetStatusSystem)
  @_exported import NetStatusSystem
#endif
#if canImport(NetStatusPathSource)
  @_exported import NetStatusPathSource
#endif
#if canImport(NetStatusMonitor)
  @_exported import NetStatusMonitor
#endif
#if canImport(NetStatusConnectivity)
  @_exported import NetStatusConnectivity
#endif
#if canImport(NetStatusNetworkManager)
  @_exported import NetStatusNetworkManager
#endif
#if canImport(NetStatusLinuxSource)
  @_exported import NetStatusLinuxSource
#endif
#if canImport(NetStatusAppleSource)
  @_exported import NetStatusAppleSource
#endif
