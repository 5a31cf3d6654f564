# CocoaPods spec. Keep the platforms in step with Package.swift and the README's platform table:
# Observation and ContentUnavailableView set the floor (macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1).
Pod::Spec.new do |s|
  s.name          = 'NetStatus'
  s.version       = '0.1.0'
  s.summary       = 'Whether the device is online, over what, and at which cost, the moment it changes.'
  s.description   = <<-DESC
    NetStatus watches the network path with NWPathMonitor on Apple platforms (rtnetlink on Linux) and reports it
    as a plain NetworkPath value: status, interfaces in order of preference, expensive and constrained flags.
    Observe it with closures, NotificationCenter, async sequences, Observation, Combine or SwiftUI.
  DESC
  s.homepage      = 'https://github.com/netstatus/NetStatus'
  s.license       = { :type => 'MIT', :file => 'LICENSE' }
  s.author        = { 'Seed 5d8165cc maintainers' => 'maintainers@users.noreply.a-seed-5d8165cc.example' }
  s.source        = { :git => 'https://github.com/netstatus/NetStatus.git', :tag => s.version.to_s }

  s.swift_versions = ['6.2']
  s.ios.deployment_target      = '17.0'
  s.osx.deployment_target      = '14.0'
  s.tvos.deployment_target     = '17.0'
  s.watchos.deployment_target  = '10.0'
  s.visionos.deployment_target = '1.0'

  # The library's sources: NetStatusPathModel (the path's values), NetStatusNetlink (the pure rtnetlink core, whose
  # IPAddressBytes the Apple source uses too), the modules NetStatusCore is made of (NetStatusPathSource,
  # NetStatusLinuxSource, NetStatusAppleSource, NetStatusNetworkManager, NetStatusMonitor, NetStatusConnectivity;
  # ARCHITECTURE.md, "Modules"), NetStatusCore and the thin NetStatus layer over them (NotificationCenter, Combine),
  # compiled here into one module, NetStatus. SwiftPM builds them as modules that import each other; here there are no
  # such modules, so those imports are written `#if canImport(…)` and compile to nothing, and
  # Sources/NetStatus/NetStatus.swift imports nothing. `package` declarations are visible within the one module as
  # within the package. The Linux-only sources (the system layer, NetStatusSystem; rtnetlink I/O, namespaces,
  # NetworkManager's D-Bus client, the probe's Linux transport) are gated with `#if os(Linux)` and compile to nothing
  # here; the C shim is
  # Linux-only and left out. NetStatusUI (SwiftUI) is distributed with SwiftPM only: as a subspec it would be compiled
  # into this same module, where its `import NetStatus` does not belong.
  # NetStatusTesting (ScriptedPathSource, the test double that SwiftPM ships as a product of its own) is compiled in
  # too, as it was before it moved: its one import is written `#if canImport(NetStatusCore)`, so it belongs in this
  # module, and pod users keep it under `import NetStatus` (there is no NetStatusTesting module to import here). A
  # subspec would give it no module of its own either: CocoaPods compiles a subspec into this same module.
  s.source_files = [
    'Sources/NetStatusPathModel/**/*.swift', 'Sources/NetStatusNetlink/**/*.swift', 'Sources/NetStatusSystem/**/*.swift',
    'Sources/NetStatusEventLoop/**/*.swift', 'Sources/NetStatusPathSource/**/*.swift',
    'Sources/NetStatusLinuxSource/**/*.swift', 'Sources/NetStatusAppleSource/**/*.swift',
    'Sources/NetStatusNetworkManager/**/*.swift', 'Sources/NetStatusMonitor/**/*.swift',
    'Sources/NetStatusConnectivity/**/*.swift', 'Sources/NetStatusCore/**/*.swift', 'Sources/NetStatus/**/*.swift', 'Sources/NetStatusTesting/**/*.swift',
  ]
  s.frameworks   = 'Network'
  # NetStatus uses `package` access between its modules; swiftc needs a package name for it outside SwiftPM.
  s.pod_target_xcconfig = { 'OTHER_SWIFT_FLAGS' => '-package-name NetStatus' }
end
