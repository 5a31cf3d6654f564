// The monitor is fed by a source and publishes its paths: its API is made of NetStatusPathSource's types, which this
// module re-exports. CocoaPods compiles every source into one module, where there is no such module to import.
#if canImport(NetStatusPathSource)
  @_exported import NetStatusPathSource
#endif
