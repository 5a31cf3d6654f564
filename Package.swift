// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "NetStatus",
  platforms: [
    // `Mutex` (Synchronization) sets the floor: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  products: [
    .library(name: "NetStatus", targets: ["NetStatus"]),
    .executable(name: "netstatus", targets: ["netstatus"]),
  ],
  targets: [
    .target(
      name: "CNetStatusShim",
      path: "Sources/CNetStatusShim"
    ),
    .target(
      name: "NetStatus",
      dependencies: [
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux]))
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    .target(
      name: "NetStatusCLI",
      dependencies: ["NetStatus"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    .executableTarget(
      name: "netstatus",
      dependencies: ["NetStatusCLI"]
    ),
    .testTarget(
      name: "NetStatusTests",
      dependencies: ["NetStatus", "NetStatusCLI", "netstatus"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
