// A source's interface is made of the path's values (NetStatusPathModel) and the system's error numbers (`Errno`, in
// NetStatusSystem, carried by `NetworkMonitorError`): this module re-exports both, so that every module built on it
// sees them as its own. CocoaPods compiles every source into one module, where there is no such module to import.
#if canImport(NetStatusPathModel)
  @_exported import NetStatusPathModel
#endif
#if canImport(NetStatusSystem)
  @_exported import NetStatusSystem
#endif
