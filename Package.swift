// swift-tools-version: 6.2
import PackageDescription

// Whether the package is built for Linux. The manifest is read on the host, so `#if os(Linux)` names the host, not the
// platform built for; the one build that differs is the Apple build on Linux (Scripts/check-apple-build.sh), which
// compiles for an Apple triple against a stand-in SDK and sets NETSTATUS_APPLE_STAND_IN_SDK so that this manifest
// describes the package as it is on a Mac.
#if os(Linux)
  let buildsForLinux = Context.environment["NETSTATUS_APPLE_STAND_IN_SDK"] == nil
#else
  let buildsForLinux = false
#endif

// On Linux, NetStatusConnectivity leaves out its one Apple-only source, and NetStatusAppleSource (all Apple) is no
// part of the package; see the end of this file.
let connectivityLinuxExcludes = buildsForLinux ? ["Probe/Apple/NWConnectionProbeTransport.swift"] : []
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]
// NetStatusAppleSource, for those that build on it; not declared on Linux (the end of this file).
let appleSource: [Target.Dependency] =
  buildsForLinux ? [] : [.target(name: "NetStatusAppleSource", condition: .when(platforms: applePlatforms))]

let package = Package(
  name: "NetStatus",
  defaultLocalization: "en",
  platforms: [
    // Observation (NetworkStatusModel) and ContentUnavailableView (NetStatusUI) set the floor: macOS 14, iOS 17,
    // tvOS 17, watchOS 10, visionOS 1. The lock is an OSAllocatedUnfairLock there (macOS 13, iOS 16), not a `Mutex`
    // (macOS 15, iOS 18): Sources/NetStatusPathSource/Support/Mutex+ThreadSanitizer.swift. Keep NetStatus.podspec
    // and the README's platform table in step with this list.
    .macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1),
  ],
  products: [
    .library(name: "NetStatus", targets: ["NetStatus"]),
    // The same API without NotificationCenter and Combine, and on Linux without Foundation: what `netstatus` links.
    // (On Apple platforms it imports Foundation, Network and UIKit or AppKit.)
    .library(name: "NetStatusCore", targets: ["NetStatusCore"]),
    .library(name: "NetStatusUI", targets: ["NetStatusUI"]),
    // Test doubles (ScriptedPathSource), apart from the library as swift-nio keeps NIOEmbedded: for test targets and
    // previews, so that an app's shipping code does not link them.
    .library(name: "NetStatusTesting", targets: ["NetStatusTesting"]),
    .executable(name: "netstatus", targets: ["netstatus"]),
  ],
  targets: [
    .target(
      name: "CNetStatusShim",
      path: "Sources/CNetStatusShim"
    ),
    // The public values of the path (NetworkPath, NetworkInterface, InterfaceType, InterfaceFilter): a module of
    // their own so that the rtnetlink core below can make paths without the rest of the library. NetStatusCore
    // re-exports it (`@_exported import`): users and the documentation see one module (ARCHITECTURE.md, "Layers").
    .target(
      name: "NetStatusPathModel",
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The rtnetlink core: message types, decoder, dump protocol, mirrored state, route lookups, path evaluator.
    // Pure (no I/O, no C library), on every platform, so it is unit-tested without root and fuzzed
    // (Tests/NetStatusNetlinkTests, Fuzz/README.md). Internal: no product; NetStatusCore uses its `package` API.
    .target(
      name: "NetStatusNetlink",
      dependencies: ["NetStatusPathModel"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The system layer on Linux: typed `Errno` and the one system-call helper, owning descriptors and eventfds,
    // threads, the netlink socket, inotify, namespace files.
    // It throws its own errors (`SystemCallError`); NetStatusCore turns them into `NetworkMonitorError` or probe
    // failures at its edges. Every file but Errno.swift is gated with `#if os(Linux)`: elsewhere the module holds only
    // `Errno`, public (a `NetworkMonitorError` carries one) and re-exported by NetStatusCore.
    .target(
      name: "NetStatusSystem",
      dependencies: [
        "NetStatusNetlink", .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The rtnetlink event loop's state machine (HubStateMachine): what the loop knows and what each event makes it
    // do, without I/O, so that it is unit-tested on every platform (Tests/NetStatusEventLoopTests). Internal: no
    // product; NetStatusCore's Linux event loop drives it.
    .target(
      name: "NetStatusEventLoop",
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // What a source is: the PathSource protocol and its sink, the errors and diagnostics a source reports, and the
    // lock, threads and files every module above uses.
    .target(
      name: "NetStatusPathSource",
      dependencies: [
        // NetStatusSystem on every platform for `Errno` (public, re-exported); the rest of it is Linux's.
        "NetStatusPathModel", "NetStatusSystem",
        .target(name: "NetStatusNetlink", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The Linux source: rtnetlink sessions on one event loop thread (the hub), network namespaces, and
    // systemd-networkd's state files. The link inventory and networkd's states are plain values on every platform;
    // the rest is gated with `#if os(Linux)`.
    .target(
      name: "NetStatusLinuxSource",
      dependencies: [
        "NetStatusPathSource", "NetStatusNetlink",
        .target(name: "NetStatusEventLoop", condition: .when(platforms: [.linux])),
        .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // NetworkManager over D-Bus: its metered view of the path (a source wrapping the Linux one) and its connectivity
    // check, mirrored.
    .target(
      name: "NetStatusNetworkManager",
      dependencies: [
        "NetStatusPathSource", "NetStatusLinuxSource",
        .target(name: "NetStatusNetlink", condition: .when(platforms: [.linux])),
        .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The monitor: NetworkMonitor and its ways of observing (fan-out, sequences, closures), settled paths, and the
    // platform's default source (the Linux one, NetworkManager's view of it, or NWPathMonitor's).
    .target(
      name: "NetStatusMonitor",
      dependencies: [
        "NetStatusPathSource", "NetStatusLinuxSource", "NetStatusNetworkManager",
        .target(name: "NetStatusNetlink", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ] + appleSource,
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // Whether the Internet answers: ConnectivityMonitor, its probe (DNS, HTTP, the classifier), or NetworkManager's
    // check.
    .target(
      name: "NetStatusConnectivity",
      dependencies: [
        "NetStatusMonitor", "NetStatusNetworkManager", "NetStatusLinuxSource",
        .target(name: "NetStatusNetlink", condition: .when(platforms: [.linux])),
        .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ] + appleSource,
      exclude: connectivityLinuxExcludes,
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // The library without NotificationCenter and Combine; on Linux, without Foundation: the modules above,
    // re-exported, and what joins them (the platform's default source, a monitor of a namespace, JSON, the
    // Observation model).
    .target(
      name: "NetStatusCore",
      dependencies: [
        "NetStatusPathModel", "NetStatusSystem", "NetStatusPathSource", "NetStatusLinuxSource",
        "NetStatusNetworkManager", "NetStatusMonitor", "NetStatusConnectivity",
        .target(name: "NetStatusNetlink", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ] + appleSource,
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // NetStatusCore re-exported, plus what needs Foundation: the NotificationCenter API and (Apple) Combine.
    .target(
      name: "NetStatus",
      dependencies: ["NetStatusCore"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // SwiftUI views and modifiers. Every file is gated with `#if canImport(SwiftUI)`: on Linux the module is empty.
    // Its words are package resources (`bundle: .module`), in English and Traditional Chinese.
    .target(
      name: "NetStatusUI",
      dependencies: ["NetStatus"],
      resources: [.process("Resources")],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    // Test doubles: ScriptedPathSource. It builds on NetStatusCore (`Locked` is `package` there); the library never
    // depends on it.
    .target(
      name: "NetStatusTesting",
      dependencies: ["NetStatusCore"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    .target(
      name: "NetStatusCLI",
      dependencies: [
        // Names as bytes (SystemName): the arguments, and the files they name.
        "NetStatusCore", "NetStatusNetlink",
        // Stop signals through a signalfd of its own (StopSignalDelivery+Linux.swift).
        .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
        .target(name: "CNetStatusShim", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ),
    .executableTarget(
      name: "netstatus",
      dependencies: ["NetStatusCLI"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The Apple source: NWPathMonitor behind the PathSource protocol. Apple platforms only: on Linux there is no Network
// framework, and the stand-in below must never be seen by the library, so the target is not declared there (the
// test target NetStatusAppleLogic compiles the same files against the stand-in).
if !buildsForLinux {
  package.targets.append(
    .target(
      name: "NetStatusAppleSource",
      dependencies: ["NetStatusPathSource"],
      swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
    ))
}

// The test targets and what only they use. On Apple platforms they are left out unless NETSTATUS_APPLE_TESTS is set
// (`NETSTATUS_APPLE_TESTS=1 swift test` on a Mac, as .github/workflows/apple.yml runs them): they need the whole of
// Foundation and Swift Testing for an Apple target, which the Apple build on Linux (Scripts/check-apple-build.sh)
// does not have, so on a Mac they are compiled for the first time, unverified; a library user's build never needs
// them.
if buildsForLinux || Context.environment["NETSTATUS_APPLE_TESTS"] != nil {
  package.targets += [
    // Await-with-timeout helpers shared by the test targets.
    .target(
      name: "NetStatusTestSupport",
      dependencies: ["NetStatusCore"],
      path: "Tests/NetStatusTestSupport"
    ),
    // Reading /proc in the tests and their child processes without Foundation (Tests/ProcFileSupport says why).
    .target(
      name: "ProcFileSupport",
      path: "Tests/ProcFileSupport"
    ),
    // What the fuzzer runs on each input (Fuzz/README.md), also replayed by the tests over the committed corpus.
    .target(
      name: "NetStatusNetlinkFuzzing",
      dependencies: ["NetStatusNetlink"],
      path: "Fuzz/NetlinkFuzzing"
    ),
    // Builds rtnetlink messages for tests.
    .target(
      name: "NetlinkTestSupport",
      dependencies: ["NetStatusNetlink"],
      path: "Tests/NetlinkTestSupport"
    ),
    // The event loop's state machine, driven by hand: every platform, no I/O.
    .testTarget(
      name: "NetStatusEventLoopTests",
      dependencies: ["NetStatusEventLoop"]
    ),
    // The rtnetlink core's unit tests: every platform, no root, no I/O.
    .testTarget(
      name: "NetStatusNetlinkTests",
      dependencies: ["NetStatusNetlink", "NetStatusNetlinkFuzzing", "NetlinkTestSupport"]
    ),
    // Each module's unit tests, linking that module (and the test support): every platform, no root, no network
    // namespace, no child process. A test of Linux-only code is gated with `#if os(Linux)`.
    .testTarget(
      name: "NetStatusPathModelTests",
      dependencies: ["NetStatusPathModel"]
    ),
    .testTarget(
      name: "NetStatusMonitorTests",
      // NetStatus only to turn notifications off (`postsNotifications`) where a test counts a monitor's subscribers:
      // the test bundle is one process, and once a suite has used the notification's name, every monitor posts.
      dependencies: ["NetStatusMonitor", "NetStatusTesting", "NetStatusTestSupport", "NetStatus"]
    ),
    .testTarget(
      name: "NetStatusLinuxSourceTests",
      dependencies: [
        "NetStatusLinuxSource", "NetStatusNetlink", "NetStatusTestSupport",
        .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
      ]
    ),
    .testTarget(
      name: "NetStatusNetworkManagerTests",
      dependencies: ["NetStatusNetworkManager", "NetStatusTesting"]
    ),
    .testTarget(
      name: "NetStatusConnectivityTests",
      dependencies: [
        "NetStatusConnectivity", "NetStatusMonitor", "NetStatusTesting", "NetStatusTestSupport", "NetlinkTestSupport",
        // NetStatus only to turn notifications off (`postsNotifications`) where a test counts a monitor's subscribers
        // or references: the test bundle is one process, and once a suite has used the notification's name, every
        // monitor posts.
        "NetStatus",
        .target(name: "NetStatusLinuxSource", condition: .when(platforms: [.linux])),
      ]
    ),
    // The unit tests of the rest (the CLI, the NetStatus module, the documentation's promises): every platform, no
    // root, no network namespace, no child process (it does not link NetStatusLinuxTestSupport). A test of Linux-only
    // code is gated with `#if os(Linux)`. The tests that need Linux are targets of their own, at the end of this file
    // (ARCHITECTURE.md, "Tests").
    .testTarget(
      name: "NetStatusTests",
      dependencies: [
        "NetStatus", "NetStatusCore", "NetStatusNetlink", "NetStatusCLI", "NetStatusTesting", "NetStatusTestSupport",
        "NetlinkTestSupport", .target(name: "NetStatusSystem", condition: .when(platforms: [.linux])),
      ]
    ),
  ]
}

// The Apple-only sources, NWPathMonitorSource.swift and NWConnectionProbeTransport.swift, cannot be compiled into
// NetStatusCore on Linux: there is no Network framework, and the stand-in below must never be seen by the library
// (SwiftPM puts every module of the package in one directory, so `canImport(Network)` could turn true). So on Linux
// the library leaves the files out, and a test-support target compiles the very same files (symlinks) against the
// stand-in.
if buildsForLinux {
  // A stand-in of the part of Apple's Network framework that NWPathMonitorSource uses, with Apple's documented
  // signatures, plus test hooks. A package of its own (Tests/NetworkStandIn/Package.swift), so that it is compiled as
  // Apple's framework is to NetStatus: a resilient module of another package. Its module is named `Network` so that
  // the unchanged source file imports it. Linux only: on Apple platforms a module named `Network` would shadow the
  // real framework.
  package.dependencies += [.package(path: "Tests/NetworkStandIn")]
  package.targets += [
    // NWPathMonitorSource.swift and NWConnectionProbeTransport.swift compiled against the stand-in (the files in
    // Tests/NetStatusAppleLogic are symlinks to those in Sources/NetStatusAppleSource and
    // Sources/NetStatusConnectivity/Probe/Apple).
    .target(
      name: "NetStatusAppleLogic",
      dependencies: ["NetStatusCore", "NetStatusNetlink", .product(name: "Network", package: "NetworkStandIn")],
      path: "Tests/NetStatusAppleLogic",
      swiftSettings: [.define("NETSTATUS_NETWORK_STAND_IN"), .enableUpcomingFeature("ExistentialAny")]
    ),
    .testTarget(
      name: "NetStatusAppleLogicTests",
      dependencies: [
        "NetStatusAppleLogic", "NetStatusCore", .product(name: "Network", package: "NetworkStandIn"),
        "NetStatusTesting", "NetStatusTestSupport",
        "NetStatusLinuxTestSupport", "ProcFileSupport",
      ]
    ),
    // The libFuzzer target over the rtnetlink core (Fuzz/README.md), which it links directly, without the library. An
    // ordinary build replays files through it; built with `-Xswiftc -sanitize=fuzzer,address`, it runs libFuzzer.
    .target(
      name: "NetlinkFuzzerSupport",
      path: "Fuzz/NetlinkFuzzerSupport"
    ),
    .executableTarget(
      name: "netlink-fuzzer",
      dependencies: ["NetStatusNetlink", "NetStatusNetlinkFuzzing", "NetlinkFuzzerSupport"],
      path: "Fuzz/NetlinkFuzzer"
    ),
    // Benchmarks (Benchmarks/README.md; run them with Benchmarks/run.sh): Linux only, they make network namespaces.
    .executableTarget(
      name: "netstatus-bench",
      dependencies: ["NetStatusCore", "NetStatusTesting", .target(name: "CNetStatusShim")],
      path: "Benchmarks/Sources/netstatus-bench"
    ),
    .executableTarget(
      name: "netstatus-bench-hello",
      path: "Benchmarks/Sources/netstatus-bench-hello"
    ),
    // The same without Foundation: the floor of netstatus, which links no Foundation (also built static).
    .executableTarget(
      name: "netstatus-bench-hello-core",
      path: "Benchmarks/Sources/netstatus-bench-hello-core"
    ),
    // The soak test's child (Tests/NetStatusSoak/main.swift says why it exists): start/stop cycles in a process of
    // their own, so that the memory they measure is theirs alone. Linux only: it watches a network namespace.
    .executableTarget(
      name: "netstatus-soak",
      dependencies: ["NetStatusCore", "ProcFileSupport"],
      path: "Tests/NetStatusSoak"
    ),
    // What other kernel tests run in a process of their own (Tests/NetStatusTestChild/main.swift says what and why).
    .executableTarget(
      name: "netstatus-test-child",
      dependencies: ["NetStatus", "NetStatusTesting", "ProcFileSupport", "CNetStatusShim"],
      path: "Tests/NetStatusTestChild"
    ),
    // What the Linux-only test targets below share: child processes, network namespaces, the probe's test servers,
    // the built `netstatus` (Tests/NetStatusLinuxTestSupport).
    .target(
      name: "NetStatusLinuxTestSupport",
      dependencies: ["NetStatusCore", "NetStatusTestSupport", "ProcFileSupport"],
      path: "Tests/NetStatusLinuxTestSupport"
    ),
    // The tests by kind that need Linux (ARCHITECTURE.md, "Tests"). Each runs what it needs from beside its test
    // bundle, so builds it with the tests: `netstatus`, `netstatus-soak`, `netstatus-test-child`.
    // Kernel tests: rtnetlink, network namespaces they make (root), inotify, descriptors and sockets.
    .testTarget(
      name: "NetStatusKernelTests",
      dependencies: [
        "NetStatus", "NetStatusCore", "NetStatusNetlink", "NetStatusSystem", "NetStatusTestSupport",
        "NetlinkTestSupport",
        "NetStatusLinuxTestSupport", "ProcFileSupport", "netstatus", "netstatus-soak", "netstatus-test-child",
      ]
    ),
    // End-to-end tests: the built `netstatus` (and the static one, the install script, the shells' completions,
    // Prometheus) run as a user runs them.
    .testTarget(
      name: "NetStatusEndToEndTests",
      dependencies: [
        "NetStatusCore", "NetStatusCLI", "NetStatusTestSupport", "NetStatusLinuxTestSupport", "ProcFileSupport",
        "NetlinkTestSupport", "netstatus",
      ]
    ),
    // NetworkManager over D-Bus: python3-dbusmock's template on a private bus, and a real NetworkManager.
    .testTarget(
      name: "NetStatusDBusTests",
      dependencies: [
        "NetStatus", "NetStatusCore", "NetStatusTestSupport", "NetStatusLinuxTestSupport", "ProcFileSupport",
        "netstatus",
      ]
    ),
  ]
}
