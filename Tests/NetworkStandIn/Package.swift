// swift-tools-version: 6.0
import PackageDescription

// The Network stand-in as a package of its own (Tests/NetworkStandIn/README.md): a separately compiled, resilient
// module (library evolution) in another package, as Apple's Network framework is to NetStatus, so that what the
// real SDK rejects (a switch over one of its enums without `@unknown default`, a use of a test hook) fails here too.
// The root Package.swift uses it on Linux only.
let package = Package(
  name: "NetworkStandIn",
  products: [
    .library(name: "Network", targets: ["Network"])
  ],
  targets: [
    .target(
      name: "Network",
      path: ".",
      exclude: ["README.md", "Package.swift"],
      swiftSettings: [
        // Linux's Dispatch and Foundation are not built with library evolution, so each import warns that the
        // stand-in's binary compatibility cannot be guaranteed (no such guarantee is wanted); those are its only
        // warnings, and a build with any warning fails CI.
        .unsafeFlags(["-enable-library-evolution", "-suppress-warnings"])
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
