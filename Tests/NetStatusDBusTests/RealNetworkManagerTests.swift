import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

@testable import NetStatusCore

/// `netstatus` against a real NetworkManager (Debian's `network-manager`, unpacked, not installed: `.ci/run` runs
/// `apt-get download network-manager` and `dpkg -x`, and names the folder in NETSTATUS_NETWORKMANAGER_ROOT).
///
/// NetworkManager runs inside a test namespace (`ip netns exec`) on the test's private bus, with a mount namespace of
/// its own in which `/sys` is read-only (so that it does not wait for a udev that is not there) and `/run` and
/// `/var/lib` are empty tmpfs (nothing of the machine's is seen or changed, not even a folder made). Its configuration manages `v0` only, with a keyfile profile (manual address, default route,
/// `metered`), touches no DNS file and checks no connectivity (so it says full once connected).
/// Where `.ci/run` unpacked network-manager (NETSTATUS_NETWORKMANAGER_ROOT).
let realNetworkManagerRoot = ProcessInfo.processInfo.environment["NETSTATUS_NETWORKMANAGER_ROOT"]

@Suite(
  "netstatus with a real NetworkManager", .serialized,
  .enabled(
    if: PrivateBus.testsEnabled && (realNetworkManagerRoot != nil || ProcessInfo.processInfo.environment["CI"] != nil),
    "needs NETSTATUS_NETWORKMANAGER_ROOT: a folder with network-manager's .deb unpacked (dpkg -x)"))
struct RealNetworkManagerTests {
  static let root = realNetworkManagerRoot

  static func profile(metered: Int) -> String {
    """
    [connection]
    id=v0
    type=ethernet
    interface-name=v0
    metered=\(metered)
    [ipv4]
    method=manual
    address1=198.51.100.2/24,198.51.100.1
    [ipv6]
    method=disabled

    """
  }

  /// Writes v0's profile, mode 0600 (NetworkManager ignores a keyfile others may read).
  static func writeProfile(_ path: String, metered: Int) throws {
    try profile(metered: metered).write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o600)
  }

  /// Reloads the profiles from disk and activates v0's again (NetworkManager's `ReloadConnections`,
  /// `ActivateConnection`; `Reapply` would refuse while the device is still activating).
  static func reapply(_ bus: PrivateBus) throws {
    let script = """
      import dbus, sys
      bus = dbus.bus.BusConnection(sys.argv[1])
      name = 'org.freedesktop.NetworkManager'
      settings = bus.get_object(name, '/org/freedesktop/NetworkManager/Settings')
      dbus.Interface(settings, name + '.Settings').ReloadConnections()
      manager = dbus.Interface(bus.get_object(name, '/org/freedesktop/NetworkManager'), name)
      device = manager.GetDeviceByIpIface('v0')
      profiles = dbus.Interface(settings, name + '.Settings')
      manager.ActivateConnection(profiles.ListConnections()[0], device, '/')
      """
    let child = try ChildProcess(executable: PrivateBus.python, ["-c", script, bus.address])
    let exit = child.waitUntilExit()
    guard exit == .exited(0) else {
      throw KernelTestSupport.CommandFailed(
        arguments: ["ActivateConnection"], status: -1, output: "\(exit): \(child.errorOutput)")
    }
  }

  @Test func meteredAndConnectivityFollowARealNetworkManager() async throws {
    let root = try #require(Self.root, "NETSTATUS_NETWORKMANAGER_ROOT is not set: .ci/run unpacks network-manager")
    let daemon = "\(root)/usr/sbin/NetworkManager"
    try #require(FileManager.default.isExecutableFile(atPath: daemon), "no \(daemon)")
    let target = try TestNamespace("nmreal")
    defer { target.delete() }
    let peer = try TestNamespace("nmrealp")
    defer { peer.delete() }
    try target.ip("link add v0 type veth peer name v1 netns \(peer.name)")
    try peer.ip("addr add 198.51.100.1/24 dev v1")
    try peer.ip("link set v1 up")
    let bus = try await PrivateBus()
    defer { bus.stop() }
    let folder = bus.folder
    try FileManager.default.createDirectory(atPath: "\(folder)/profiles", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: "\(folder)/state", withIntermediateDirectories: true)
    try """
    [main]
    plugins=keyfile
    dns=none
    rc-manager=unmanaged
    no-auto-default=*
    [keyfile]
    path=\(folder)/profiles
    unmanaged-devices=except:interface-name:v0
    [connectivity]
    enabled=false

    """.write(toFile: "\(folder)/NetworkManager.conf", atomically: true, encoding: .utf8)
    let profile = "\(folder)/profiles/v0.nmconnection"
    try Self.writeProfile(profile, metered: 1)
    chmod("\(folder)/profiles", 0o700)

    let setup = [
      "mount -o remount,ro /sys", "mount -t tmpfs nstest /run", "mount -t tmpfs nstest /var/lib",
      "exec env LD_LIBRARY_PATH=\(root)/usr/lib/x86_64-linux-gnu \(daemon) --no-daemon"
        + " --config=\(folder)/NetworkManager.conf --state-file=\(folder)/state/NetworkManager.state"
        + " --pid-file=\(folder)/state/NetworkManager.pid",
    ].joined(separator: " && ")
    let networkManager = try ChildProcess(
      executable: try #require(KernelTestSupport.ipPath), ["netns", "exec", target.name, "sh", "-c", setup],
      environment: bus.environment)
    defer { networkManager.terminate() }

    var environment = bus.environment
    environment["TSAN_OPTIONS"] = (environment["TSAN_OPTIONS"].map { $0 + " " } ?? "") + "atexit_sleep_ms=0"
    let watch = try ChildProcess(
      executable: try #require(KernelTestSupport.ipPath),
      ["netns", "exec", target.name, NetstatusProcess.binaryPath, "watch", "--json"], environment: environment)
    defer { watch.terminate() }
    // NetworkManager activates v0 (address, default route) with metered yes: one event for netstatus.
    try await NetstatusNetworkManagerEndToEndTests.awaitLine(watch, "v0 up and metered", timeout: .seconds(30)) {
      $0.isConnected && $0.isExpensive
    }

    let waited = try ChildProcess(
      executable: try #require(KernelTestSupport.ipPath),
      [
        "netns", "exec", target.name, NetstatusProcess.binaryPath, "wait", "--internet", "--networkmanager", "-t", "10",
      ],
      environment: environment)
    #expect(try await waited.waitForExit() == .exited(0), "NetworkManager says full: \(waited.errorOutput)")

    try Self.writeProfile(profile, metered: 2)
    try Self.reapply(bus)
    try await NetstatusNetworkManagerEndToEndTests.awaitLine(watch, "metered no once activated again") {
      $0.isConnected && !$0.isExpensive
    }
    try Self.writeProfile(profile, metered: 1)
    try Self.reapply(bus)
    try await NetstatusNetworkManagerEndToEndTests.awaitLine(watch, "metered yes again") { $0.isExpensive }

    // NetworkManager killed (by PID): the address and route stay, its view goes.
    networkManager.signal(SIGKILL)
    try await NetstatusNetworkManagerEndToEndTests.awaitLine(watch, "the fallback once NetworkManager died") {
      $0.isConnected && !$0.isExpensive
    }
  }
}
