// swift-tools-version: 6.0
import PackageDescription

// Seed 000, "Check network connection with NWPathMonitor": a consumer of NetStatus, by path, as an app's package
// is (Examples/Seeds/README.md).
let package = Package(
  name: "SharedMonitor",
  dependencies: [.package(name: "NetStatus", path: "../../.."), .package(path: "../SeedHarness")],
  targets: [
    .executableTarget(
      name: "SharedMonitor",
      dependencies: [.product(name: "NetStatus", package: "NetStatus"), "SeedHarness"]
    )
  ],
  swiftLanguageModes: [.v6]
)
