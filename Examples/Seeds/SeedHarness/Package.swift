// swift-tools-version: 6.0
import PackageDescription

// What the seed examples share with the driver that runs them (Scripts/run-seed-examples.py): not part of any
// example's flow. Linux only, as the driver is.
let package = Package(
  name: "SeedHarness",
  products: [.library(name: "SeedHarness", targets: ["SeedHarness"])],
  targets: [.target(name: "SeedHarness")],
  swiftLanguageModes: [.v6]
)
