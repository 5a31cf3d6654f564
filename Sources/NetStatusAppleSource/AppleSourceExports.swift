// A source is made of the types NetStatusPathSource defines (the PathSource protocol, its sink, the errors and
// diagnostics a source reports): this module re-exports it, so that its files and its users see them without an
// import each. CocoaPods compiles every source into one module, where there is no such module to import.
#if canImport(NetStatusPathSource)
  @_exported import NetStatusPathSource
#endif
