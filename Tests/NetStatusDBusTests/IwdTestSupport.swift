import Foundation
import NetStatusLinuxTestSupport
import NetStatusTestSupport
import Testing

extension PrivateBus {
  static let iwdScript: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/iwd.py").path

  /// `Tests/Fixtures/iwd.py`: an iwd with one station for kernel interface `interface`, whose signal level agent
  /// hears `level` at once (`refuse`: the registration is refused; `hang`: its `GetManagedObjects` is answered
  /// only at `AnswerHeld`; `late`: no station until `AddDevice`; `garbageName`: the device's
  /// `Name` is a number). Its output has a line per
  /// event (`list`, `register …`, `changed LEVEL`, `unrequested reply`). ``stop()`` kills it.
  @discardableResult
  func startIwd(
    interface: String = "v0", level: UInt8 = 0, refuse: Bool = false, hang: Bool = false,
    late: Bool = false, garbageName: Bool = false
  ) async throws -> ChildProcess {
    let flags =
      (refuse ? ["--refuse"] : []) + (hang ? ["--hang"] : []) + (late ? ["--late"] : [])
      + (garbageName ? ["--garbage-name"] : [])
    let child = try ChildProcess(
      executable: Self.python,
      [Self.iwdScript, "--address", address, "--interface", interface, "--level", "\(level)"]
        + flags, environment: environment)
    keep(child)
    try await child.lines.waitUntil(timeout: .seconds(20), "the iwd stand-in to own its name") {
      $0.contains("ready")
    }
    return child
  }

  /// Calls the iwd stand-in's test method `method` (`SetLevel`, `SetLevelExpectingReply`, `SendGarbage`, `Release`,
  /// `RemoveStation`, `AddStation`, `AddDevice`, `AnswerHeld`) with `arguments` in dbus-send's syntax.
  func iwd(_ method: String, _ arguments: [String] = []) throws {
    try send("/", "org.netstatus.Test.\(method)", arguments, destination: "net.connman.iwd")
  }
}
