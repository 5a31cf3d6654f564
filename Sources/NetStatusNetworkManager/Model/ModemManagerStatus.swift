/// Where the ModemManager integration stands: ModemManager followed on ``NetworkManagerWatch``'s connection (Linux),
/// pure.
///
/// As ``NetworkManagerStatus``: `stopped` without subscribers; `unavailable` without libsystemd or a system bus,
/// without an answer within the start-up budget, or after an answer NetStatus cannot use; `absent` when ModemManager
/// is not on the bus (quiet: one call at the start, then only its name is followed); `running` with its modems.
package enum ModemManagerStatus: Sendable, Hashable {
  /// No subscriber: nothing is connected.
  case stopped
  /// The integration cannot work now, for this reason.
  case unavailable(String)
  /// Connected to the system bus, but ModemManager is not on it.
  case absent
  /// ModemManager answers: its modems.
  case running(ModemManagerView)

  /// The view to apply, when ModemManager answers.
  package var view: ModemManagerView? {
    if case .running(let view) = self { return view }
    return nil
  }

  /// The status after ModemManager's `GetManagedObjects` failed with a D-Bus error named `errorName` (empty when
  /// there was none): absent when no service owns the name, else unavailable; refused by the bus's policy,
  /// unavailable with that said.
  static func afterFailedListing(errorName: String, description: String) -> ModemManagerStatus {
    if NetworkManagerStatus.absentErrorNames.contains(errorName) { return .absent }
    if errorName == NetworkManagerStatus.accessDenied {
      return .unavailable(
        "the system bus's policy does not let this process call ModemManager (\(errorName): \(description))")
    }
    return .unavailable(
      "ModemManager did not answer: " + (errorName.isEmpty ? description : "\(errorName) (\(description))"))
  }

  /// The status when ModemManager's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs).
  static func noAnswer(within budget: Duration, busAnswered: Bool) -> ModemManagerStatus {
    let milliseconds = budget.components.seconds * 1000 + budget.components.attoseconds / 1_000_000_000_000_000
    let cause = busAnswered ? "listing its modems" : "the system bus did not answer"
    return .unavailable(
      "ModemManager did not answer within \(milliseconds) ms (\(cause)); its answer is applied when it comes")
  }

  /// The status that goes with NetworkManager's `status` when the connection itself fails (no libsystemd, no bus,
  /// the connection lost): the same reason; `nil` for a status of NetworkManager's own.
  static func sharing(_ status: NetworkManagerStatus) -> ModemManagerStatus? {
    switch status {
    case .stopped: .stopped
    case .unavailable(let reason): .unavailable(reason)
    case .absent, .running: nil
    }
  }

  /// The diagnostic entry: ModemManager rates a cellular path's link quality.
  package var diagnostic: SourceDiagnostic {
    let status: SourceDiagnostic.Status
    var note: String?
    switch self {
    case .stopped: status = .unavailable(reason: "not started (the monitor is stopped)")
    case .unavailable(let reason): status = .unavailable(reason: reason)
    case .absent: status = .unavailable(reason: "ModemManager is not running (not on the system bus)")
    case .running(let view):
      status = .active
      note = view.problems.isEmpty ? nil : view.problems.joined(separator: "; ")
    }
    return SourceDiagnostic(name: "ModemManager", provides: "cellular signal", status: status, note: note)
  }
}
