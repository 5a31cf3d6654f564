// swift-tools-version: 6.0
import PackageDescription

// Seed 002, "Reacting to Network changes in SwiftUI" (an AsyncStream of the network status and a `.needsInternet()`
// modifier): a consumer of NetStatus, by path, as an app's package is (Examples/Seeds/README.md).
let package = Package(
  name: "NetworkUpdates",
  dependencies: [.package(name: "NetStatus", path: "../../.."), .package(path: "../SeedHarness")],
  targets: [
    .executableTarget(
      name: "NetworkUpdates",
      dependencies: [.product(name: "NetStatus", package: "NetStatus"), "SeedHarness"]
    )
  ],
  swiftLanguageModes: [.v6]
)
