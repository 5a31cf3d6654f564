import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Synchronization
import Testing

@testable import NetStatusCore

/// A private D-Bus daemon (a system bus of the test's own, on a Unix socket under /tmp, so that a process inside a
/// test network namespace reaches it too) and python3-dbusmock's NetworkManager template on it.
///
/// Debian packages `dbus-daemon` (or `dbus`) and `python3-dbusmock`; `.ci/run` installs them. dbusmock runs under
/// the system's python (`/usr/bin/python3`), where apt installs it. Stop everything with ``stop()`` in a `defer`.
final class PrivateBus: Sendable {
  static let daemonPath = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let sendPath = ["/usr/bin/dbus-send", "/bin/dbus-send"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let python = "/usr/bin/python3"

  /// Whether the tools are here: dbus-daemon, dbus-send, and dbusmock under /usr/bin/python3.
  static let toolsAvailable: Bool = {
    guard daemonPath != nil, sendPath != nil, FileManager.default.isExecutableFile(atPath: python) else { return false }
    guard let child = try? ChildProcess(executable: python, ["-c", "import dbusmock"]) else { return false }
    return child.waitUntilExit() == .exited(0)
  }()

  /// Whether the tests run: root, namespaces, and the tools, which must be there under CI (`.ci/run` installs
  /// them): there the tests fail instead of skipping.
  static let testsEnabled: Bool = {
    guard KernelTestSupport.namespacesAvailable else { return false }
    return toolsAvailable || ProcessInfo.processInfo.environment["CI"] != nil
  }()

  static let skipReason: Comment =
    "NetworkManager tests need root, namespaces, dbus-daemon, dbus-send and python3-dbusmock (/usr/bin/python3)"

  private static let counter = Atomic<Int>(0)

  let folder: String
  /// The bus's D-Bus address (`unix:path=…`).
  let address: String
  private let daemon: ChildProcess
  private let mock = Mutex<ChildProcess?>(nil)
  /// The other services' stand-ins (ModemManager's, iwd's): killed by ``stop()``.
  private let helpers = Mutex<[ChildProcess]>([])

  init() async throws {
    try #require(Self.toolsAvailable, "dbus-daemon, dbus-send or python3-dbusmock is missing: .ci/run installs them")
    let number = Self.counter.add(1, ordering: .relaxed).newValue
    folder = "/tmp/nstest-dbus-\(getpid())-\(number)"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    address = "unix:path=\(folder)/bus"
    let configuration = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>system</type>
        <listen>\(address)</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow user="*"/>
          <allow own="*"/>
          <allow send_destination="*"/>
          <allow receive_sender="*"/>
          <!-- Unrequested replies too (a strict bus drops them), so that a stand-in sees one and can say so. -->
          <allow send_destination="*" send_requested_reply="false"/>
          <allow receive_sender="*" receive_requested_reply="false"/>
        </policy>
      </busconfig>
      """
    try configuration.write(toFile: "\(folder)/bus.conf", atomically: true, encoding: .utf8)
    daemon = try ChildProcess(
      executable: Self.daemonPath!, ["--config-file=\(folder)/bus.conf", "--nofork", "--print-address=1"])
    do {
      // It prints its address once it listens.
      try await daemon.lines.waitFor(count: 1, timeout: .seconds(10), "dbus-daemon to listen")
    } catch {
      daemon.terminate()
      throw error
    }
  }

  /// The environment of a process that uses this bus as its system bus.
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
    environment["NO_COLOR"] = nil
    return environment
  }

  /// Starts dbusmock's NetworkManager template (Connectivity full, no device) and waits until it owns its name.
  func startNetworkManager() async throws {
    let child = try ChildProcess(
      executable: Self.python, ["-m", "dbusmock", "--system", "--template", "networkmanager"], environment: environment)
    mock.withLock { $0 = child }
    try await withTimeout(.seconds(20), "dbusmock's NetworkManager on the bus") {
      while try self.send(
        "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", ["string:org.freedesktop.NetworkManager"],
        destination: "org.freedesktop.DBus"
      ).contains("boolean false") {
        try await Task.sleep(for: .milliseconds(10))  // paced: each check runs dbus-send
      }
    }
  }

  /// `Tests/Fixtures/hanging_networkmanager.py`: a NetworkManager of `devices` devices (the first for kernel
  /// interface `interface`, `Metered` `metered`, a Wi-Fi device whose access point has `Strength` `wifi` if given,
  /// a string instead with `wifiGarbage`) that leaves unanswered the Gets `hang` says (`none`, `devices`,
  /// `accesspoints`, `all`) until its test method `AnswerHeld`. Its output has a line per Get
  /// (`get PATH PROPERTY`).
  @discardableResult
  func startHangingNetworkManager(
    devices: Int = 1, interface: String = "v0", metered: UInt32 = 1, wifi: UInt8? = nil, wifiGarbage: Bool = false,
    hang: String
  ) async throws -> ChildProcess {
    let wifiArguments = (wifi.map { ["--wifi", "\($0)"] } ?? []) + (wifiGarbage ? ["--wifi-garbage"] : [])
    let child = try ChildProcess(
      executable: Self.python,
      [
        Self.hangingScript, "--address", address, "--devices", "\(devices)", "--interface", interface, "--metered",
        "\(metered)", "--hang", hang,
      ] + wifiArguments, environment: environment)
    mock.withLock { $0 = child }
    try await child.lines.waitUntil(timeout: .seconds(20), "the hanging NetworkManager to own its name") {
      $0.contains("ready")
    }
    return child
  }

  static let hangingScript: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hanging_networkmanager.py").path

  /// The output of the NetworkManager running now (dbusmock logs each `Get`, the hanging one prints `get`).
  var networkManagerOutput: [String] { mock.withLock { $0?.lines.values ?? [] } }

  /// The property reads NetworkManager logged (dbusmock: `TIME Get PATH INTERFACE.PROPERTY`), as far as this process
  /// has read its output: call ``logCaughtUp()`` first to count every read made until then.
  var readsLogged: Int { networkManagerOutput.filter { $0.contains(" Get /org/freedesktop/NetworkManager") }.count }

  /// Waits until this process has read every line dbusmock's NetworkManager logged before the call. dbusmock writes a
  /// call's line before it answers, but a thread of this process reads that output: right after an answer, its line
  /// may not be here yet. So this makes a call of its own that dbusmock logs (`GetAll` on the manager, which
  /// ``readsLogged`` does not count) and awaits its line, which comes after every earlier one.
  func logCaughtUp(timeout: Duration = .seconds(20)) async throws {
    guard let mock = mock.withLock({ $0 }) else { return }
    let marker = " GetAll /org/freedesktop/NetworkManager org.freedesktop.NetworkManager"
    let before = mock.lines.values.filter { $0.contains(marker) }.count
    try python(
      """
      BUS.get_object('org.freedesktop.NetworkManager', '/org/freedesktop/NetworkManager').GetAll(
          'org.freedesktop.NetworkManager', dbus_interface='org.freedesktop.DBus.Properties')
      """)
    try await mock.lines.waitUntil(timeout: timeout, "NetworkManager's log up to the test's own GetAll") {
      $0.filter { $0.contains(marker) }.count > before
    }
  }

  /// Runs a python script (dbus-python) on this bus, which is its `BUS`: setups and floods that would take a
  /// dbus-send process per call.
  func python(_ script: String) throws {
    let child = try ChildProcess(
      executable: Self.python,
      ["-c", "import dbus, dbus.bus, time\nBUS = dbus.bus.BusConnection('\(address)')\n" + script],
      environment: environment)
    let exit = child.waitUntilExit()
    guard exit == .exited(0) else {
      throw KernelTestSupport.CommandFailed(arguments: ["python3", "-c"], status: -1, output: child.errorOutput)
    }
  }

  /// Stops the bus daemon (SIGSTOP, by its PID): it keeps its socket, and answers nothing, not even the
  /// authentication, until ``resumeDaemon()``.
  func pauseDaemon() {
    daemon.signal(SIGSTOP)
  }

  /// Lets a paused daemon run again (SIGCONT).
  func resumeDaemon() {
    daemon.signal(SIGCONT)
  }

  /// Kills the mock NetworkManager (SIGKILL, by its PID): its name leaves the bus.
  func killNetworkManager() {
    mock.withLock { $0.take() }?.signal(SIGKILL)
  }

  /// Kills the bus daemon (SIGKILL, by its PID): every connection to it is lost.
  func killDaemon() {
    daemon.signal(SIGKILL)
  }

  /// Calls a method with `dbus-send` (arguments in its syntax: `string:x`, `variant:uint32:1`) and returns the
  /// reply as dbus-send prints it.
  @discardableResult
  func send(
    _ path: String, _ method: String, _ arguments: [String], destination: String = "org.freedesktop.NetworkManager"
  ) throws -> String {
    let child = try ChildProcess(
      executable: Self.sendPath!,
      ["--bus=\(address)", "--print-reply", "--dest=\(destination)", path, method] + arguments)
    let exit = child.waitUntilExit()
    guard exit == .exited(0) else {
      throw KernelTestSupport.CommandFailed(
        arguments: ["dbus-send", method] + arguments, status: -1, output: "\(exit): \(child.errorOutput)")
    }
    return child.lines.values.joined(separator: "\n")
  }

  /// Adds an ethernet device for kernel interface `interface` with `Metered` set (NMMetered: 1 yes, 2 no, 3
  /// guess-yes): DeviceAdded, then a new property.
  func addDevice(_ interface: String, metered: UInt32) throws {
    let path = "/org/freedesktop/NetworkManager/Devices/\(interface)"
    try send(
      "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock.AddEthernetDevice",
      ["string:\(interface)", "string:\(interface)", "int32:100"])
    try send(
      path, "org.freedesktop.DBus.Mock.AddProperty",
      ["string:org.freedesktop.NetworkManager.Device", "string:Metered", "variant:uint32:\(metered)"])
  }

  /// Sets a device's `Metered` (PropertiesChanged follows).
  func setMetered(_ interface: String, _ metered: UInt32) throws {
    try send(
      "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock.SetProperty",
      [
        "string:/org/freedesktop/NetworkManager/Devices/\(interface)", "string:org.freedesktop.NetworkManager.Device",
        "string:Metered", "variant:uint32:\(metered)",
      ])
  }

  /// Gives device `interface` the property `name` (a `u`) it did not have (AddProperty emits no signal).
  func addDeviceProperty(_ interface: String, _ name: String, _ value: UInt32) throws {
    try send(
      "/org/freedesktop/NetworkManager/Devices/\(interface)", "org.freedesktop.DBus.Mock.AddProperty",
      ["string:org.freedesktop.NetworkManager.Device", "string:\(name)", "variant:uint32:\(value)"])
  }

  /// Sets device `interface`'s property `name` (a `u`; PropertiesChanged follows).
  func setDeviceProperty(_ interface: String, _ name: String, _ value: UInt32) throws {
    try send(
      "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock.SetProperty",
      [
        "string:/org/freedesktop/NetworkManager/Devices/\(interface)", "string:org.freedesktop.NetworkManager.Device",
        "string:\(name)", "variant:uint32:\(value)",
      ])
  }

  /// Sets the manager's `Connectivity` (NMConnectivityState: 1 none, 2 portal, 3 limited, 4 full).
  func setConnectivity(_ value: UInt32) throws {
    try send("/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock.SetConnectivity", ["uint32:\(value)"])
  }

  /// Keeps a stand-in of another service, for ``stop()`` to kill.
  func keep(_ helper: ChildProcess) {
    helpers.withLock { $0.append(helper) }
  }

  /// Kills the other services' stand-ins (SIGKILL, by their PIDs): their names leave the bus.
  func killHelpers() {
    let killed = helpers.withLock { helpers in
      defer { helpers = [] }
      return helpers
    }
    for helper in killed { helper.signal(SIGKILL) }
  }

  /// Ends the mock and the daemon and removes the folder.
  func stop() {
    killNetworkManager()
    for helper in helpers.withLock({ $0 }) { helper.signal(SIGKILL) }
    resumeDaemon()
    daemon.terminate()
    try? FileManager.default.removeItem(atPath: folder)
  }
}
