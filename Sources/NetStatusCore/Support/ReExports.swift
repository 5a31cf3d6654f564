// The path's public values live in a module of their own, NetStatusPathModel, so that the rtnetlink core
// (NetStatusNetlink) can make paths without the rest of the library (ARCHITECTURE.md, "Layers"). NetStatusCore
// re-exports it: `import NetStatusCore` (and `import NetStatus`) give them as before, and the documentation lists them
// under NetStatus. CocoaPods compiles every source into one module, where there is no such module to import.
#if canImport(NetStatusPathModel)
  @_exported import NetStatusPathModel
#endif
// The system's error numbers (`Errno`, in NetStatusSystem with the system layer that throws them) are part of
// `NetworkMonitorError`: re-exported too, the one public declaration of that module.
#if canImport(NetStatusSystem)
  @_exported import NetStatusSystem
#endif
