import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

extension PrivateBus {
  static let modemManagerScript: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/modem_manager.py").path

  /// `Tests/Fixtures/modem_manager.py`: a ModemManager with one modem whose `NET` port is `interface` and whose
  /// `SignalQuality` is `quality` percent (`garbage`: its properties of other types; `garbageListing`: a
  /// `GetManagedObjects` answered with a string; `hang`: answered only at `AnswerHeld`).
  /// Its output has a line per `GetManagedObjects` (`list`). ``stop()`` kills it.
  @discardableResult
  func startModemManager(
    interface: String = "v0", quality: UInt32 = 80, garbage: Bool = false, garbageListing: Bool = false,
    hang: Bool = false
  ) async throws -> ChildProcess {
    let flags =
      (garbage ? ["--garbage"] : []) + (garbageListing ? ["--garbage-listing"] : []) + (hang ? ["--hang"] : [])
    let child = try ChildProcess(
      executable: Self.python,
      [
        Self.modemManagerScript, "--address", address, "--interface", interface, "--quality", "\(quality)",
      ] + flags, environment: environment)
    keep(child)
    try await child.lines.waitUntil(timeout: .seconds(20), "the ModemManager stand-in to own its name") {
      $0.contains("ready")
    }
    return child
  }

  /// Calls the ModemManager stand-in's test method `method` (`SetQuality`, `RemoveModem`, `AddModem`,
  /// `AnswerHeld`) with `arguments` in dbus-send's syntax.
  func modemManager(_ method: String, _ arguments: [String] = []) throws {
    try send(
      "/org/freedesktop/ModemManager1", "org.netstatus.Test.\(method)", arguments,
      destination: "org.freedesktop.ModemManager1")
  }
}
