#if os(Linux)
  extension NetlinkPathSource {
    /// One entry, `rtnetlink`, active: the kernel's own routing decision is always the path's source on Linux.
    public var sourceDiagnostics: [SourceDiagnostic] {
      [SourceDiagnostic(name: "rtnetlink", provides: "paths", status: .active)]
    }
  }
#endif
