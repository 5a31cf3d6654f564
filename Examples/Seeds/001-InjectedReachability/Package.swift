// swift-tools-version: 6.0
import PackageDescription

// Seed 001, "How to Check Network Connection in SwiftUI Using NWPathMonitor": a consumer of NetStatus, by path, as an
// app's package is (Examples/Seeds/README.md).
let package = Package(
  name: "InjectedReachability",
  dependencies: [.package(name: "NetStatus", path: "../../.."), .package(path: "../SeedHarness")],
  targets: [
    // The feature: what the tutorial's view reads, behind the protocol it injects.
    .target(name: "ReachabilityFeature", dependencies: [.product(name: "NetStatus", package: "NetStatus")]),
    .executableTarget(name: "InjectedReachability", dependencies: ["ReachabilityFeature", "SeedHarness"]),
    // The test drives the network with ScriptedPathSource, a test double: NetStatusTesting, which only the tests link.
    .testTarget(
      name: "ReachabilityFeatureTests",
      dependencies: [
        "ReachabilityFeature", .product(name: "NetStatus", package: "NetStatus"),
        .product(name: "NetStatusTesting", package: "NetStatus"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
