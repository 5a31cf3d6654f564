// swift-tools-version: 6.0
import PackageDescription

// Seed 003, "利用 Network Framework 輕易監控網路狀態變化" (a NetStatus singleton and a table of the path): a consumer
// of NetStatus, by path, as an app's package is (Examples/Seeds/README.md).
let package = Package(
  name: "NetStatusSingleton",
  dependencies: [.package(name: "NetStatus", path: "../../.."), .package(path: "../SeedHarness")],
  targets: [
    .executableTarget(
      name: "NetStatusSingleton",
      dependencies: [.product(name: "NetStatus", package: "NetStatus"), "SeedHarness"]
    )
  ],
  swiftLanguageModes: [.v6]
)
