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
  /// there was none): absent when no service owns the name, else unavailable
  /// (``BusService/failureReason(of:errorName:description:)``: a refusal by the bus's policy says so).
  static func afterFailedListing(errorName: String, description: String) -> ModemManagerStatus {
    BusService.failureReason(of: "ModemManager", errorName: errorName, description: description)
      .map(ModemManagerStatus.unavailable) ?? .absent
  }

  /// The status when ModemManager's first answer did not come within `budget`: `busAnswered` is whether the bus
  /// answered anything (else the bus itself hangs).
  static func noAnswer(within budget: Duration, busAnswered: Bool) -> ModemManagerStatus {
    .unavailable(
      BusService.noAnswerReason(
        of: "ModemManager", within: budget, busAnswered: busAnswered, waitingFor: "listing its modems"))
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
    let state: BusService.State
    switch self {
    case .stopped: state = .stopped
    case .unavailable(let reason): state = .unavailable(reason)
    case .absent: state = .absent
    case .running(let view): state = .running(problems: view.problems)
    }
    return BusService.diagnostic("ModemManager", provides: "cellular signal", state)
  }
}
